import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

/** `pnpm bench`: runs bench/*.bench.ts once as plain scripts (they print tables and assert nothing about time). */
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    include: ['bench/**/*.bench.ts'],
    typecheck: { enabled: false },
    testTimeout: 600_000,
  },
});
