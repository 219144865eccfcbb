import type * as realFs from 'node:fs/promises';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { listSkillsMeta, loadSkillPrompt, SkillCache } from '../src/index.js';
import { makeTree, skillMd, type TempTree } from './helpers.js';

// Make reads of one chosen path fail, to reach the "changed between discovery and reading" branch deterministically.
const failing = vi.hoisted(() => ({ path: '' }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof realFs>();
  return {
    ...actual,
    readFile: (path: Parameters<typeof actual.readFile>[0], ...rest: unknown[]) => {
      if (failing.path !== '' && path === failing.path) {
        return Promise.reject(
          Object.assign(new Error(`EIO: i/o error, open '${String(path)}'`), { code: 'EIO' }),
        );
      }
      return (actual.readFile as (...a: unknown[]) => Promise<unknown>)(path, ...rest);
    },
  };
});

let t: TempTree;
beforeEach(async () => {
  t = await makeTree();
  failing.path = '';
});
afterEach(async () => {
  failing.path = '';
  await t.cleanup();
});

it('a body that cannot be read at load time is a skill-unreadable error naming the file and the reason', async () => {
  const path = await t.write('project/.codeagent/skills/flaky/SKILL.md', skillMd('flaky', 'x'));
  const cache = new SkillCache();
  const opts = { cwd: t.cwd, homeDir: t.home, cache };
  expect((await listSkillsMeta(opts)).skills.map((s) => s.name)).toEqual(['flaky']);
  failing.path = path;
  await expect(loadSkillPrompt('flaky', opts)).rejects.toMatchObject({
    name: 'SkillError',
    code: 'skill-unreadable',
    available: ['flaky'],
    message: `Skill "flaky" could not be read (${path}): EIO: i/o error, open '${path}'`,
  });
  failing.path = '';
  expect(await loadSkillPrompt('flaky', opts)).toBe('Body of flaky.\n');
});
