/**
 * The heap the store's provenance cache (engine/store/provenance-growth.ts) keeps alive, against
 * its bound: lists decoded as the store decodes them are encoded once (so kept) and dropped, four
 * times the bound's worth, so that only what the cache holds stays alive; the heap after a
 * collection, less the heap before, is what it keeps. Lists of 8 and 64 entries, quotes of 20,
 * 80 and 300 characters, one process per case (the cache is one per process).
 *
 *   npm run bench:provenance-heap [-- --bound 33554432]
 */
import { execFileSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { provenanceJson, setProvenanceKeptBytes } from '../engine/store/provenance-growth.ts';

const { values: args } = parseArgs({ options: { bound: { type: 'string', default: String(32 * 1024 * 1024) }, case: { type: 'string' } } });
const bound = Number(args.bound);
const MiB = 1024 * 1024;

if (args.case) {
  const [quote, perList] = args.case.split(',').map(Number) as [number, number];
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  setProvenanceKeptBytes(bound);
  gc();
  const before = process.memoryUsage().heapUsed;
  let json = 0;
  for (let l = 0; json < 4 * bound; l++) {
    const list = Array.from({ length: perList }, (_, i) => ({
      source: `reports/doc-${l}-${i}.txt`,
      timestamp: '2024-03-03T00:00:00Z',
      document_id: `doc-${l}-${i}-${'x'.repeat(20)}`,
      span: { start: i, end: i + quote },
      quote: 'q'.repeat(quote) + l,
      extractor: 'symbolic',
    }));
    json += provenanceJson(JSON.parse(JSON.stringify(list))).length;
  }
  gc();
  const kept = process.memoryUsage().heapUsed - before;
  console.log(`quote ${String(quote).padStart(3)}, ${String(perList).padStart(2)} entries a list: ${(kept / MiB).toFixed(1)} MiB kept alive for a bound of ${(bound / MiB).toFixed(1)} MiB (${(kept / bound).toFixed(2)}x)`);
} else {
  for (const quote of [20, 80, 300]) {
    for (const perList of [8, 64]) {
      const out = execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename, '--bound', String(bound), '--case', `${quote},${perList}`], { encoding: 'utf8' });
      process.stdout.write(out);
    }
  }
}
