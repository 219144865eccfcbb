import { writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildSystemPrompt, createSystemPrompt, displaySafe, readGitState } from '../src/index.js';
import { git, makeRepo, put } from './helpers.js';

const environment = {
  cwd: '/home/u/project',
  platform: 'linux',
  date: '2026-12-01',
  shell: 'bash',
  git: null,
};

describe('buildSystemPrompt', () => {
  it('states the role, how to ask, the tool conventions, the environment, and is deterministic', () => {
    const prompt = buildSystemPrompt({ environment, tools: ['Read', 'Edit', 'Bash'] });
    expect(prompt).toBe(buildSystemPrompt({ environment, tools: ['Read', 'Edit', 'Bash'] }));
    expect(prompt).toMatch(/^You are codeagent, a coding agent/u);
    expect(prompt).toContain('ask one short question and wait');
    expect(prompt).toContain('"Permission denied"');
    expect(prompt).toContain('- Edit replaces one exact, unique `old_string`');
    expect(prompt).toContain('`_intent`');
    expect(prompt).not.toContain('TodoWrite keeps'); // not offered, not described
    expect(prompt).toContain('- Working directory: /home/u/project');
    expect(prompt).toContain('- Platform: linux (shell: bash)');
    expect(prompt).toContain('- Date: 2026-12-01');
    expect(prompt).toContain('- Git: not a git repository');
  });

  it('replaces role and conventions with an override, keeps environment and instructions, appends at the end', () => {
    const instructions = [
      {
        scope: 'project' as const,
        path: '/p/AGENTS.md',
        label: 'AGENTS.md',
        text: 'Use tabs.',
        bytes: 9,
        truncated: false,
      },
    ];
    const prompt = buildSystemPrompt({
      environment,
      instructions,
      override: 'You are a pirate.',
      append: 'Say arr.',
    });
    expect(prompt.startsWith('You are a pirate.\n\n# Environment')).toBe(true);
    expect(prompt).not.toContain('You are codeagent');
    expect(prompt).toContain('<project_instructions source="AGENTS.md">\nUse tabs.\n</project_instructions>');
    expect(prompt.endsWith('Say arr.\n')).toBe(true);
  });

  it('is small: the full default prompt stays under 4 kB (pi sends 2.4 kB, Claude Code about 12 kB)', () => {
    const prompt = buildSystemPrompt({
      environment: {
        ...environment,
        git: {
          branch: 'main',
          changedPaths: 3,
          moreChanges: false,
          recentCommits: ['abc1234 fix the parser'],
        },
      },
    });
    const bytes = Buffer.byteLength(prompt);
    expect(bytes).toBeGreaterThan(2_000);
    expect(bytes).toBeLessThan(4_096);
  });
});

describe('readGitState and createSystemPrompt on a real repository', () => {
  it('reports branch, changed paths and recent commits; null outside a repository', async () => {
    const { base, repo, cwd, home } = await makeRepo();
    await put(path.join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', 'a.txt');
    git(repo, 'commit', '-q', '-m', 'first commit');
    git(repo, 'checkout', '-q', '-b', 'feature/x');
    await writeFile(path.join(repo, 'a.txt'), 'changed\n');
    await put(path.join(repo, 'new file.txt'), 'n\n');
    const state = await readGitState(cwd);
    expect(state).toMatchObject({ branch: 'feature/x', changedPaths: 2, moreChanges: false });
    expect(state?.recentCommits).toHaveLength(1);
    expect(state?.recentCommits[0]).toMatch(/^[0-9a-f]{7,} first commit$/u);
    expect(await readGitState(base)).toBeNull();

    await put(path.join(repo, 'AGENTS.md'), 'Run pnpm test before you finish.\n');
    const created = await createSystemPrompt({
      cwd,
      homeDir: home,
      now: new Date(2026, 11, 1, 12),
      platform: 'linux',
      shell: '/bin/zsh',
      append: 'Extra rule.',
    });
    expect(created.text).toContain(`- Working directory: ${cwd}`);
    expect(created.text).toContain('- Platform: linux (shell: zsh)');
    expect(created.text).toContain('- Date: 2026-12-01');
    expect(created.text).toContain('- Git: branch feature/x, 3 changed or untracked path(s)');
    expect(created.text).toContain('first commit');
    expect(created.text).toContain('Run pnpm test before you finish.');
    expect(created.text.endsWith('Extra rule.\n')).toBe(true);
    expect(created.bytes).toBe(Buffer.byteLength(created.text));
    expect(created.instructions.map((f) => f.label)).toEqual(['AGENTS.md']);
  });

  it('a fresh repository without commits still names its branch', async () => {
    const { repo } = await makeRepo();
    expect(await readGitState(repo)).toEqual({
      branch: 'main',
      changedPaths: 0,
      moreChanges: false,
      recentCommits: [],
    });
  });
});

describe('displaySafe', () => {
  it('escapes control and bidi characters and caps the length', () => {
    expect(displaySafe('a\u001b]0;x\u0007b\u202ec')).toBe('a\\u001b]0;x\\u0007b\\u202ec');
    expect(displaySafe('x'.repeat(500))).toHaveLength(200);
  });
});
