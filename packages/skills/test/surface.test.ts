import { expect, it } from 'vitest';

it('pins the public export names', async () => {
  expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
    'DEFAULT_HINT_MAX_TOKENS',
    'DEFAULT_MAX_SKILL_BYTES',
    'MAX_DESCRIPTION_LENGTH',
    'MAX_NAME_LENGTH',
    'PROJECT_SKILL_DIRS',
    'SKILL_FILE',
    'SkillCache',
    'SkillError',
    'USER_SKILL_DIR',
    'USER_SKILL_DIRS',
    'buildSkillHint',
    'escapeHintText',
    'estimateTokens',
    'formatSkillHint',
    'isSkillError',
    'isValidSkillName',
    'listSkillNames',
    'listSkillsMeta',
    'loadSkillPrompt',
    'parseSlashCommand',
    'parseUseSkillInput',
    'skillDirectories',
    'splitArguments',
    'substituteArguments',
    'useSkillTool',
  ]);
});

it('pins the protocol constants', async () => {
  const m = await import('../src/index.js');
  expect(m.PROJECT_SKILL_DIRS).toEqual([
    '.btw/skills',
    '.gemini/skills',
    '.agents/skills',
    '.claude/skills',
    '.codex/skills',
    '.codeagent/skills',
  ]);
  expect(m.USER_SKILL_DIR).toBe('.codeagent/skills');
  expect(m.USER_SKILL_DIRS).toEqual(['.claude/skills', '.agents/skills', '.codeagent/skills']);
  expect(m.SKILL_FILE).toBe('SKILL.md');
  expect([
    m.MAX_NAME_LENGTH,
    m.MAX_DESCRIPTION_LENGTH,
    m.DEFAULT_HINT_MAX_TOKENS,
    m.DEFAULT_MAX_SKILL_BYTES,
  ]).toEqual([64, 1024, 1000, 262144]);
});
