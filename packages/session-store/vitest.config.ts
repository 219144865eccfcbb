import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

export default mergeConfig(sharedConfig, {
  test: {
    // A real PostgreSQL server on loopback for the whole run (never skipped: no server binaries is a failure).
    globalSetup: ['./test/global-setup.ts'],
  },
});
