import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

// The global setup saves and prints each consumer's report (conformance-report/SUMMARY.md).
export default mergeConfig(sharedConfig, { test: { globalSetup: ['./test/global-setup.ts'] } });
