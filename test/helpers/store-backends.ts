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

/** What ParleyStore.open takes to open a store: a process of its own can open it too. */
export interface StoreLocation {
  location: string;
  snapshotDir?: string;
}

export interface StoreBackendCase {
  kind: 'leveldb' | 'postgres';
  /** Where a new, empty store is, its local files in `dir`. */
  newLocation(dir: string): Promise<StoreLocation>;
  /** A new, empty store, its local files in `dir`. */
  newStore(dir: string): Promise<StoreOpener>;
}

/** Opens the store at `at`. */
export function openStoreAt({ location, snapshotDir }: StoreLocation, options: { cacheFacts?: number } = {}): Promise<ParleyStore> {
  return ParleyStore.open(location, { ...options, ...(snapshotDir ? { snapshotDir } : {}) });
}

function backendCase(kind: StoreBackendCase['kind'], newLocation: (dir: string) => Promise<StoreLocation>): StoreBackendCase {
  return {
    kind,
    newLocation,
    async newStore(dir) {
      const at = await newLocation(dir);
      return (options) => openStoreAt(at, options);
    },
  };
}

export const levelBackend = backendCase('leveldb', async (dir) => ({ location: dir }));

export const postgresBackend = backendCase('postgres', async (dir) => ({ location: await freshDatabase(inject('postgresUrl')), snapshotDir: path.join(dir, 'snapshots') }));

export const storeBackends: readonly StoreBackendCase[] = [levelBackend, postgresBackend];
