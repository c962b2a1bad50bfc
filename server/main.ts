import { mkdirSync } from 'node:fs';
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
const app = await buildApp({ store, config }, { logger: true });
await app.listen({ port: config.port, host: config.host });

let closing = false;
async function shutdown(signal: string): Promise<void> {
  if (closing) return;
  closing = true;
  app.log.info(`${signal}: closing`);
  await app.close();
  await store.close();
  process.exit(0);
}
process.on('SIGINT', () => void shutdown('SIGINT'));
process.on('SIGTERM', () => void shutdown('SIGTERM'));
