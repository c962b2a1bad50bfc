import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Issue 9: actors and places a user imported are the nodes later extraction into the same
 * graph attaches to (README "Who a mention stands for"), through the HTTP import and ingest paths.
 */

let t: TestApp;
let key: string;

const IMPORTED = {
  nodes: [
    { kind: 'Actor', id: 'burhan', label: 'Abdel Fattah al-Burhan', actor_type: 'individual', role: 'party', aliases: ['Burhan'] },
    { kind: 'Actor', id: 'rsf', label: 'Rapid Support Forces', actor_type: 'armed_group', role: 'party', aliases: ['RSF'] },
    // The user's label is the acronym; extraction reads the full name, which the user gave as an alias.
    { kind: 'Actor', id: 'saf', label: 'SAF', actor_type: 'armed_forces', aliases: ['Sudanese Armed Forces'] },
    // A person who happens to share a name with an organisation is not that organisation.
    { kind: 'Actor', id: 'igad-envoy', label: 'Ismail Wais', actor_type: 'individual', aliases: ['IGAD'] },
  ],
  edges: [],
};

const DOCUMENT =
  'On 3 March 2024 the Rapid Support Forces attacked El Fasher. General Abdel Fattah al-Burhan of the Sudanese Armed Forces said the army would never accept a ceasefire that leaves the RSF in the cities. ' +
  'IGAD called on both sides to return to talks.';

const IMPORTED_PLACES = {
  nodes: [
    // The user's label is another spelling; extraction's "El Fasher" is the user's alias.
    { kind: 'Location', id: 'el-fasher', label: 'Al-Fashir', location_type: 'city', aliases: ['El Fasher'] },
    // No country given: any country agrees.
    { kind: 'Location', id: 'omdurman', label: 'Omdurman' },
    // Another country's place of the same name never matches.
    { kind: 'Location', id: 'kassala-sd', label: 'Kassala', location_type: 'city', country_code: 'SD' },
    { kind: 'Location', id: 'kassala-er', label: 'Kassala', location_type: 'city', country_code: 'ER' },
    // The same name twice: the one of the same type wins.
    { kind: 'Location', id: 'kadugli-town', label: 'Kadugli', location_type: 'city' },
    { kind: 'Location', id: 'kadugli-area', label: 'Kadugli', location_type: 'region' },
    // The same name twice and nothing to choose between them: ambiguous, no match.
    { kind: 'Location', id: 'nyala-a', label: 'Nyala' },
    { kind: 'Location', id: 'nyala-b', label: 'Nyala' },
  ],
  edges: [],
};

const PLACES_DOCUMENT =
  'On 3 March 2024 the Rapid Support Forces attacked El Fasher. The RSF shelled Omdurman on 5 March 2024. ' +
  'The army bombed Kassala on 7 March 2024. The army bombed Nyala on 8 March 2024. The army bombed Kadugli on 9 March 2024.';

interface Exported {
  nodes: Record<string, Record<string, unknown>>;
  edges: Record<string, unknown>[];
}

async function exported(graphId: string): Promise<Exported> {
  const response = await t.app.inject({ url: `/v1/graphs/${graphId}/export`, headers: { 'x-api-key': key } });
  expect(response.statusCode).toBe(200);
  const result: Exported = { nodes: {}, edges: [] };
  for (const line of response.body.split('\n').filter(Boolean)) {
    const entry = JSON.parse(line);
    if (entry.node) result.nodes[entry.node.id] = entry.node;
    else result.edges.push(entry.edge);
  }
  return result;
}

/**
 * Ingests `document` into `graphId` a second time (asserting it adds nothing), then `later` as a
 * new source: the graph exported before and after.
 */
async function reingest(graphId: string, document: string, later: string): Promise<{ before: Exported; after: Exported }> {
  const ingest = (source: string, text: string) =>
    t.app.inject({ method: 'POST', url: `/v1/graphs/${graphId}/ingest`, headers: { 'x-api-key': key }, payload: { source, text } });
  const before = await exported(graphId);
  const again = await ingest('wire.txt', document);
  expect(again.json().added).toEqual({ nodes_created: 0, nodes_updated: 0, edges_created: 0, edges_updated: 0 });
  expect((await ingest('later.txt', later)).statusCode).toBe(200);
  return { before, after: await exported(graphId) };
}

const actorsOf = (graph: Exported) => Object.values(graph.nodes).filter((node) => node.kind === 'Actor');

const placesOf = (graph: Exported) => Object.values(graph.nodes).filter((node) => node.kind === 'Location');
/** Event label → the id of the place it occurred at. */
const occurredAt = (graph: Exported) =>
  Object.fromEntries(
    Object.values(graph.nodes)
      .filter((node) => node.kind === 'Event')
      .map((event) => [event.label, graph.edges.find((edge) => edge.type === 'OCCURRED_AT' && edge.from === event.id)?.to]),
  );

beforeAll(async () => {
  t = await makeTestApp();
  key = await t.keyFor('acme');
  const imported = await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/import', headers: { 'x-api-key': key }, payload: IMPORTED });
  expect(imported.statusCode).toBe(200);
});
afterAll(async () => {
  await t.close();
});

