import { describe, expect, it } from 'vitest';
import type { NodeRecord } from '../../engine/ontology/index.ts';
import { InlineQueries, workerRules } from '../../engine/reason/inline-query.ts';
import { GraphIndex } from '../../engine/store/graph-index.ts';

const node = (id: string): NodeRecord => ({ id, labels: ['Actor'], properties: { label: id }, confidence: 1, provenance: [], recorded_at: '2024-01-01T00:00:00.000Z' });
const graphOf = (count: number) => GraphIndex.fromRecords(Array.from({ length: count }, (_, i) => node(`n${i}`)), []);

/** What decides whether a query runs on the event loop or goes to a worker (engine/reason/inline-query.ts). */
describe('inline queries kept as heavy', () => {
  const options = { limits: {} };
  const rules = workerRules({ callable: { 'backs/1': 'allies' }, hidden: {} });

  it('runs a query kept as too slow inline again once a worker answered it within half the budget, and not before', () => {
    const inline = new InlineQueries(rules, 5);
    const text = 'MATCH (a), (b), (c) RETURN count(*) AS n';
    // 300^3 rows: far past 5 ms, so the query is stopped and kept as too slow
    expect(inline.run('t', 'g', graphOf(300), text, options)).toBeUndefined();
    // kept: not tried inline even on a graph where it would take no time
    const small = graphOf(2);
    expect(inline.run('t', 'g', small, text, options)).toBeUndefined();
    inline.ranInWorker('t', 'g', text, 4);
    expect(inline.run('t', 'g', small, text, options)).toBeUndefined();
    // another graph's round trip says nothing of this one
    inline.ranInWorker('t', 'other', text, 0.5);
    expect(inline.run('t', 'g', small, text, options)).toBeUndefined();
    inline.ranInWorker('t', 'g', text, 0.5);
    // one fast answer is not enough: the same text may be heavy with other parameters; a slow one starts the count again
    expect(inline.run('t', 'g', small, text, options)).toBeUndefined();
    inline.ranInWorker('t', 'g', text, 3);
    inline.ranInWorker('t', 'g', text, 0.5);
    expect(inline.run('t', 'g', small, text, options)).toBeUndefined();
    inline.ranInWorker('t', 'g', text, 0.5);
    expect(inline.run('t', 'g', small, text, options)?.rows).toEqual([[8n]]);
  });

  it('keeps a query that calls a rule for the workers, however fast they answer it', () => {
    const inline = new InlineQueries(rules, 5);
    const text = 'MATCH (a) WHERE backs(a) RETURN a';
    expect(inline.run('t', 'g', graphOf(1), text, options)).toBeUndefined();
    inline.ranInWorker('t', 'g', text, 0.1);
    // on an empty graph the rule is never called: only the kept mark sends it away
    expect(inline.run('t', 'g', graphOf(0), text, options)).toBeUndefined();
    expect(new InlineQueries(rules, 5).run('t', 'g', graphOf(0), text, options)?.rows).toEqual([]);
  });
});
