import { describe, expect, it } from 'vitest';
import { actorDirectory, COMBINATION_POLICIES, structureDocument, type StructureInput, type StructuredDocument } from '../../../engine/extract/structure/index.ts';
import { deriveNodeId } from '../../../engine/store/ids.ts';
import { validTime } from '../../../engine/store/view.ts';
import type { Findings, NeuralEntity } from '../../../engine/extract/types.ts';
import { TIER_EDGE_TYPES, TIER_NODE_KINDS } from '../../../engine/ontology/index.ts';
import { SUDAN_SENTENCE, emptyFindings, spanOf, sudanFindings } from './fixtures.ts';

function input(text: string, findings: Findings, overrides: Partial<StructureInput> = {}): StructureInput {
  return {
    document: { text, source: 'fixture.txt' }, documentId: 'document_fixture', sha256: 'f'.repeat(64), findings,
    neural: null, tier: 'full', extractor: 'parley-rules/test + none', ingestedAt: '2026-01-01T00:00:00.000Z', ...overrides,
  };
}

function node(graph: StructuredDocument, kind: string, label: string) {
  return graph.nodes.find((n) => n.labels[0] === kind && n.properties.label === label);
}

function edgesOf(graph: StructuredDocument, type: string) {
  return graph.edges.filter((edge) => edge.type === type);
}

describe('structure stage on the Sudan sentence', () => {
  const graph = structureDocument(input(SUDAN_SENTENCE, sudanFindings()));
  const rsf = node(graph, 'Actor', 'Rapid Support Forces')!;
  const saf = node(graph, 'Actor', 'Sudanese Armed Forces')!;
  const burhan = node(graph, 'Actor', 'Abdel Fattah al-Burhan')!;

  it('resolves the acronym, the definite description and the titled name into three actors', () => {
    const actors = graph.nodes.filter((n) => n.labels[0] === 'Actor');
    expect(actors.map((a) => a.properties.label).sort()).toEqual(['Abdel Fattah al-Burhan', 'Rapid Support Forces', 'Sudanese Armed Forces']);
    expect(rsf.properties).toMatchObject({ actor_type: 'armed_group', role: 'party', aliases: ['RSF'] });
    expect(saf.properties.actor_type).toBe('armed_forces');
    expect(burhan.properties.actor_type).toBe('individual');
    // "the army" is grounded on the SAF node, not a node of its own.
    expect(saf.provenance.map((p) => p.quote)).toContain('the army');
  });

  it('derives actor ids from the canonical label alone', () => {
    expect(rsf.id).toBe(deriveNodeId('Actor', { label: 'Rapid Support Forces' }));
    expect(saf.id).toBe(deriveNodeId('Actor', { label: 'sudanese armed forces' }));
  });

  it('links the general to his army, the claim to speaker and target, the event to place and date', () => {
    expect(edgesOf(graph, 'MEMBER_OF').map((e) => [e.from, e.to])).toEqual([[burhan.id, saf.id]]);
    const claim = graph.nodes.find((n) => n.labels[0] === 'Claim')!;
    expect(claim.properties).toMatchObject({ type: 'RedLine', speaker: burhan.id });
    expect(edgesOf(graph, 'ASSERTS').map((e) => [e.from, e.to])).toEqual([[burhan.id, claim.id]]);
    expect(edgesOf(graph, 'TARGETS').map((e) => [e.from, e.to])).toEqual([[claim.id, rsf.id]]);
    const event = graph.nodes.find((n) => n.labels[0] === 'Event')!;
    expect(event.properties).toMatchObject({ event_type: 'ASSAULT', date: '2024-03-03', label: 'attacked El Fasher' });
    const fasher = node(graph, 'Location', 'El Fasher')!;
    expect(fasher.properties).toMatchObject({ location_type: 'city', country_code: 'SD' });
    expect(edgesOf(graph, 'OCCURRED_AT').map((e) => [e.from, e.to])).toEqual([[event.id, fasher.id]]);
    expect(edgesOf(graph, 'PARTICIPATES_IN').map((e) => [e.from, e.to, e.properties.role])).toEqual([[rsf.id, event.id, 'perpetrator']]);
    expect(event.provenance[0].timestamp).toBe('2024-03-03');
  });

  it('says which timestamps are only when the undated document was ingested, so that none is read as a time in the world', () => {
    const claim = graph.nodes.find((n) => n.labels[0] === 'Claim')!;
    expect(claim.provenance[0]).toMatchObject({ timestamp: '2026-01-01T00:00:00.000Z', timestamp_of: 'ingestion' });
    expect(validTime(claim)).toBeUndefined();
    const event = graph.nodes.find((n) => n.labels[0] === 'Event')!; // dated by the text itself
    expect(event.provenance[0].timestamp_of).toBeUndefined();
    expect(validTime(event)).toBe('2024-03-03');
    const dated = structureDocument(input(SUDAN_SENTENCE, sudanFindings(), { document: { text: SUDAN_SENTENCE, source: 'fixture.txt', document_date: '2024-03-04' } }));
    const datedClaim = dated.nodes.find((n) => n.labels[0] === 'Claim')!;
    expect(datedClaim.provenance[0]).toMatchObject({ timestamp: '2024-03-04' });
    expect(datedClaim.provenance[0].timestamp_of).toBeUndefined();
    expect(validTime(datedClaim)).toBe('2024-03-04');
  });

  it('gives every node and edge provenance whose span indexes the text exactly', () => {
    const records = [...graph.nodes, ...graph.edges].flatMap((item) => item.provenance.map((p) => ({ item, p })));
    expect(records.length).toBeGreaterThan(graph.nodes.length + graph.edges.length - 1);
    for (const item of [...graph.nodes, ...graph.edges]) expect(item.provenance.length).toBeGreaterThan(0);
    for (const { p } of records) {
      expect(SUDAN_SENTENCE.slice(p.span!.start, p.span!.end)).toBe(p.quote);
      expect(p).toMatchObject({ source: 'fixture.txt', document_id: 'document_fixture', extractor: 'parley-rules/test + none' });
    }
  });

  it('points every node at its document with MENTIONED_IN', () => {
    const documentNode = graph.nodes.find((n) => n.labels[0] === 'Document')!;
    expect(documentNode.properties).toMatchObject({ source: 'fixture.txt', sha256: 'f'.repeat(64) });
    const mentioned = new Set(edgesOf(graph, 'MENTIONED_IN').map((e) => e.from));
    for (const n of graph.nodes) if (n !== documentNode) expect(mentioned.has(n.id)).toBe(true);
  });

  it("never targets the speaker's own organisation", () => {
    const findings = sudanFindings();
    findings.claims[0].targets.push(spanOf(SUDAN_SENTENCE, 'the army'));
    const withOwnArmy = structureDocument(input(SUDAN_SENTENCE, findings));
    expect(edgesOf(withOwnArmy, 'TARGETS').map((e) => e.to)).toEqual([rsf.id]);
    // Nor when only an earlier document said whom the speaker belongs to.
    findings.relations = [];
    findings.claims[0].targets = [spanOf(SUDAN_SENTENCE, 'Sudanese Armed Forces'), spanOf(SUDAN_SENTENCE, 'RSF')];
    const unaware = structureDocument(input(SUDAN_SENTENCE, findings));
    expect(edgesOf(unaware, 'TARGETS').map((e) => e.to).sort()).toEqual([rsf.id, saf.id].sort());
    const informed = structureDocument(input(SUDAN_SENTENCE, findings, { isMemberOf: (m, o) => m === burhan.id && o === saf.id }));
    expect(edgesOf(informed, 'TARGETS').map((e) => e.to)).toEqual([rsf.id]);
  });

  it('is deterministic', () => {
    expect(structureDocument(input(SUDAN_SENTENCE, sudanFindings()))).toEqual(graph);
  });
});

