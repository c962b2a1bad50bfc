import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTestApp, type TestApp } from '../helpers/app.ts';

/**
 * Places a user imported are the nodes later extraction into the same graph attaches to, by
 * the same rule as actors (README "Who a mention stands for"), through HTTP import and ingest.
 */

let t: TestApp;
let key: string;

const IMPORTED = {
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

const DOCUMENT =
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

describe('extraction into a graph with imported places', () => {
  it('attaches to the imported place by label or alias, country and type; an ambiguous name stays its own node', async () => {
    const ingested = await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/ingest', headers: { 'x-api-key': key }, payload: { source: 'wire.txt', text: DOCUMENT } });
    expect(ingested.statusCode).toBe(200);
    const graph = await exported('sudan');

    expect(graph.nodes['el-fasher']).toMatchObject({ label: 'Al-Fashir', location_type: 'city', country_code: 'SD', aliases: ['El Fasher'] });
    expect(graph.nodes.omdurman).toMatchObject({ label: 'Omdurman', location_type: 'city', country_code: 'SD' });
    for (const id of ['el-fasher', 'omdurman', 'kassala-sd', 'kadugli-town']) {
      expect((graph.nodes[id].provenance as { source: string }[]).some((record) => record.source === 'wire.txt')).toBe(true);
    }
    for (const id of ['kassala-er', 'kadugli-area', 'nyala-a', 'nyala-b']) {
      expect((graph.nodes[id].provenance as { source: string }[]).some((record) => record.source === 'wire.txt')).toBe(false);
    }
    const extractedNyala = placesOf(graph).filter((node) => node.label === 'Nyala' && !['nyala-a', 'nyala-b'].includes(node.id as string));
    expect(extractedNyala).toHaveLength(1);
    // Only Nyala added a place of its own.
    expect(placesOf(graph)).toHaveLength(IMPORTED.nodes.length + 1);

    expect(occurredAt(graph)).toEqual({
      'attacked El Fasher': 'el-fasher',
      'shelled Omdurman on 5 March 2024': 'omdurman',
      'bombed Kassala on 7 March 2024': 'kassala-sd',
      'bombed Nyala on 8 March 2024': extractedNyala[0].id,
      'bombed Kadugli on 9 March 2024': 'kadugli-town',
    });
  });

  it('a second ingest of the document and a later one land on the same places and add nothing new', async () => {
    const before = await exported('sudan');
    const again = await t.app.inject({ method: 'POST', url: '/v1/graphs/sudan/ingest', headers: { 'x-api-key': key }, payload: { source: 'wire.txt', text: DOCUMENT } });
    expect(again.json().added).toEqual({ nodes_created: 0, nodes_updated: 0, edges_created: 0, edges_updated: 0 });
    const later = await t.app.inject({
      method: 'POST', url: '/v1/graphs/sudan/ingest', headers: { 'x-api-key': key },
      payload: { source: 'later.txt', text: 'The RSF shelled Al-Fashir on 12 March 2024.' },
    });
    expect(later.statusCode).toBe(200);
    const after = await exported('sudan');
    expect(placesOf(after).map((node) => node.id).sort()).toEqual(placesOf(before).map((node) => node.id).sort());
    expect(occurredAt(after)['shelled Al-Fashir on 12 March 2024']).toBe('el-fasher');
  });
});
