/** bench/store's graph (measurements.md: N facts = N/5 nodes, 2N/5 properties, 2N/5 edges), shared with bench/replica-memory. */
import type { GraphWrite, ParleyStore } from '../engine/store/store.ts';

/** Records per import request: what a client sending a large graph in parts would do. */
export const CHUNK = 10_000;

export function makeGraph(facts: number): GraphWrite {
  const nodeCount = Math.floor(facts / 5);
  const nodes: GraphWrite['nodes'] = [];
  const edges: GraphWrite['edges'] = [];
  for (let i = 0; i < nodeCount; i++) {
    const claim = i % 3 === 0;
    nodes.push(
      claim
        ? { id: `n${i}`, labels: ['Claim'], properties: { type: i % 9 === 0 ? 'RedLine' : 'Demand', text: `claim ${i}` } }
        : { id: `n${i}`, labels: ['Actor'], properties: { label: `actor ${i}`, actor_type: 'armed_group' } },
    );
  }
  for (let i = 0; i < 2 * nodeCount; i++) {
    const from = (i * 7919) % nodeCount;
    const to = (i * 104729 + 1) % nodeCount;
    edges.push({ id: `e${i}`, type: 'MENTIONED_WITH', from: `n${from}`, to: `n${to}`, properties: {} });
  }
  return { nodes, edges };
}

/** Imports `graph` as graph `graphId` of tenant 'bench', in requests of CHUNK records. */
export async function importGraph(store: ParleyStore, graphId: string, graph: GraphWrite): Promise<void> {
  for (let i = 0; i < graph.nodes.length; i += CHUNK) await store.writeGraph('bench', graphId, { nodes: graph.nodes.slice(i, i + CHUNK), edges: [] });
  for (let i = 0; i < graph.edges.length; i += CHUNK) await store.writeGraph('bench', graphId, { nodes: [], edges: graph.edges.slice(i, i + CHUNK) });
}
