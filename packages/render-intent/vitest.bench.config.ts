import { defineConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

/** `pnpm bench`: runs src/render-intent.bench.ts once as a plain script (it prints its figures, asserts nothing about time). */
export default defineConfig({
  ...sharedConfig,
  test: {
    ...sharedConfig.test,
    include: ['src/**/*.bench.ts'],
    typecheck: { enabled: false },
    testTimeout: 600_000,
  },
});
