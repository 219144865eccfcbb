import { expect, it } from 'vitest';

it('pins the public export names', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
    'DEFAULT_MAX_FILE_BYTES',
    'DEFAULT_MAX_TOTAL_BYTES',
    'INSTRUCTIONS_TAG',
    'INSTRUCTION_FILE_NAMES',
    'MAX_STATUS_PATHS',
    'USER_INSTRUCTIONS_PATH',
    'buildSystemPrompt',
    'createSystemPrompt',
    'displaySafe',
    'findRepositoryRoot',
    'loadInstructionFiles',
    'readGitState',
  ]);
});

it('pins the protocol constants', async () => {
  const m = await import('../src/index.js');
  expect(m.INSTRUCTION_FILE_NAMES).toEqual(['AGENTS.md', 'CLAUDE.md', 'GEMINI.md']);
  expect(m.USER_INSTRUCTIONS_PATH).toBe('.codeagent/AGENTS.md');
  expect(m.INSTRUCTIONS_TAG).toBe('project_instructions');
  expect([m.DEFAULT_MAX_FILE_BYTES, m.DEFAULT_MAX_TOTAL_BYTES, m.MAX_STATUS_PATHS]).toEqual([
    32768, 65536, 1000,
  ]);
});
