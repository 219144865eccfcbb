import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

export default mergeConfig(sharedConfig, {
  test: {
    // A real PostgreSQL server on loopback for the multi-instance tests (never skipped).
    globalSetup: ['./test/global-setup.ts'],
  },
});
