import { getHeapStatistics } from 'node:v8';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';
import { flagValue } from './heap.mjs';
import { openEngine } from './open.ts';

/** `npm start` and `parley serve`: open the store, make sure an admin key exists, serve, and close cleanly on SIGINT/SIGTERM. */
const config = loadConfig();
const engine = await openEngine(config);
if (engine.adminKeyRevoked) {
  console.warn('parley: PARLEY_ADMIN_KEY names a key that was revoked; it stays revoked. Set a new value to get a working admin key (docs/operations.md, "API keys").');
}
if (engine.createdAdminKey) {
  console.log(`\nparley: created the admin API key (shown once, stored only as a hash):\n\n  ${engine.createdAdminKey}\n`);
}
const { reasoning } = engine.deps;
for (const entry of [...reasoning.catalog.frameworks, ...reasoning.catalog.ruleFiles]) {
  if (entry.status === 'refused') {
    for (const problem of entry.problems) console.warn(`parley: rule module '${entry.id}' refused: ${problem.file}${problem.line ? `:${problem.line}` : ''}${problem.column ? `:${problem.column}` : ''}: ${problem.reason}`);
  }
}
const loadedFrameworks = reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded').length;
console.log(
  `parley: reasoning: ${loadedFrameworks} frameworks and ${reasoning.catalog.ruleFiles.filter((entry) => entry.status === 'loaded').length} rule files loaded; ` +
    `a call at most ${config.reasonCallTimeoutMs} ms, ${config.reasonMaxQueue} admitted at once (PARLEY_REASON_CALL_TIMEOUT_MS, PARLEY_REASON_MAX_QUEUE)`,
);
// 0, as no flag, is V8's own growth
const growingPercent = Number(flagValue('heap-growing-percent') ?? 0);
console.log(
  `parley: heap limit ${Math.round(getHeapStatistics().heap_size_limit / 2 ** 20)} MB, growth between full collections ${growingPercent > 0 ? `at most ${growingPercent} %` : "V8's own"}, ` +
    `reasoning workers' young generation ${config.reasonYoungMb > 0 ? `at most ${config.reasonYoungMb} MB` : "V8's own"} (PARLEY_HEAP_MB, PARLEY_HEAP_GROWING_PERCENT, PARLEY_HEAP_REASON_YOUNG_MB, docs/operations.md)`,
);
const app = await buildApp(engine.deps, { logger: true });
// before listening: a signal that comes as soon as the server listens closes it too (a client that saw it listen stops it)
let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  await app.close();
  await engine.close();
  process.exit();
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
await app.listen({ port: config.port, host: config.host });
// the workers started, the graph last worked on before the restart preloaded, the others held at the last close loaded and replicated: in the background
reasoning.warmUp().catch((error: unknown) => console.error('parley: warming the graphs after the start failed (their first calls load them):', error));
engine.extractionOpened.then(
  (status) => console.log(`parley: extraction: ${status}`),
  (error: unknown) => {
    console.error('parley: extraction could not open:', error);
    process.exitCode = 1;
    void shutdown('extraction failure');
  },
);