describe('extraction into a graph with imported actors', () => {
  it('attaches to the imported nodes: one node per actor, the imported id, label, type and role kept, the names read added', async () => {
    const ingested = await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/ingest', headers: { 'x-api-key': key }, payload: { source: 'wire.txt', text: DOCUMENT } });
    expect(ingested.statusCode).toBe(200);
    const graph = await exported('sudan');
    const labels = actorsOf(graph).map((node) => node.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(labels).not.toContain('Sudanese Armed Forces');

    expect(graph.nodes.burhan).toMatchObject({ label: 'Abdel Fattah al-Burhan', actor_type: 'individual', role: 'party' });
    expect(graph.nodes.rsf).toMatchObject({ label: 'Rapid Support Forces', actor_type: 'armed_group', role: 'party' });
    expect(graph.nodes.saf).toMatchObject({ label: 'SAF', actor_type: 'armed_forces', aliases: expect.arrayContaining(['Sudanese Armed Forces']) });
    // Each imported node now carries the document's provenance.
    for (const id of ['burhan', 'rsf', 'saf']) {
      expect(((graph.nodes[id].provenance as { sources: { source: string }[] } | undefined)?.sources ?? []).some((record) => record.source === 'wire.txt')).toBe(true);
    }

    // The extracted claim and event hang off the imported nodes.
    const claim = Object.values(graph.nodes).find((node) => node.kind === 'Claim' && node.type === 'RedLine')!;
    expect(claim.speaker).toBe('burhan');
    const edge = (type: string, from: string, to: string) => graph.edges.some((e) => e.type === type && e.from === from && e.to === to);
    expect(edge('ASSERTS', 'burhan', claim.id as string)).toBe(true);
    expect(edge('TARGETS', claim.id as string, 'rsf')).toBe(true);
    expect(edge('MEMBER_OF', 'burhan', 'saf')).toBe(true);
    const attack = Object.values(graph.nodes).find((node) => node.kind === 'Event' && node.event_type === 'ASSAULT')!;
    expect(edge('PARTICIPATES_IN', 'rsf', attack.id as string)).toBe(true);

    // IGAD the organisation is its own node, not the person whose alias it is.
    const igad = actorsOf(graph).filter((node) => node.label === 'Intergovernmental Authority on Development' || node.label === 'IGAD');
    expect(igad).toHaveLength(1);
    expect(igad[0].id).not.toBe('igad-envoy');
    expect(graph.nodes['igad-envoy']).toMatchObject({ label: 'Ismail Wais', aliases: ['IGAD'] });
  });

  it('a later document and a second ingest of the same one land on the same nodes and add nothing new', async () => {
    const { before, after } = await reingest('sudan', DOCUMENT, 'Burhan said the RSF must withdraw from Omdurman.');
    expect(actorsOf(after).map((node) => node.id).sort()).toEqual(actorsOf(before).map((node) => node.id).sort());
    const demand = Object.values(after.nodes).find((node) => node.kind === 'Claim' && String(node.text).includes('Omdurman'))!;
    expect(demand.speaker).toBe('burhan');
    expect(after.edges.some((e) => e.type === 'TARGETS' && e.from === demand.id && e.to === 'rsf')).toBe(true);
  });
});

describe('extraction into a graph with imported places', () => {
  beforeAll(async () => {
    const imported = await t.app.inject({ method: 'POST', url: '/v1/graphs/places/import', headers: { 'x-api-key': key }, payload: IMPORTED_PLACES });
    expect(imported.statusCode).toBe(200);
  });

  it('attaches to the imported place by label or alias, country and type; an ambiguous name stays its own node', async () => {
    const ingested = await t.app.inject({ method: 'POST', url: '/v1/graphs/places/ingest', headers: { 'x-api-key': key }, payload: { source: 'wire.txt', text: PLACES_DOCUMENT } });
    expect(ingested.statusCode).toBe(200);
    const graph = await exported('places');

    expect(graph.nodes['el-fasher']).toMatchObject({ label: 'Al-Fashir', location_type: 'city', country_code: 'SD', aliases: ['El Fasher'] });
    expect(graph.nodes.omdurman).toMatchObject({ label: 'Omdurman', location_type: 'city', country_code: 'SD' });
    for (const id of ['el-fasher', 'omdurman', 'kassala-sd', 'kadugli-town']) {
      expect(((graph.nodes[id].provenance as { sources: { source: string }[] } | undefined)?.sources ?? []).some((record) => record.source === 'wire.txt')).toBe(true);
    }
    for (const id of ['kassala-er', 'kadugli-area', 'nyala-a', 'nyala-b']) {
      expect(((graph.nodes[id].provenance as { sources: { source: string }[] } | undefined)?.sources ?? []).some((record) => record.source === 'wire.txt')).toBe(false);
    }
    const extractedNyala = placesOf(graph).filter((node) => node.label === 'Nyala' && !['nyala-a', 'nyala-b'].includes(node.id as string));
    expect(extractedNyala).toHaveLength(1);
    // Only Nyala added a place of its own.
    expect(placesOf(graph)).toHaveLength(IMPORTED_PLACES.nodes.length + 1);

    expect(occurredAt(graph)).toEqual({
      'attacked El Fasher': 'el-fasher',
      'shelled Omdurman on 5 March 2024': 'omdurman',
      'bombed Kassala on 7 March 2024': 'kassala-sd',
      'bombed Nyala on 8 March 2024': extractedNyala[0].id,
      'bombed Kadugli on 9 March 2024': 'kadugli-town',
    });
  });

  it('a second ingest of the document and a later one land on the same places and add nothing new', async () => {
    const { before, after } = await reingest('places', PLACES_DOCUMENT, 'The RSF shelled Al-Fashir on 12 March 2024.');
    expect(placesOf(after).map((node) => node.id).sort()).toEqual(placesOf(before).map((node) => node.id).sort());
    expect(occurredAt(after)['shelled Al-Fashir on 12 March 2024']).toBe('el-fasher');
  });
});
