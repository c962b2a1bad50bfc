/**
 * The store's backends, for behaviour suites that run on each with the same assertions
 * (describe.each(storeBackends)): LevelDB in a temporary folder, and PostgreSQL in a new
 * database of the run's server (test/setup/postgres.ts), its snapshots in the folder.
 */
import path from 'node:path';
import { inject } from 'vitest';
import { ParleyStore } from '../../engine/store/store.ts';
import { freshDatabase } from './postgres.ts';

/** Opens one store, again on each call (a restart): its records are where the first call left them. */
export type StoreOpener = (options?: { cacheFacts?: number }) => Promise<ParleyStore>;

export interface StoreBackendCase {
  kind: 'leveldb' | 'postgres';
  /** A new, empty store, its local files in `dir`. */
  newStore(dir: string): Promise<StoreOpener>;
}

export const levelBackend: StoreBackendCase = {
  kind: 'leveldb',
  newStore: async (dir) => (options) => ParleyStore.open(dir, options),
};

export const postgresBackend: StoreBackendCase = {
  kind: 'postgres',
  async newStore(dir) {
    const url = await freshDatabase(inject('postgresUrl'));
    return (options) => ParleyStore.open(url, { ...options, snapshotDir: path.join(dir, 'snapshots') });
  },
};

export const storeBackends: readonly StoreBackendCase[] = [levelBackend, postgresBackend];
