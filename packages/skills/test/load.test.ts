import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  isSkillError,
  loadSkillPrompt,
  parseSlashCommand,
  SkillCache,
  SkillError,
  splitArguments,
  substituteArguments,
} from '../src/index.js';
import { makeTree, skillMd, type TempTree } from './helpers.js';

describe('substituteArguments', () => {
  // Example bodies and arguments live in vectors/arguments.json (run by vectors.test.ts).
  it('property: each $ARGn is the n-th whitespace token, and text without "$" is unchanged', () => {
    const token = fc.stringMatching(/^[A-Za-z0-9$._-]{1,8}$/);
    fc.assert(
      fc.property(fc.array(token, { minLength: 1, maxLength: 15 }), fc.nat(20), (tokens, pick) => {
        const args = tokens.join('  ');
        const n = pick + 1;
        const out = substituteArguments(`<$ARG${n}>`, args);
        expect(out).toBe(n <= tokens.length ? `<${tokens[n - 1]}>` : `<$ARG${n}>`);
      }),
      { numRuns: 200 },
    );
    fc.assert(
      fc.property(
        fc.string().filter((s) => !s.includes('$')),
        fc.string(),
        (body, args) => {
          const out = substituteArguments(body, args);
          expect(out.startsWith(body.replace(/\n*$/, ''))).toBe(true);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a body of many newlines with appended args stays linear (no regex backtracking)', () => {
    const body = `${'\n'.repeat(200_000)}x${'\n'.repeat(100_000)}`;
    expect(substituteArguments(body, 'a')).toBe(`${'\n'.repeat(200_000)}x\n\nARGUMENTS: a`);
  });

  it('splitArguments splits on any whitespace run', () => {
    expect(splitArguments(' a\n b\t\tc  ')).toEqual(['a', 'b', 'c']);
    expect(splitArguments('   ')).toEqual([]);
  });
});

describe('loadSkillPrompt', () => {
  let t: TempTree;
  let cache: SkillCache;
  beforeEach(async () => {
    t = await makeTree();
    cache = new SkillCache();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('returns the body without frontmatter, with substitutions', async () => {
    await t.write(
      'project/.codeagent/skills/review-pr/SKILL.md',
      skillMd(
        'review-pr',
        'Review a PR',
        'Review PR #$ARG1 in mode $ARG2.\nAll: $ARGUMENTS\n',
        'argument-hint: <pr> <mode>\n',
      ),
    );
    expect(
      await loadSkillPrompt('review-pr', { cwd: t.cwd, homeDir: t.home, cache, args: '42 strict' }),
    ).toBe('Review PR #42 in mode strict.\nAll: 42 strict\n');
  });

  it('a hyphenated name typed as a slash command loads its skill', async () => {
    await t.write(
      'project/.claude/skills/fix-lint-errors/SKILL.md',
      skillMd('fix-lint-errors', 'x', 'Fix $ARG1 now\n'),
    );
    const cmd = parseSlashCommand('/fix-lint-errors src/index.ts');
    expect(cmd).toEqual({ name: 'fix-lint-errors', args: 'src/index.ts' });
    if (!cmd) throw new Error('unreachable');
    expect(await loadSkillPrompt(cmd.name, { cwd: t.cwd, homeDir: t.home, cache, args: cmd.args })).toBe(
      'Fix src/index.ts now\n',
    );
  });

  it('an unknown skill throws skill-not-found listing the available names', async () => {
    await t.write('project/.codeagent/skills/beta/SKILL.md', skillMd('beta', 'b'));
    await t.write('home/.codeagent/skills/alpha/SKILL.md', skillMd('alpha', 'a'));
    const error = await loadSkillPrompt('gamma', { cwd: t.cwd, homeDir: t.home, cache }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SkillError);
    expect(isSkillError(error, 'skill-not-found')).toBe(true);
    expect(isSkillError(error, 'invalid-tool-input')).toBe(false);
    // The deprecated SCREAMING_SNAKE spelling still matches (ADR 0200); an unrelated string does not.
    expect(isSkillError(error, 'SKILL_NOT_FOUND')).toBe(true);
    expect(isSkillError(error, 'INVALID_TOOL_INPUT')).toBe(false);
    expect(isSkillError(error, 'toString' as never)).toBe(false);
    if (!isSkillError(error)) throw new Error('unreachable');
    expect(error.code).toBe('skill-not-found');
    expect(error.available).toEqual(['alpha', 'beta']);
    expect(error.message).toBe('Unknown skill "gamma". Available skills: alpha, beta');
  });

  it('the not-found message neutralises control characters in the requested name and says "none" when empty', async () => {
    const error = await loadSkillPrompt('\u001b[31mx\u202e', { cwd: t.cwd, homeDir: t.home, cache }).catch(
      (e: unknown) => e,
    );
    expect(isSkillError(error, 'skill-not-found')).toBe(true);
    if (!(error instanceof Error)) throw new Error('unreachable');
    expect(error.message).toBe('Unknown skill "?[31mx?". Available skills: none');
  });

  it('an invalid (skipped) skill is not loadable', async () => {
    await t.write('project/.codeagent/skills/broken/SKILL.md', '---\nname: broken\n---\nbody');
    await expect(loadSkillPrompt('broken', { cwd: t.cwd, homeDir: t.home, cache })).rejects.toMatchObject({
      code: 'skill-not-found',
    });
  });
});

describe('loadSkillPrompt reuses the last listing', () => {
  let tree: TempTree;
  beforeEach(async () => {
    tree = await makeTree();
  });
  afterEach(async () => {
    await tree.cleanup();
  });

  it('answers from the listing while nothing changed, and sees every change that matters', async () => {
    const cache = new SkillCache();
    const o = { cwd: tree.cwd, homeDir: tree.home, cache };
    const low = await tree.write(
      'project/.agents/skills/greet/SKILL.md',
      skillMd('greet', 'g', 'low $ARG1\n'),
    );
    for (let i = 0; i < 50; i++)
      await tree.write(`project/.agents/skills/s-${i}/SKILL.md`, skillMd(`s-${i}`, 'x'));
    expect(await loadSkillPrompt('greet', { ...o, args: 'a' })).toBe('low a\n');
    // The body is always read fresh.
    await tree.write('project/.agents/skills/greet/SKILL.md', skillMd('greet', 'g', 'edited $ARG1\n'));
    expect(await loadSkillPrompt('greet', { ...o, args: 'b' })).toBe('edited b\n');
    // A stronger directory gains a folder of the same name: the new winner is loaded.
    await tree.write('project/.codeagent/skills/greet/SKILL.md', skillMd('greet', 'g', 'high\n'));
    expect(await loadSkillPrompt('greet', o)).toBe('high\n');
    // The winner renames itself in place: the earlier one wins again.
    await tree.write('project/.codeagent/skills/greet/SKILL.md', skillMd('other', 'g', 'renamed\n'));
    expect(await loadSkillPrompt('greet', o)).toBe('edited $ARG1\n');
    expect(await loadSkillPrompt('other', o)).toBe('renamed\n');
    // The skill disappears: a clear not-found error with the names that remain.
    await rm(dirname(low), { recursive: true });
    await expect(loadSkillPrompt('greet', o)).rejects.toMatchObject({ code: 'skill-not-found' });
  });
});
