/**
 * LevelDB key layout. Every segment is joined with NUL, which no id may contain
 * (validateId refuses it), so a prefix scan never runs into a neighbour's keys.
 *
 *   m␀layout                                         version of this layout (see LevelBackend.open)
 *   m␀key␀<key_id>                                   API key record (hash only)
 *   m␀ws␀<tenant>␀<workspace_id>                      workspace
 *   m␀graph-ws␀<tenant>␀<graph_id>␀<workspace_id>      the workspace's id: the workspaces naming a graph
 *   m␀graph␀<tenant>␀<graph_id>                       graph meta, with its data generation
 *   g␀<tenant>␀<graph_id>␀<gen>␀n␀<node_id>            node record (encoded as record-codec.ts says)
 *   g␀<tenant>␀<graph_id>␀<gen>␀e␀<edge_id>            edge record (likewise)
 *   <record key>␀<start, 10 digits>                   a chunk of a long provenance list (provenance-chunks.ts):
 *                                                     a JSON array of its entries from index <start> on
 *   g␀<tenant>␀<graph_id>␀<gen>␀x␀<idempotency_key>         an import's summary, written in its batch
 *   g␀<tenant>␀<graph_id>␀<gen>␀c␀<ordinal, 10 digits>      a correction's audit record (engine/store/corrections.ts), JSON
 *
 * Nothing reads a graph from LevelDB but by whole records (reads come from the in-memory
 * indexes, rebuilt from the records), so a record is one key, and the chunks of its long
 * provenance list: they sort right after it (NUL is below every character of an id), so a
 * scan of the records reads each record's chunks after it, in order. Layout 2 also kept forward,
 * reverse and label index keys (`o`, `i`, `l`), written with every record and never read;
 * layout 3 dropped them, which took an import from about 2.7 keys per record to one.
 *
 * The generation makes deleting a graph one atomic write (drop the meta record);
 * the old generation's data is cleared afterwards and can never reappear under a
 * graph created later with the same id.
 */
export const SEP = '\u0000';
/**
 * The key range holding every key under `prefix` (which ends with SEP): the upper
 * bound swaps that last SEP for the next code point, above every key that extends it.
 */
export function prefixRange(prefix: string): { gte: string; lt: string } {
  return { gte: prefix, lt: prefix.slice(0, -1) + '\u0001' };
}

export const metaKey = {
  layout: () => ['m', 'layout'].join(SEP),
  apiKey: (keyId: string) => ['m', 'key', keyId].join(SEP),
  apiKeys: () => ['m', 'key', ''].join(SEP),
  workspace: (tenant: string, id: string) => ['m', 'ws', tenant, id].join(SEP),
  workspaces: (tenant: string) => ['m', 'ws', tenant, ''].join(SEP),
  /** Every tenant's workspaces. */
  allWorkspaces: () => ['m', 'ws', ''].join(SEP),
  graphWorkspace: (tenant: string, graphId: string, workspaceId: string) => ['m', 'graph-ws', tenant, graphId, workspaceId].join(SEP),
  graphWorkspaces: (tenant: string, graphId: string) => ['m', 'graph-ws', tenant, graphId, ''].join(SEP),
  graph: (tenant: string, graphId: string) => ['m', 'graph', tenant, graphId].join(SEP),
  graphs: (tenant: string) => ['m', 'graph', tenant, ''].join(SEP),
  /** Every tenant's graphs. */
  allGraphs: () => ['m', 'graph', ''].join(SEP),
};

export function graphDataPrefix(tenant: string, graphId: string, generation: string): string {
  return ['g', tenant, graphId, generation, ''].join(SEP);
}

export const dataKey = {
  /** The index keys of layout 2, cleared when a store is brought to layout 3. */
  droppedIndexes: (prefix: string) => ['o', 'i', 'l'].map((kind) => prefix + kind + SEP),
  idempotency: (prefix: string, key: string) => prefix + 'x' + SEP + key,
  /** The key of a node record is this and its id; of an edge record, edges() and its id. */
  nodes: (prefix: string) => prefix + 'n' + SEP,
  edges: (prefix: string) => prefix + 'e' + SEP,
  /** A graph's corrections, in the order made: the key of one is this and its ordinal, zero-padded. */
  corrections: (prefix: string) => prefix + 'c' + SEP,
  correction: (prefix: string, ordinal: number) => prefix + 'c' + SEP + String(ordinal).padStart(10, '0'),
  /** The chunk of the provenance list of the record under `recordKey` that holds its entries from `start` on. */
  provenanceChunk: (recordKey: string, start: number) => recordKey + SEP + String(start).padStart(10, '0'),
  /** The chunks of the record under `recordKey`: the key of one is this and its start. */
  provenanceChunks: (recordKey: string) => recordKey + SEP,
};