describe('tier filtering', () => {
  it('keeps only the kinds and edge types the tier fills', () => {
    const text = 'The RSF rejected talks. The Sudanese Armed Forces said they oppose the Rapid Support Forces and demand a ceasefire.';
    const findings = emptyFindings();
    findings.actors.push(
      { ...spanOf(text, 'Sudanese Armed Forces'), actor_type: 'armed_forces', canonical: 'Sudanese Armed Forces', confidence: 0.9, source: 'gazetteer' },
      { ...spanOf(text, 'Rapid Support Forces'), actor_type: 'armed_group', canonical: 'Rapid Support Forces', confidence: 0.9, source: 'gazetteer' },
    );
    findings.relations.push({ ...spanOf(text, 'they oppose the Rapid Support Forces'), type: 'OPPOSES', from: spanOf(text, 'Sudanese Armed Forces'), to: spanOf(text, 'Rapid Support Forces'), confidence: 0.7 });
    const claimText = 'demand a ceasefire';
    findings.claims.push({ ...spanOf(text, claimText), text: claimText, type: 'Demand', cue: spanOf(text, 'demand'), speaker: spanOf(text, 'Sudanese Armed Forces'), targets: [], confidence: 0.7 });

    const essential = structureDocument(input(text, findings, { tier: 'essential' }));
    const standard = structureDocument(input(text, findings, { tier: 'standard' }));
    for (const [tier, graph] of [['essential', essential], ['standard', standard]] as const) {
      for (const n of graph.nodes) expect(TIER_NODE_KINDS[tier]).toContain(n.labels[0]);
      for (const e of graph.edges) expect(TIER_EDGE_TYPES[tier]).toContain(e.type);
    }
    expect(edgesOf(essential, 'OPPOSES')).toHaveLength(0);
    expect(essential.nodes.some((n) => n.labels[0] === 'Issue')).toBe(false);
    expect(edgesOf(standard, 'OPPOSES')).toHaveLength(1);
    const issue = standard.nodes.find((n) => n.labels[0] === 'Issue')!;
    expect(issue.properties.label).toBe('ceasefire');
    expect(edgesOf(standard, 'ABOUT').map((e) => e.to)).toEqual([issue.id]);
    expect(issue.provenance[0].quote).toBe('ceasefire');
  });
});

