import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  buildSkillHint,
  listSkillNames,
  loadSkillPrompt,
  parseUseSkillInput,
  SkillCache,
  useSkillTool,
} from '../src/index.js';
import { makeTree, skillMd, type TempTree } from './helpers.js';

let t: TempTree;
beforeEach(async () => {
  t = await makeTree();
});
afterEach(async () => {
  await t.cleanup();
});

describe('useSkillTool', () => {
  it('is a framework-neutral read tool with a plain JSON Schema', () => {
    const tool = useSkillTool({ cwd: t.cwd, homeDir: t.home });
    expect(tool.name).toBe('use_skill');
    expect(tool.capability).toBe('read');
    expect(tool.inputSchema).toEqual({
      type: 'object',
      properties: {
        name: expect.objectContaining({ type: 'string', pattern: '^[a-z0-9]+(-[a-z0-9]+)*$', maxLength: 64 }),
        args: expect.objectContaining({ type: 'string' }),
      },
      required: ['name'],
      additionalProperties: false,
    });
    expect(JSON.parse(JSON.stringify(tool.inputSchema))).toEqual(tool.inputSchema);
  });

  it('loads a skill from the project and from host directories', async () => {
    await t.write('project/.codeagent/skills/greet/SKILL.md', skillMd('greet', 'g', 'Hello $ARG1!\n'));
    await t.write('host/host-only/SKILL.md', skillMd('host-only', 'h', 'from host\n'));
    const tool = useSkillTool({
      cwd: t.cwd,
      homeDir: t.home,
      dirs: [`${t.root}/host`],
      cache: new SkillCache(),
    });
    expect(await tool.execute({ name: 'greet', args: 'world' })).toBe('Hello world!\n');
    expect(await tool.execute({ name: 'greet', args: null })).toBe('Hello $ARG1!\n');
    expect(await tool.execute({ name: 'host-only' })).toBe('from host\n');
    await expect(tool.execute({ name: 'nope' })).rejects.toMatchObject({
      code: 'skill-not-found',
      available: ['greet', 'host-only'],
    });
    expect(await listSkillNames({ cwd: t.cwd, homeDir: t.home, dirs: [`${t.root}/host`] })).toEqual([
      'greet',
      'host-only',
    ]);
  });

  it('keeps skills the model may not invoke out of use_skill, while the user can still load them', async () => {
    await t.write(
      'project/.claude/skills/deploy/SKILL.md',
      skillMd('deploy', 'd', 'ship it\n', 'disable-model-invocation: true\n'),
    );
    await t.write(
      'project/.btw/skills/manual/SKILL.md',
      skillMd('manual', 'm', 'by hand\n', 'auto-trigger: false\n'),
    );
    await t.write('project/.agents/skills/open/SKILL.md', skillMd('open', 'o', 'free\n'));
    const options = { cwd: t.cwd, homeDir: t.home, cache: new SkillCache() };
    const tool = useSkillTool(options);
    expect(await tool.execute({ name: 'open' })).toBe('free\n');
    for (const name of ['deploy', 'manual']) {
      // Unknown to the model: the error lists only what it was offered.
      await expect(tool.execute({ name })).rejects.toMatchObject({
        code: 'skill-not-found',
        available: ['open'],
      });
      expect(await loadSkillPrompt(name, options)).toMatch(/ship it|by hand/);
    }
    const hint = await buildSkillHint(options);
    expect(hint).toContain('<name>open</name>');
    expect(hint).not.toMatch(/deploy|manual/);
  });

  it.each([
    [null, /expects an object/],
    ['greet', /expects an object/],
    [[], /expects an object/],
    [{}, /"name" must be a non-empty string/],
    [{ name: '' }, /"name" must be a non-empty string/],
    [{ name: 42 }, /"name" must be a non-empty string/],
    [{ name: 'x', args: ['a'] }, /"args" must be a string/],
  ])('rejects bad input %j with invalid-tool-input', async (input, message) => {
    expect(() => parseUseSkillInput(input)).toThrow(message);
    const tool = useSkillTool({ cwd: t.cwd, homeDir: t.home });
    await expect(tool.execute(input)).rejects.toMatchObject({
      code: 'invalid-tool-input',
      name: 'SkillError',
    });
  });

  it('ignores extra input keys (tolerant reader)', () => {
    expect(parseUseSkillInput({ name: 'x', _intent: 'because', args: 'a' })).toEqual({
      name: 'x',
      args: 'a',
    });
  });
});
