import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import provenance from './__fixtures__/collections/provenance.json' with { type: 'json' };
import {
  buildSkillHint,
  listSkillsMeta,
  loadSkillPrompt,
  SkillCache,
  type SkillWarning,
  useSkillTool,
} from '../src/index.js';

const FIXTURES = join(import.meta.dirname, '__fixtures__', 'collections');
const COLLECTIONS = ['anthropic', 'openai', 'claude-code-docs', 'community'];
let root: string;

// Each collection is installed where its users keep it: ~/.claude/skills, ~/.agents/skills, project dirs.
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'codeagent-skill-collections-'));
  await cp(join(FIXTURES, 'anthropic'), join(root, 'home/.claude/skills'), { recursive: true });
  await cp(join(FIXTURES, 'openai'), join(root, 'home/.agents/skills'), { recursive: true });
  await cp(join(FIXTURES, 'claude-code-docs'), join(root, 'project/.claude/skills'), { recursive: true });
  await cp(join(FIXTURES, 'community'), join(root, 'project/.btw/skills'), { recursive: true });
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const options = () => ({ cwd: join(root, 'project'), homeDir: join(root, 'home'), cache: new SkillCache() });
const codes = (warnings: readonly SkillWarning[], folder: string) =>
  warnings.filter((w) => w.file.includes(`/${folder}/`)).map((w) => `${w.field}:${w.code}:${w.skipped}`);

describe('real skill collections (shapes with provenance)', () => {
  it('every fixture has provenance', () => {
    const named = provenance.fixtures.map((f) => f.fixture).sort();
    expect(named).toHaveLength(7);
    for (const f of provenance.fixtures) {
      expect(COLLECTIONS).toContain(f.fixture.split('/')[0]);
      expect('repo' in f ? f.repo && f.commit && f.path : f.source).toBeTruthy();
    }
  });

  it('lists every skill a peer would load, with the warnings that say what was read leniently', async () => {
    const { skills, warnings } = await listSkillsMeta(options());
    expect(skills.map((s) => [s.name, s.sourceKind, s.autoTrigger, s.argumentHint ?? null])).toEqual([
      ['address-pr-comments', 'user', true, null],
      ['claude-api', 'user', true, null],
      ['deploy', 'project', false, null],
      ['difit', 'project', false, null],
      ['fix-issue', 'project', true, '[pr-number] [priority] [assignee]'],
      ['review-notes', 'project', true, null],
      ['untitled-helper', 'project', true, '<path>'],
    ]);
    expect(codes(warnings, 'claude-api')).toEqual(['description:long-description:false']);
    expect(codes(warnings, 'fix-issue')).toEqual(['argument-hint:recovered-yaml:false']);
    expect(codes(warnings, 'review-notes')).toEqual(['description:recovered-yaml:false']);
    expect(codes(warnings, 'untitled-helper')).toEqual(['name:name-from-folder:false']);
    expect(warnings).toHaveLength(4);
    const api = skills.find((s) => s.name === 'claude-api');
    expect(api?.description.length).toBeGreaterThan(1024);
    expect(skills.find((s) => s.name === 'review-notes')?.description).toBe(
      'Use when: the user asks for review notes on a change',
    );
    expect(skills.find((s) => s.name === 'fix-issue')?.allowedTools).toEqual([
      'Bash(git add:*)',
      'Bash(git status:*)',
      'Bash(git commit:*)',
    ]);
  });

  it('skills kept from the model stay out of the hint and use_skill, and still run as slash commands', async () => {
    const o = options();
    const hint = await buildSkillHint({ ...o, maxTokens: 100_000 });
    for (const name of [
      'claude-api',
      'fix-issue',
      'review-notes',
      'untitled-helper',
      'address-pr-comments',
    ]) {
      expect(hint).toContain(`<name>${name}</name>`);
    }
    expect(hint).not.toMatch(/<name>(deploy|difit)<\/name>/);
    await expect(useSkillTool(o).execute({ name: 'deploy' })).rejects.toMatchObject({
      code: 'skill-not-found',
    });
    expect(await loadSkillPrompt('deploy', { ...o, args: 'v2' })).toBe('\nDeploy v2 to production.\n');
    expect(await loadSkillPrompt('fix-issue', { ...o, args: '42 high ana' })).toBe(
      '\nFix issue #42 with priority high and assign it to ana.\n',
    );
  });
});
