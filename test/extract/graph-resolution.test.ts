import { describe, expect, it } from 'vitest';
import { ActorNames, graphActors, graphLocations, graphNames, LocationNames, resolveAgainstGraph } from '../../engine/extract/graph-resolution.ts';
import type { StructuredDocument, StructuredNode } from '../../engine/extract/structure/index.ts';
import type { NodeRecord, PropertyValue } from '../../engine/ontology/index.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';
import { deriveEdgeId, deriveNodeId } from '../../engine/store/ids.ts';

/** The written rule for extracted actors against a graph's actors (engine/extract/graph-resolution.ts), case by case. */

const RECORDED = '2025-01-01T00:00:00Z';

function graphOf(actors: Record<string, Record<string, PropertyValue>>): GraphIndex {
  const nodes: NodeRecord[] = Object.entries(actors).map(([id, properties]) => ({ id, labels: ['Actor'], properties, confidence: 1, provenance: [], recorded_at: RECORDED }));
  return GraphIndex.fromRecords(nodes, []);
}

function extractedActor(label: string, actor_type: string, aliases: string[] = [], start = 0): StructuredNode {
  return {
    id: deriveNodeId('Actor', { label }), labels: ['Actor'], properties: { label, actor_type, role: 'unknown', aliases }, confidence: 0.9,
    provenance: [{ source: 'doc', timestamp: RECORDED, span: { start, end: start + label.length }, quote: label }],
  };
}

/** One actor speaking one claim, as structuring writes it. */
function spoken(actor: StructuredNode): StructuredDocument {
  const claim: StructuredNode = {
    id: deriveNodeId('Claim', { type: 'Demand', speaker: actor.id, text: 'withdraw' }), labels: ['Claim'],
    properties: { type: 'Demand', speaker: actor.id, text: 'withdraw' }, confidence: 0.7, provenance: [],
  };
  return {
    nodes: [actor, claim],
    edges: [{ id: deriveEdgeId('ASSERTS', actor.id, claim.id), type: 'ASSERTS', from: actor.id, to: claim.id, properties: {}, confidence: 0.7, provenance: [] }],
  };
}

const actorIds = (document: StructuredDocument) => document.nodes.filter((node) => node.labels[0] === 'Actor').map((node) => node.id);

