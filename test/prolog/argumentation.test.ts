import { beforeAll, describe, expect, it } from 'vitest';
import type { EdgeRecord, NodeRecord, Provenance } from '../../engine/ontology/index.ts';
import { startProlog } from '../../engine/prolog/bridge.ts';
import { RuleRegistry } from '../../engine/prolog/registry.ts';
import { describeDispute, disputeNotes, weighArguments } from '../../engine/reason/disputes.ts';
import { putLogged } from '../../engine/store/graph-changes.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

const at = '2024-05-01T00:00:00.000Z';
const from = (...sources: string[]): Provenance[] => sources.map((source) => ({ source, timestamp: at, document_id: `doc:${source}` }));

function claim(id: string, text: string, sources: string[], type = 'Position'): NodeRecord {
  return { id, labels: ['Claim'], properties: { type, text }, confidence: 0.9, recorded_at: at, provenance: from(...sources) };
}
function event(id: string, label: string, sources: string[]): NodeRecord {
  return { id, labels: ['Event'], properties: { event_type: 'ASSAULT', label, date: '2024-05-01' }, confidence: 0.9, recorded_at: at, provenance: from(...sources) };
}
function actor(id: string, label: string): NodeRecord {
  return { id, labels: ['Actor'], properties: { label }, confidence: 0.9, recorded_at: at, provenance: from('actors') };
}
function document(id: string, source: string, reliability?: number): NodeRecord {
  return { id, labels: ['Document'], properties: { source, ...(reliability !== undefined ? { reliability } : {}) }, confidence: 1, recorded_at: at, provenance: [{ source, timestamp: at }] };
}
function edge(type: string, fromId: string, to: string): EdgeRecord {
  return { id: `${type}:${fromId}:${to}`, type, from: fromId, to, properties: {}, confidence: 0.8, recorded_at: at, provenance: from('edges') };
}

let registry: RuleRegistry;
beforeAll(async () => {
  await startProlog();
  registry = new RuleRegistry();
});

const statusesOf = (graph: GraphIndex) => Object.fromEntries(weighArguments(registry, { graph }).map(({ id, status }) => [id, status]));

