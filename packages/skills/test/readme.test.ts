import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { makeTree, skillMd, type TempTree } from './helpers.js';
import { prepareTurn } from './readme-example.js';

let t: TempTree;
const savedHome = process.env.HOME;
beforeEach(async () => {
  t = await makeTree();
  process.env.HOME = t.home;
});
afterEach(async () => {
  process.env.HOME = savedHome;
  vi.restoreAllMocks();
  await t.cleanup();
});

it('the README quick start is this file, verbatim', async () => {
  const readme = await readFile(join(import.meta.dirname, '../README.md'), 'utf8');
  const example = await readFile(join(import.meta.dirname, 'readme-example.ts'), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});

it('the README quick start runs against a real tree', async () => {
  const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
  await t.write(
    'home/.codeagent/skills/review-pr/SKILL.md',
    skillMd('review-pr', 'Review a pull request', 'Review #$ARG1 ($ARG2)\n'),
  );
  await t.write('project/vendor/skills/deploy/SKILL.md', skillMd('deploy', 'Deploy the app'));
  await t.write('project/.claude/skills/broken/SKILL.md', 'no frontmatter');
  const turn = await prepareTurn(t.cwd, '/review-pr 42 strict');
  expect(turn.names).toEqual(['deploy', 'review-pr']);
  expect(turn.prompt).toBe('Review #42 (strict)\n');
  expect(turn.system).toContain(
    '<skill><name>review-pr</name><description>Review a pull request</description></skill>',
  );
  expect(turn.tools.map((tool) => tool.name)).toEqual(['use_skill']);
  expect(await turn.tools[0]?.execute({ name: 'deploy' })).toBe('Body of deploy.\n');
  expect(warn).toHaveBeenCalledTimes(1);
  expect(String(warn.mock.calls[0]?.[0])).toContain('broken/SKILL.md');
  expect(String(warn.mock.calls[0]?.[0])).toContain('does not start with a "---" frontmatter line');
  const plain = await prepareTurn(t.cwd, 'just text');
  expect(plain.prompt).toBe('just text');
});
