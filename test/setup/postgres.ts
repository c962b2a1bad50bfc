/** Starts the one PostgreSQL server of a test run (test/helpers/postgres.ts); test files read its URL with inject('postgresUrl'). */
import type { TestProject } from 'vitest/node';
import { startPostgres } from '../helpers/postgres.ts';

declare module 'vitest' {
  export interface ProvidedContext {
    postgresUrl: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const postgres = await startPostgres();
  project.provide('postgresUrl', postgres.url);
  return () => postgres.stop();
}