describe('grounded semantics over CONTRADICTS, with independent sources as preferences', () => {
  it('two accounts that contradict each other on equal sources are both disputed', () => {
    const graph = GraphIndex.fromRecords([claim('a', 'we hold the airport', ['s1']), claim('b', 'the airport has fallen', ['s2'])], [edge('CONTRADICTS', 'b', 'a')]);
    expect(statusesOf(graph)).toEqual({ a: 'disputed', b: 'disputed' });
  });

  it('an account no preference protects loses to an unattacked stronger one: accepted, and the one it defeats rejected', () => {
    // b rests on two independent sources, a on one: b's attack on a succeeds, a's on b does not
    const graph = GraphIndex.fromRecords([claim('a', 'x', ['s1']), claim('b', 'not x', ['s2', 's3'])], [edge('CONTRADICTS', 'a', 'b')]);
    expect(statusesOf(graph)).toEqual({ a: 'rejected', b: 'accepted' });
  });

  it('a preference blocks an attack, and a rejected attacker no longer counts (reinstatement)', () => {
    // c (3 sources) defeats b (2), b would defeat a (1) but is rejected, so a is reinstated only if nothing else defeats it
    const graph = GraphIndex.fromRecords(
      [claim('a', 'a', ['s1']), claim('b', 'b', ['s2', 's3']), claim('c', 'c', ['s4', 's5', 's6'])],
      [edge('CONTRADICTS', 'b', 'a'), edge('CONTRADICTS', 'c', 'b')],
    );
    expect(statusesOf(graph)).toEqual({ a: 'accepted', b: 'rejected', c: 'accepted' });
  });

  it('two reports of one outlet are one source, and a doubtful outlet weighs its reliability', () => {
    const docs = [document('doc:u1', 'https://www.outlet.example/a'), document('doc:u2', 'https://outlet.example/b'), document('doc:r', 'https://rated.example/x', 0.3)];
    const sameOutlet = GraphIndex.fromRecords([...docs, claim('a', 'x', ['u1', 'u2']), claim('b', 'not x', ['s9'])], [edge('CONTRADICTS', 'a', 'b')]);
    expect(statusesOf(sameOutlet)).toEqual({ a: 'disputed', b: 'disputed' });
    // two sources, one rated 0.3 (1.3), against one unrated (1): the two still weigh more
    const rated = GraphIndex.fromRecords([...docs, claim('a', 'x', ['u1', 'r']), claim('b', 'not x', ['s9'])], [edge('CONTRADICTS', 'a', 'b')]);
    expect(statusesOf(rated)).toEqual({ a: 'accepted', b: 'rejected' });
    // the rated source alone (0.3) against an unrated one (1): it loses
    const alone = GraphIndex.fromRecords([...docs, claim('a', 'x', ['r']), claim('b', 'not x', ['s9'])], [edge('CONTRADICTS', 'a', 'b')]);
    expect(statusesOf(alone)).toEqual({ a: 'rejected', b: 'accepted' });
  });

  it('a record nothing contradicts has no status; an odd cycle is undecided', () => {
    const graph = GraphIndex.fromRecords(
      [claim('a', 'a', ['s1']), claim('b', 'b', ['s2']), claim('c', 'c', ['s3']), claim('d', 'd', ['s4'])],
      [edge('CONTRADICTS', 'a', 'b'), edge('CONTRADICTS', 'b', 'c'), edge('CONTRADICTS', 'c', 'a'), edge('SUPPORTS', 'd', 'd')],
    );
    expect(statusesOf(graph)).toEqual({ a: 'disputed', b: 'disputed', c: 'disputed' });
    expect(registry.solveLibrary("claim_status(d, S)", ['S'], { graph })).toEqual([]);
  });

  it('a disputed event is accepted once a third independent source corroborates it, and the denial rejected; the library and the sentence say so', () => {
    const records = [
      actor('rsf', 'the RSF'), actor('saf', 'the army'),
      event('shelling', 'shelling of the Omdurman market', ['monitor']),
      claim('denial', 'we did not shell the market', ['rsf-channel'], 'Denial'),
    ];
    const graph = GraphIndex.fromRecords(records, [edge('ASSERTS', 'rsf', 'denial'), edge('CONTRADICTS', 'denial', 'shelling')]);
    expect(statusesOf(graph)).toEqual({ shelling: 'disputed', denial: 'disputed' });
    expect(describeDispute('shelling', graph, weighArguments(registry, { graph }))).toBe(
      'disputed: reports say "shelling of the Omdurman market" (1 source); the RSF denies it: "we did not shell the market" (1 source, disputed).',
    );
    // a third source (a hospital's report) supports the event: the graph only grows, and the engine takes the additions
    putLogged(graph, [claim('hospital', 'the market was shelled, 12 dead', ['hospital-report'])], [edge('SUPPORTS', 'hospital', 'shelling')]);
    expect(statusesOf(graph)).toEqual({ shelling: 'accepted', denial: 'rejected' });
    expect(registry.solveLibrary('claim_status(shelling, S), rejected(denial), not_rejected([shelling, denial, rsf], Kept)', ['S', 'Kept'], { graph })).toEqual([['accepted', ['shelling', 'rsf']]]);
    expect(describeDispute('denial', graph, weighArguments(registry, { graph }))).toBe(
      'rejected: the RSF says "we did not shell the market" (1 source); reports say "shelling of the Omdurman market" (2 independent sources, accepted).',
    );
  });

  it('notes each dispute among the records an answer cites once, and nothing of the records that stand', () => {
    const graph = GraphIndex.fromRecords(
      [actor('saf', 'the army'), claim('a', 'we hold the airport', ['s1']), claim('b', 'the airport has fallen', ['s2']), claim('c', 'x', ['s3']), claim('d', 'not x', ['s4', 's5']), claim('e', 'talks resume', ['s6'])],
      [edge('ASSERTS', 'saf', 'a'), edge('CONTRADICTS', 'b', 'a'), edge('CONTRADICTS', 'c', 'd')],
    );
    const statuses = weighArguments(registry, { graph });
    expect(disputeNotes(['e', 'd', 'b', 'a', 'c'], graph, statuses)).toEqual([
      { id: 'b', sentence: 'disputed: a claim says "the airport has fallen" (1 source); the army says "we hold the airport" (1 source, disputed).' },
      { id: 'c', sentence: 'rejected: a claim says "x" (1 source); a claim says "not x" (2 independent sources, accepted).' },
    ]);
  });

  it('keeps the ids no weighed evidence rejects, in their order, when many are rejected; and again after a write changes which', () => {
    // 40 pairs: weak-i (one source) contradicts strong-i (two): every weak account is rejected, past the few scanned one by one
    const pairs = Array.from({ length: 40 }, (_, i) => i);
    const graph = GraphIndex.fromRecords(
      [actor('saf', 'the army'), ...pairs.flatMap((i) => [claim(`weak-${i}`, `w${i}`, [`w${i}`]), claim(`strong-${i}`, `s${i}`, [`s${i}a`, `s${i}b`])])],
      pairs.map((i) => edge('CONTRADICTS', `weak-${i}`, `strong-${i}`)),
    );
    const asked = ['weak-39', 'saf', 'strong-3', 'weak-0', 'strong-0', 'weak-7', 'nothing'];
    const kept = () => registry.solveLibrary(`not_rejected(${JSON.stringify(asked).replace(/"/g, "'")}, Kept)`, ['Kept'], { graph })[0][0];
    expect(kept()).toEqual(['saf', 'strong-3', 'strong-0', 'nothing']);
    // two more sources support weak-0 (three against two): it now defeats strong-0, and the rejected ones change with the graph
    putLogged(graph, [claim('w0-more', 'w0 again', ['w0x', 'w0y'])], [edge('SUPPORTS', 'w0-more', 'weak-0')]);
    expect(statusesOf(graph)).toMatchObject({ 'weak-0': 'accepted', 'strong-0': 'rejected', 'weak-7': 'rejected' });
    expect(kept()).toEqual(['saf', 'strong-3', 'weak-0', 'nothing']);
  });

  it('stays within the inference limit it is given', () => {
    const claims = Array.from({ length: 400 }, (_, i) => claim(`k${i}`, `k${i}`, [`s${i}`]));
    const edges = claims.slice(1).map((c, i) => edge('CONTRADICTS', c.id, claims[i].id));
    const graph = GraphIndex.fromRecords(claims, edges);
    expect(() => weighArguments(registry, { graph }, { inferenceLimit: 1_000 })).toThrow(/inferences/);
    // a chain of accounts of equal weight: every attack is mutual, so each is disputed
    expect(new Set(weighArguments(registry, { graph }).map(({ status }) => status))).toEqual(new Set(['disputed']));
  });
});