describe('coreference', () => {
  it('resolves surnames to the full name and acronyms to the full name even without a gazetteer', () => {
    const text = 'Commander Mohamed Hamdan Dagalo leads the Justice Front. Later Dagalo said the JF would fight.';
    const findings = emptyFindings();
    findings.actors.push(
      { ...spanOf(text, 'Commander Mohamed Hamdan Dagalo'), actor_type: 'individual', confidence: 0.8, source: 'title' },
      { ...spanOf(text, 'Justice Front'), actor_type: 'armed_group', confidence: 0.7, source: 'pattern' },
    );
    const claimText = 'the JF would fight';
    findings.claims.push({
      ...spanOf(text, claimText), text: claimText, type: 'Threat', cue: spanOf(text, 'would fight'),
      speaker: spanOf(text, 'Dagalo', 1), targets: [], confidence: 0.6,
    });
    findings.relations.push({ ...spanOf(text, 'Dagalo said the JF'), type: 'MEMBER_OF', from: spanOf(text, 'Dagalo', 1), to: spanOf(text, 'JF'), confidence: 0.5 });
    const graph = structureDocument(input(text, findings));
    const actors = graph.nodes.filter((n) => n.labels[0] === 'Actor');
    expect(actors.map((a) => a.properties.label).sort()).toEqual(['Justice Front', 'Mohamed Hamdan Dagalo']);
    const dagalo = node(graph, 'Actor', 'Mohamed Hamdan Dagalo')!;
    expect(dagalo.properties.aliases).toEqual(['Dagalo']);
    expect(node(graph, 'Actor', 'Justice Front')!.properties.aliases).toEqual(['JF']);
    expect(edgesOf(graph, 'ASSERTS')[0].from).toBe(dagalo.id);
    expect(edgesOf(graph, 'MEMBER_OF').map((e) => [e.from, e.to])).toEqual([[dagalo.id, node(graph, 'Actor', 'Justice Front')!.id]]);
  });

  it('resolves a later document\'s acronym to the node an earlier document named in full', () => {
    const text = 'JEM fighters entered the town.';
    const findings = emptyFindings();
    findings.actors.push({ ...spanOf(text, 'JEM'), actor_type: 'armed_group', confidence: 0.7, source: 'pattern' });
    const alone = structureDocument(input(text, findings));
    expect(alone.nodes.find((n) => n.labels[0] === 'Actor')!.properties.label).toBe('JEM');
    const directory = actorDirectory([{ label: 'Justice and Equality Movement', aliases: ['JEM'] }]);
    const resolved = structureDocument(input(text, findings, { directory }));
    const actor = resolved.nodes.find((n) => n.labels[0] === 'Actor')!;
    expect(actor.id).toBe(deriveNodeId('Actor', { label: 'Justice and Equality Movement' }));
    expect(actor.properties.aliases).toEqual(['JEM']);
  });

  it("finds names the graph learned earlier where this document's extractors found nothing", () => {
    const text = 'On 9 May 2024 the DJPF attacked Kutum. Djpf is not a name; neither is DJPFX.';
    const directory = actorDirectory([{ label: 'Darfur Joint Protection Force', aliases: ['DJPF'], actor_type: 'armed_group' }]);
    const graph = structureDocument(input(text, emptyFindings(), { directory }));
    const actors = graph.nodes.filter((n) => n.labels[0] === 'Actor');
    expect(actors).toHaveLength(1);
    expect(actors[0].id).toBe(deriveNodeId('Actor', { label: 'Darfur Joint Protection Force' }));
    expect(actors[0].properties.actor_type).toBe('armed_group');
    expect(actors[0].provenance.map((p) => [p.span!.start, p.quote])).toEqual([[text.indexOf('DJPF'), 'DJPF']]);
    expect(structureDocument(input(text, emptyFindings())).nodes.filter((n) => n.labels[0] === 'Actor')).toHaveLength(0);
  });

  it('merges transformer spans under the fill-gaps policy: symbolic typing wins on overlap, NER-only spans become typed nodes', () => {
    const text = 'Leaders of the Sudanese Armed Forces met Ahmed Musa of the Darfur Bar Association in Kosti.';
    const findings = emptyFindings();
    findings.actors.push({ ...spanOf(text, 'Sudanese Armed Forces'), actor_type: 'armed_forces', canonical: 'Sudanese Armed Forces', confidence: 0.9, source: 'gazetteer' });
    const ner: NeuralEntity[] = [
      { ...spanOf(text, 'Sudanese Armed'), label: 'ORG', score: 0.7 },
      { ...spanOf(text, 'Ahmed Musa'), label: 'PER', score: 0.9 },
      { ...spanOf(text, 'Darfur Bar Association'), label: 'ORG', score: 0.8 },
      { ...spanOf(text, 'Kosti'), label: 'LOC', score: 0.85 },
    ];
    const fillGaps = COMBINATION_POLICIES.find((policy) => policy.name === 'fill gaps')!;
    const graph = structureDocument(input(text, findings, { neural: ner, combination: fillGaps }));
    const labels = graph.nodes.filter((n) => n.labels[0] !== 'Document').map((n) => `${n.labels[0]}:${n.properties.label}`);
    expect(labels.sort()).toEqual(['Actor:Ahmed Musa', 'Actor:Darfur Bar Association', 'Actor:Sudanese Armed Forces', 'Location:Kosti']);
    expect(node(graph, 'Actor', 'Ahmed Musa')!.properties.actor_type).toBe('individual');
    expect(node(graph, 'Actor', 'Sudanese Armed Forces')!.confidence).toBe(0.9);
    // A bare place name the rules do not know is most often a town.
    expect(node(graph, 'Location', 'Kosti')!.properties.location_type).toBe('city');
  });

  it('splits two known actors found as one name, but keeps a name with "and" in it whole', () => {
    const text = 'The Sudanese Armed Forces met envoys. The Sudanese Armed Forces and the Rapid Support Forces fought. The Justice and Equality Movement left.';
    const findings = emptyFindings();
    findings.actors.push(
      { ...spanOf(text, 'Sudanese Armed Forces'), actor_type: 'armed_forces', canonical: 'Sudanese Armed Forces', confidence: 0.9, source: 'gazetteer' },
      { ...spanOf(text, 'Sudanese Armed Forces and the Rapid Support Forces'), actor_type: 'armed_forces', confidence: 0.7, source: 'pattern' },
      { ...spanOf(text, 'Justice and Equality Movement'), actor_type: 'armed_group', confidence: 0.7, source: 'pattern' },
    );
    const graph = structureDocument(input(text, findings));
    const labels = graph.nodes.filter((n) => n.labels[0] === 'Actor').map((n) => n.properties.label);
    expect(labels.sort()).toEqual(['Justice and Equality Movement', 'Rapid Support Forces', 'Sudanese Armed Forces']);
    expect(node(graph, 'Actor', 'Sudanese Armed Forces')!.properties.actor_type).toBe('armed_forces');
    expect(node(graph, 'Actor', 'Rapid Support Forces')!.provenance[0].quote).toBe('Rapid Support Forces');
  });

  it('trims a mention cut inside a word back to whole words, and drops one starting inside a word', () => {
    const text = '- General Abdel Fattah al-Burhan said no. Mr Kiir spoke.';
    const findings = emptyFindings();
    findings.actors.push(
      { ...spanOf(text, 'General Abdel Fattah al-Burhan s'), actor_type: 'individual', confidence: 0.6, source: 'pattern' },
      { ...spanOf(text, 'iir'), actor_type: 'individual', confidence: 0.6, source: 'pattern' },
    );
    const graph = structureDocument(input(text, findings));
    const actors = graph.nodes.filter((n) => n.labels[0] === 'Actor');
    expect(actors.map((a) => a.properties.label)).toEqual(['Abdel Fattah al-Burhan']);
    expect(actors[0].provenance[0].quote).toBe('General Abdel Fattah al-Burhan');
  });

  it('drops a definite description with no named antecedent of its type', () => {
    const text = 'The militia burned the market.';
    const findings = emptyFindings();
    findings.actors.push({ ...spanOf(text, 'The militia'), actor_type: 'armed_group', confidence: 0.5, source: 'pattern' });
    const graph = structureDocument(input(text, findings));
    expect(graph.nodes.filter((n) => n.labels[0] === 'Actor')).toHaveLength(0);
  });
});
