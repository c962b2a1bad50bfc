import { mkdirSync } from 'node:fs';
import { openExtractionPipeline } from '../engine/extract/pipeline.ts';
import { ParleyStore } from '../engine/store/store.ts';
import { buildApp } from './app.ts';
import { loadConfig } from './config.ts';

/** `npm start`: open the store, make sure an admin key exists, serve, and close cleanly on SIGINT/SIGTERM. */
const config = loadConfig();
mkdirSync(config.dataDir, { recursive: true });
const store = await ParleyStore.open(`${config.dataDir}/store`);
const admin = await store.bootstrapAdminKey(config.adminKey);
if (admin.secret) {
  console.log(`\nparley: created the admin API key (shown once, stored only as a hash):\n\n  ${admin.secret}\n`);
}
const { pipeline: extraction, status: extractionStatus } = await openExtractionPipeline({
  ...(config.nerModelDir ? { modelDir: config.nerModelDir } : {}),
  ...(config.nerWorkers !== undefined ? { workers: config.nerWorkers } : {}),
  maxQueue: config.nerMaxQueue,
  ...(config.claimModelDir ? { claimModelDir: config.claimModelDir } : {}),
  ...(config.ruleWorkers !== undefined ? { ruleWorkers: config.ruleWorkers } : {}),
});
console.log(`parley: extraction: ${extractionStatus}`);
const app = await buildApp({ store, config, extraction }, { logger: true });
await app.listen({ port: config.port, host: config.host });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  await app.close();
  await extraction.close();
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