describe('resolving extracted actors against the graph', () => {
  it('(a) the same label, normalised: the graph node wins its id, label, known type and role; the claim follows with a new id', () => {
    const graph = graphOf({ rsf: { label: 'Rapid Support Forces', actor_type: 'armed_group', role: 'party' } });
    const document = spoken(extractedActor('rapid support forces', 'unknown', ['RSF']));
    const resolved = resolveAgainstGraph(document, graph, graphNames(graph));
    const [actor, claim] = resolved.nodes;
    expect(actor).toMatchObject({ id: 'rsf', properties: { label: 'Rapid Support Forces', actor_type: 'armed_group', role: 'party', aliases: ['RSF'] } });
    expect(claim.properties.speaker).toBe('rsf');
    expect(claim.id).toBe(deriveNodeId('Claim', { type: 'Demand', speaker: 'rsf', text: 'withdraw' }));
    expect(resolved.edges).toEqual([expect.objectContaining({ type: 'ASSERTS', from: 'rsf', to: claim.id, id: deriveEdgeId('ASSERTS', 'rsf', claim.id) })]);
    // The input is left as it was.
    expect(document.nodes[0].id).toBe(deriveNodeId('Actor', { label: 'rapid support forces' }));
  });

  it('(b) a label that is the other side\'s alias, and (c) a shared alias; the extracted label is kept as an alias', () => {
    const graph = graphOf({ saf: { label: 'SAF', actor_type: 'armed_forces', aliases: ['Sudanese Armed Forces'] }, hemedti: { label: 'Mohamed Hamdan Dagalo', actor_type: 'individual', aliases: ['Hemedti'] } });
    const byAlias = resolveAgainstGraph(spoken(extractedActor('Sudanese Armed Forces', 'armed_forces')), graph, graphNames(graph));
    expect(byAlias.nodes[0]).toMatchObject({ id: 'saf', properties: { label: 'SAF', aliases: ['Sudanese Armed Forces'] } });
    const shared = resolveAgainstGraph(spoken(extractedActor('General Dagalo', 'individual', ['Hemedti'])), graph, graphNames(graph));
    expect(shared.nodes[0]).toMatchObject({ id: 'hemedti', properties: { label: 'Mohamed Hamdan Dagalo', aliases: ['General Dagalo', 'Hemedti'] } });
  });

  it('a person never matches an organisation, nor an organisation a person; unknown types agree with any', () => {
    const graph = graphOf({ envoy: { label: 'Ismail Wais', actor_type: 'individual', aliases: ['IGAD'] }, loose: { label: 'Kessari Front', actor_type: 'unknown' } });
    expect(actorIds(resolveAgainstGraph(spoken(extractedActor('IGAD', 'international_org')), graph, graphNames(graph)))).toEqual([deriveNodeId('Actor', { label: 'IGAD' })]);
    expect(actorIds(resolveAgainstGraph(spoken(extractedActor('Kessari Front', 'armed_group')), graph, graphNames(graph)))).toEqual(['loose']);
    // The graph's unknown type does not overwrite what the document says.
    expect(resolveAgainstGraph(spoken(extractedActor('Kessari Front', 'armed_group')), graph, graphNames(graph)).nodes[0].properties.actor_type).toBe('armed_group');
  });

  it('an ambiguous name stays its own node; the same type breaks a tie; the earliest level decides', () => {
    const twins = graphOf({ a: { label: 'Army', actor_type: 'armed_forces', aliases: ['AA'] }, b: { label: 'Arakan Army', actor_type: 'armed_group', aliases: ['AA'] } });
    expect(actorIds(resolveAgainstGraph(spoken(extractedActor('AA', 'unknown')), twins, graphNames(twins)))).toEqual([deriveNodeId('Actor', { label: 'AA' })]);
    expect(actorIds(resolveAgainstGraph(spoken(extractedActor('AA', 'armed_group')), twins, graphNames(twins)))).toEqual(['b']);
    // A label match (level a) beats an alias match (level c) on another node.
    expect(actorIds(resolveAgainstGraph(spoken(extractedActor('Arakan Army', 'armed_forces', ['AA'])), twins, graphNames(twins)))).toEqual(['b']);
  });

  it('an extracted node whose id the graph has stays on it; two extracted nodes that are one graph node become one', () => {
    const label = 'Justice and Equality Movement';
    const graph = graphOf({ [deriveNodeId('Actor', { label })]: { label, actor_type: 'armed_group' }, jem: { label: 'JEM', actor_type: 'armed_group', aliases: [label] } });
    expect(actorIds(resolveAgainstGraph(spoken(extractedActor(label, 'armed_group')), graph, graphNames(graph)))).toEqual([deriveNodeId('Actor', { label })]);

    const single = graphOf({ burhan: { label: 'Abdel Fattah al-Burhan', actor_type: 'individual', aliases: ['Burhan'] } });
    const full = extractedActor('Abdel Fattah al-Burhan', 'individual', [], 0);
    const short = extractedActor('Burhan', 'individual', [], 60);
    const document: StructuredDocument = {
      nodes: [full, short],
      edges: [{ id: deriveEdgeId('ALLIED_WITH', full.id, short.id), type: 'ALLIED_WITH', from: full.id, to: short.id, properties: {}, confidence: 0.5, provenance: [] }],
    };
    const resolved = resolveAgainstGraph(document, single, graphNames(single));
    expect(resolved.nodes).toHaveLength(1);
    expect(resolved.nodes[0]).toMatchObject({ id: 'burhan', properties: { aliases: ['Burhan'] } });
    expect(resolved.nodes[0].provenance.map((record) => record.span!.start)).toEqual([0, 60]);
    expect(resolved.edges).toEqual([]);
  });

  it('names kept in step with set() resolve as names read afresh from the changed graph', () => {
    const before = {
      rsf: { label: 'Rapid Support Forces', actor_type: 'armed_group', aliases: ['RSF'] },
      saf: { label: 'Sudanese Armed Forces', actor_type: 'armed_forces', aliases: ['SAF'] },
      rdf: { label: 'Rapid Deployment Force', actor_type: 'individual', aliases: ['RDF', 'rdf'] },
    };
    const after = {
      // an alias dropped, one added; a label changed; a type learned; an actor gone; one new
      rsf: { label: 'Rapid Support Forces', actor_type: 'armed_group', aliases: ['Janjaweed'] },
      saf: { label: 'SAF', actor_type: 'armed_forces', aliases: ['Sudanese Armed Forces'] },
      hemedti: { label: 'Mohamed Hamdan Dagalo', actor_type: 'individual', aliases: ['Hemedti'] },
      // the same names (two aliases alike once normalised), the type changed: replaced where it is filed
      rdf: { label: 'Rapid Deployment Force', actor_type: 'armed_forces', aliases: ['RDF', 'rdf'] },
    };
    const kept = new ActorNames(graphActors(graphOf(before)));
    for (const [id, properties] of Object.entries(after)) kept.set(id, properties);
    kept.set('gone', undefined);
    const graph = graphOf(after);
    const afresh = new ActorNames(graphActors(graph));
    const extracted = [
      extractedActor('RSF', 'armed_group'), extractedActor('Janjaweed', 'unknown'), extractedActor('SAF', 'armed_forces'),
      extractedActor('Sudanese Armed Forces', 'armed_forces'), extractedActor('Hemedti', 'individual'), extractedActor('Hemedti', 'armed_group'),
      extractedActor('RDF', 'armed_forces'),
    ];
    const resolvedIds = extracted.map((actor) => actorIds(resolveAgainstGraph(spoken(actor), graph, { ...graphNames(graph), actors: kept })));
    expect(resolvedIds).toEqual(extracted.map((actor) => actorIds(resolveAgainstGraph(spoken(actor), graph, { ...graphNames(graph), actors: afresh }))));
    // the dropped alias no longer matches; the new names do
    expect(resolvedIds).toEqual([[deriveNodeId('Actor', { label: 'RSF' })], ['rsf'], ['saf'], ['saf'], ['hemedti'], [deriveNodeId('Actor', { label: 'Hemedti' })], ['rdf']]);
  });

  it('places kept in step with set() resolve as places read afresh from the changed graph', () => {
    const placesOf = (places: Record<string, Record<string, PropertyValue>>) =>
      GraphIndex.fromRecords(Object.entries(places).map(([id, properties]) => ({ id, labels: ['Location'], properties, confidence: 1, provenance: [], recorded_at: RECORDED })), []);
    const before = { 'el-fasher': { label: 'Al-Fashir', location_type: 'city', aliases: ['El Fasher'] }, sake: { label: 'Sake', country_code: 'CD' } };
    const after = {
      // an alias dropped, one added; a country learned; a place gone; one new
      'el-fasher': { label: 'Al-Fashir', location_type: 'city', aliases: ['Fasher'] },
      sake: { label: 'Sake', country_code: 'SD' },
      goma: { label: 'Goma', location_type: 'city', country_code: 'CD', aliases: ['Ngoma'] },
    };
    const kept = new LocationNames(graphLocations(placesOf(before)));
    for (const [id, properties] of Object.entries(after)) kept.set(id, properties);
    kept.set('gone', undefined);
    const graph = placesOf(after);
    const place = (label: string, properties: Record<string, PropertyValue> = {}): StructuredDocument => ({
      nodes: [{ id: deriveNodeId('Location', { label }), labels: ['Location'], properties: { label, location_type: 'city', ...properties }, confidence: 0.8, provenance: [] }],
      edges: [],
    });
    const extracted = [place('El Fasher'), place('Fasher'), place('Sake', { country_code: 'CD' }), place('Sake', { country_code: 'SD' }), place('Ngoma'), place('Goma', { country_code: 'RW' })];
    const ids = (names: LocationNames) => extracted.map((document) => resolveAgainstGraph(document, graph, { actors: new ActorNames([]), places: names }).nodes.map((node) => node.id));
    const resolvedIds = ids(kept);
    expect(resolvedIds).toEqual(ids(new LocationNames(graphLocations(graph))));
    // the dropped alias and the old country no longer match; the new names and country do
    expect(resolvedIds).toEqual([[deriveNodeId('Location', { label: 'El Fasher' })], ['el-fasher'], [deriveNodeId('Location', { label: 'Sake' })], ['sake'], ['goma'], [deriveNodeId('Location', { label: 'Goma' })]]);
  });
});
