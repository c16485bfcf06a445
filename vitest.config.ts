/// <reference types="vitest/config" />
import { getViteConfig } from 'astro/config';

export default getViteConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts', 'tests/deploy/**/*.test.ts', 'src/**/*.test.ts', 'functions/**/*.test.ts', 'local/**/*.test.ts'],
    environment: 'node',
    // Tests that call a function's handler in-process stand where the local server does: they get its signal.
    env: { SHOP_LOCAL_SERVER: '1' },
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
