import { mkdirSync } from 'node:fs';
import { openExtractionPipeline } from '../engine/extract/pipeline.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { ReasoningPool } from '../engine/reason/pool.ts';
import { buildApp } from './app.ts';
import { loadConfig, reasoningOptions } from './config.ts';

/** `npm start`: open the store, make sure an admin key exists, serve, and close cleanly on SIGINT/SIGTERM. */
const config = loadConfig();
mkdirSync(config.dataDir, { recursive: true });
const store = await ParleyStore.open(`${config.dataDir}/store`);
const admin = await store.bootstrapAdminKey(config.adminKey);
if (admin.revoked) {
  console.warn('parley: PARLEY_ADMIN_KEY names a key that was revoked; it stays revoked. Set a new value to get a working admin key (README "Rotating the admin key").');
}
if (admin.secret) {
  console.log(`\nparley: created the admin API key (shown once, stored only as a hash):\n\n  ${admin.secret}\n`);
}
const { pipeline: extraction, status: extractionStatus } = await openExtractionPipeline({
  ...(config.nerModelDir ? { modelDir: config.nerModelDir } : {}),
  ...(config.nerWorkers !== undefined ? { workers: config.nerWorkers } : {}),
  maxQueue: config.nerMaxQueue,
  ...(config.claimModelDir ? { claimModelDir: config.claimModelDir } : {}),
  ...(config.ruleWorkers !== undefined ? { ruleWorkers: config.ruleWorkers } : {}),
  ruleMaxQueue: config.ruleMaxQueue,
});
console.log(`parley: extraction: ${extractionStatus}`);
const reasoning = new ReasoningPool(store, reasoningOptions(config));
for (const entry of [...reasoning.catalog.frameworks, ...reasoning.catalog.ruleFiles]) {
  if (entry.status === 'refused') {
    for (const problem of entry.problems) console.warn(`parley: rule module '${entry.id}' refused: ${problem.file}${problem.line ? `:${problem.line}` : ''}${problem.column ? `:${problem.column}` : ''}: ${problem.reason}`);
  }
}
const loadedFrameworks = reasoning.catalog.frameworks.filter((entry) => entry.status === 'loaded').length;
console.log(`parley: reasoning: ${loadedFrameworks} frameworks and ${reasoning.catalog.ruleFiles.filter((entry) => entry.status === 'loaded').length} rule files loaded`);
const app = await buildApp({ store, config, extraction, reasoning }, { logger: true });
await app.listen({ port: config.port, host: config.host });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  await app.close();
  await extraction.close();
  await reasoning.close();
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
