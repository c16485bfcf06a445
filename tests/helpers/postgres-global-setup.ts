/** Vitest's global set-up: one PostgreSQL server for the whole run (see postgres-server.ts). */
import type { TestProject } from 'vitest/node';
import { type PostgresServer, startPostgresServer } from './postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresServer;
  }
}

export default async function setup(project: TestProject) {
  const started = Date.now();
  const { server, stop } = await startPostgresServer();
  console.log(`PostgreSQL 17 ready for the tests on port ${server.port} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('postgres', server);
  return stop;
}
