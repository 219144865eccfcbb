import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

/** `pnpm bench`: runs bench/evaluate.bench.ts once as a plain script (they print tables and assert nothing about time). */
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    include: ['bench/evaluate.bench.ts'],
    typecheck: { enabled: false },
    testTimeout: 600_000,
  },
});
