// skills bench, in the shared format (scripts/bench-lib.mjs): listing 2,000 skills beside a plain loader of the
// same tree (readdir, read each SKILL.md, YAML-parse its front matter: no validation, no precedence, no warnings,
// no cache), and the per-call costs of a warm process beside the listing they replace. Wall time (file I/O).
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { parse } from 'yaml';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import { buildSkillHint, listSkillsMeta, loadSkillPrompt, SkillCache } from '../src/index.js';

// 2,000 skills spread over four of the project-level directories, each a realistic small SKILL.md.
const SKILLS = 2000;
const root = mkdtempSync(join(tmpdir(), 'codeagent-skills-bench-'));
const cwd = join(root, 'project');
const home = join(root, 'home');
const layers = ['.agents/skills', '.claude/skills', '.codex/skills', '.codeagent/skills'];
for (let i = 0; i < SKILLS; i++) {
  const name = `skill-${i.toString().padStart(4, '0')}`;
  const dir = join(cwd, layers[i % layers.length] as string, name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Does task number ${i}; use it when the user asks for ${i}.\n` +
      `argument-hint: "[target]"\nallowed-tools: Read Grep\nmetadata:\n  owner: bench\n---\n` +
      `# ${name}\n\n${'Step with some instructions. '.repeat(20)}\nTarget: $ARG1\n`,
  );
}
const touched = join(cwd, '.claude/skills/skill-0001/SKILL.md');
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The baseline: what any loader must at least do with this tree. */
async function plainLoad(): Promise<number> {
  let n = 0;
  for (const layer of layers) {
    const dir = join(cwd, layer);
    for (const e of await readdir(dir, { withFileTypes: true })) {
      if (!e.isDirectory()) continue;
      const text = await readFile(join(dir, e.name, 'SKILL.md'), 'utf8');
      const end = text.indexOf('\n---', 4);
      const meta = parse(text.slice(4, end)) as { name?: unknown };
      if (typeof meta.name === 'string') n++;
    }
  }
  return n;
}

test('skills listing beside a plain readdir + YAML loader', async () => {
  const suite = benchSuite(
    '@codeagent/skills',
    `listing ${SKILLS} skills in 4 project directories beside a plain readdir + read + YAML parse of the same tree`,
    'list',
  );
  expect(await plainLoad()).toBe(SKILLS);
  const list = async (cache: SkillCache) => {
    const { skills } = await listSkillsMeta({ cwd, homeDir: home, cache });
    if (skills.length !== SKILLS) throw new Error(`expected ${SKILLS}, got ${skills.length}`);
  };
  const plain = async () => {
    await plainLoad();
  };
  await suite.compare({
    name: 'listing, cold',
    what: 'listSkillsMeta with a fresh SkillCache (discovery of 12 candidate directories, validation, precedence)',
    baselineName: 'plain readdir + read + YAML parse',
    ours: () => list(new SkillCache()),
    baseline: plain,
    clock: 'wall',
    goal: { max: 1.5 },
  });
  const warm = new SkillCache();
  await list(warm);
  await suite.compare({
    name: 'listing, warm',
    what: 'listSkillsMeta again with the same SkillCache (one stat per directory and per SKILL.md)',
    baselineName: 'plain readdir + read + YAML parse',
    ours: () => list(warm),
    baseline: plain,
    clock: 'wall',
    goal: { max: 0.5 },
  });
  let tick = 0;
  await suite.compare({
    name: 'listing, warm, one file changed',
    what: 'the warm listing after one SKILL.md changed (its mtime moved)',
    baselineName: 'plain readdir + read + YAML parse',
    ours: () => {
      tick++;
      const t = new Date(Date.UTC(2024, 0, 1) + tick * 1000);
      utimesSync(touched, t, t);
      return list(warm);
    },
    baseline: plain,
    clock: 'wall',
    goal: { max: 0.5 },
  });
  const warmListing = () => list(warm);
  await suite.compare({
    name: 'skill hint, warm',
    what: 'buildSkillHint (default 1,000-token budget) over the warm listing',
    baselineName: 'the warm listing alone',
    ours: async () => {
      await buildSkillHint({ cwd, homeDir: home, cache: warm });
    },
    baseline: warmListing,
    clock: 'wall',
    goal: { max: 1.5 },
  });
  await suite.compare({
    name: 'loadSkillPrompt, warm',
    what: 'loadSkillPrompt of one skill with arguments (reuses the last listing: a stat per directory, then the body)',
    baselineName: 'a warm full listing (what each call cost before)',
    ours: async () => {
      const text = await loadSkillPrompt('skill-1234', { cwd, homeDir: home, cache: warm, args: 'x' });
      if (!text.includes('Target: x')) throw new Error('wrong body');
    },
    baseline: warmListing,
    clock: 'wall',
    goal: { max: 0.2 },
  });
  suite.finish();
});
