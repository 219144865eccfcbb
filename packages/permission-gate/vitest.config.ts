import { mergeConfig } from 'vitest/config';
import { sharedConfig } from '../../vitest.shared.ts';

export default mergeConfig(sharedConfig, { test: { setupFiles: ['./test/setup-grammar.ts'] } });
