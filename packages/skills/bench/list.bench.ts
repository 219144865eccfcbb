import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';
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

const warmCache = new SkillCache();
await listSkillsMeta({ cwd, homeDir: home, cache: warmCache });
let tick = 0;

describe(`listSkillsMeta, ${SKILLS} skills`, () => {
  bench(
    'cold (fresh SkillCache: readdir + read + YAML parse of every file)',
    async () => {
      const { skills } = await listSkillsMeta({ cwd, homeDir: home, cache: new SkillCache() });
      if (skills.length !== SKILLS) throw new Error(`expected ${SKILLS}, got ${skills.length}`);
    },
    { iterations: 8 },
  );

  bench(
    'warm (cached: one stat per directory and per SKILL.md)',
    async () => {
      const { skills } = await listSkillsMeta({ cwd, homeDir: home, cache: warmCache });
      if (skills.length !== SKILLS) throw new Error(`expected ${SKILLS}, got ${skills.length}`);
    },
    { time: 3000 },
  );

  bench(
    'warm, one file changed since the last call',
    async () => {
      tick++;
      const t = new Date(Date.UTC(2024, 0, 1) + tick * 1000);
      utimesSync(touched, t, t);
      const { skills } = await listSkillsMeta({ cwd, homeDir: home, cache: warmCache });
      if (skills.length !== SKILLS) throw new Error(`expected ${SKILLS}, got ${skills.length}`);
    },
    { time: 3000 },
  );
});

describe(`buildSkillHint, ${SKILLS} skills, default 1000-token budget`, () => {
  bench(
    'warm',
    async () => {
      await buildSkillHint({ cwd, homeDir: home, cache: warmCache });
    },
    { time: 3000 },
  );
});

// What a slash command or use_skill pays per call once the process has listed the skills (the baseline is the
// full warm listing that loadSkillPrompt ran on every call before it reused the listing).
describe(`loadSkillPrompt, ${SKILLS} skills, warm`, () => {
  bench(
    'baseline: a warm full listing (what each call cost before)',
    async () => {
      await listSkillsMeta({ cwd, homeDir: home, cache: warmCache });
    },
    { time: 3000 },
  );
  bench(
    'loadSkillPrompt (reuses the last listing: one stat per directory + one, then the body)',
    async () => {
      const text = await loadSkillPrompt('skill-1234', { cwd, homeDir: home, cache: warmCache, args: 'x' });
      if (!text.includes('Target: x')) throw new Error('wrong body');
    },
    { time: 3000 },
  );
});
