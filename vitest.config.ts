/// <reference types="vitest/config" />
import { availableParallelism } from 'node:os';
import { getViteConfig } from 'astro/config';

export default getViteConfig({
  test: {
    include: [
      'tests/unit/**/*.test.ts',
      'tests/integration/**/*.test.ts',
      'tests/deploy/**/*.test.ts',
      'src/**/*.test.ts',
      'functions/**/*.test.ts',
      'local/**/*.test.ts',
      'tests/real-postgres/**/*.test.ts',
    ],
    environment: 'node',
    // One real PostgreSQL server for the run; tests/real-postgres and the RLS matrix use it.
    globalSetup: ['tests/helpers/postgres-global-setup.ts'],
    // Tests that call a function's handler in-process stand where the local server does: they get its signal.
    env: { SHOP_LOCAL_SERVER: '1' },
    // A file per core: Vitest's default (cores − 1) runs one file at a time on a 2-core machine, and most
    // files here spend their time waiting on a server or a socket, not on the CPU.
    maxWorkers: availableParallelism(),
    // Files share their worker's modules instead of loading them again (92 s against 129 s for the suite), so
    // a file that changes process.env puts it back when it ends.
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
