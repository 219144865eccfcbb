import { defineConfig } from 'vitest/config';

/** Shared vitest settings: tests run against sibling packages' sources through the `@codeagent/source` condition. */
export const sharedConfig = defineConfig({
  resolve: { conditions: ['@codeagent/source'] },
  ssr: { resolve: { conditions: ['@codeagent/source'] } },
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts', 'src/**/*.test.tsx', 'test/**/*.test.tsx'],
    typecheck: {
      enabled: true,
      include: ['src/**/*.test-d.ts', 'test/**/*.test-d.ts'],
      tsconfig: './tsconfig.json',
    },
    testTimeout: 30_000,
    hookTimeout: 30_000,
    allowOnly: false,
    passWithNoTests: false,
    reporters: process.env.CODEAGENT_TEST_REPORT
      ? ['default', ['json', { outputFile: 'test-results.json' }]]
      : ['default'],
  },
});
