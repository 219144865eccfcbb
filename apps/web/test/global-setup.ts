import type { TestProject } from 'vitest/node';
import { startPostgres, stopPostgres, type TestPostgres } from '../../../scripts/postgres-test-server.mjs';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: TestPostgres;
  }
}

let server: TestPostgres | undefined;

export async function setup(project: TestProject): Promise<void> {
  server = await startPostgres();
  project.provide('postgres', server);
}

export async function teardown(): Promise<void> {
  if (server) stopPostgres(server);
}
