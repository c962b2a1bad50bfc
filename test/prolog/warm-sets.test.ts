import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startProlog } from '../../engine/prolog/bridge.ts';
import { RuleRegistry } from '../../engine/prolog/registry.ts';
import { ParleyStore } from '../../engine/store/store.ts';
import type { GraphWrite } from '../../engine/store/validate.ts';

// The shared sets a preload keeps (warm_view_sets/0) are read in one walk per kind: each claim and event type's
// nodes from one walk of the claims and of the events, each event type's perpetrators, targets and participants
// from one walk of its edges. What it keeps must be what each set predicate finds by itself, for every role an
// edge may carry (none, which reads as participant, and one no framework asks for).
const storeDir = mkdtempSync(path.join(os.tmpdir(), 'parley-warm-sets-'));
const store = await ParleyStore.open(storeDir);
let registry: RuleRegistry;
beforeAll(async () => {
  await startProlog();
  registry = new RuleRegistry();
});
afterAll(async () => {
  await store.close();
  rmSync(storeDir, { recursive: true, force: true });
});

const EVENTS = 90; // of each type: more than the 64 ids past which a set's groupings are kept (shared_set/1)
const ROLES = ['perpetrator', 'target', 'mediator', undefined] as const;

function graph(): GraphWrite {
  const write: GraphWrite = { nodes: [], edges: [] };
  for (let a = 0; a < 12; a++) write.nodes.push({ id: `a${a}`, labels: ['Actor'], properties: { label: `Actor ${a}` } });
  for (const [t, type] of ['ASSAULT', 'CONSULT'].entries()) {
    for (let i = 0; i < EVENTS; i++) {
      const id = `${type.toLowerCase()}${i}`;
      write.nodes.push({ id, labels: ['Event'], properties: { event_type: type, date: `2024-0${1 + (i % 6)}-1${i % 10}`, label: id } });
      // each event takes part of its actors in turn under each role, some under two, one in none of a type
      for (const [r, role] of ROLES.entries()) {
        if ((i + r + t) % 5 === 4) continue;
        const actor = `a${(i + 3 * r + t) % 12}`;
        write.edges.push({ id: `${id}-${r}`, type: 'PARTICIPATES_IN', from: actor, to: id, properties: role ? { role } : {} });
      }
    }
  }
  for (const [t, type] of ['Threat', 'Offer', 'Demand'].entries()) {
    for (let i = 0; i < 70 + 10 * t; i++) {
      const id = `${type.toLowerCase()}${i}`;
      write.nodes.push({ id, labels: ['Claim'], properties: { type, text: `${type} ${i}`, timestamp: `2024-05-${10 + (i % 18)}T00:00:00Z` } });
      write.edges.push({ id: `${id}-by`, type: 'ASSERTS', from: `a${(i + t) % 12}`, to: id, properties: {} });
    }
  }
  return write;
}

/** A library goal that holds when each kept set equals what its predicate finds over the view itself. */
const keptAsFound = `
  forall(member(T, ['Threat', 'Offer', 'Demand']), ( claims_of_type(T, Cs), nodes_where_('Claim', type, T, Cs0), Cs == Cs0 )),
  forall(member(T, ['ASSAULT', 'CONSULT']),
         ( events_of_type(T, Es), nodes_where_('Event', event_type, T, Es0), Es == Es0,
           perpetrators(Es, P), group_by_edge_(Es, 'PARTICIPATES_IN', in, perpetrator, P0), P == P0,
           targets(Es, G), group_by_edge_(Es, 'PARTICIPATES_IN', in, target, G0), G == G0,
           participants(Es, A), group_by_edge_(Es, 'PARTICIPATES_IN', in, _, A0), A == A0 ))`;

describe('the shared sets a preload keeps', () => {
  it('are what each set predicate finds over the view, before and after a write', async () => {
    await store.writeGraph('t', 'warm', graph());
    const view = { graph: await store.loadGraph('t', 'warm') };
    expect(registry.prepare(view)).toBe(true);
    expect(registry.solveLibrary(keptAsFound, [], view)).toEqual([[]]);

    // an event with a new perpetrator and a claim of a new type: the sets grown, the types found again
    await store.writeGraph('t', 'warm', {
      nodes: [
        { id: 'assault-new', labels: ['Event'], properties: { event_type: 'ASSAULT', date: '2024-06-20', label: 'new' } },
        { id: 'denial0', labels: ['Claim'], properties: { type: 'Denial', text: 'we deny it', timestamp: '2024-06-20T00:00:00Z' } },
        { id: 'a-new', labels: ['Actor'], properties: { label: 'New actor' } },
      ],
      edges: [
        { id: 'assault-new-by', type: 'PARTICIPATES_IN', from: 'a-new', to: 'assault-new', properties: { role: 'perpetrator' } },
        { id: 'denial0-by', type: 'ASSERTS', from: 'a-new', to: 'denial0', properties: {} },
      ],
    });
    const written = { graph: await store.loadGraph('t', 'warm') };
    registry.prepare(written);
    expect(registry.solveLibrary(keptAsFound, [], written)).toEqual([[]]);
    expect(registry.solveLibrary(`claims_of_type('Denial', Cs)`, ['Cs'], written)).toEqual([[['denial0']]]);
    expect(registry.solveLibrary(`events_of_type('ASSAULT', Es), perpetrators(Es, P), memberchk('a-new'-Ids, P)`, ['Ids'], written)).toEqual([[['assault-new']]]);
  }, 60_000);
});
