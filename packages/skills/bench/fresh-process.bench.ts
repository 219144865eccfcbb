import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, bench, describe } from 'vitest';

// The first listing in a fresh process is what a CLI start pays: 2,000 skills, measured inside a new Node process
// (module load excluded), without and with the persistent index written by an earlier process.
const SKILLS = 2000;
const root = mkdtempSync(join(tmpdir(), 'codeagent-skills-fresh-'));
const cwd = join(root, 'project');
const home = join(root, 'home');
const indexFile = join(root, 'data', 'skills-index.json');
for (let i = 0; i < SKILLS; i++) {
  const name = `skill-${i.toString().padStart(4, '0')}`;
  const dir = join(cwd, '.agents/skills', name);
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, 'SKILL.md'),
    `---\nname: ${name}\ndescription: Does task number ${i}; use it when the user asks for ${i}.\n` +
      `argument-hint: "[target]"\nallowed-tools: Read Grep\nmetadata:\n  owner: bench\n---\n# ${name}\n\nTarget: $ARG1\n`,
  );
}
afterAll(() => rmSync(root, { recursive: true, force: true }));

const entry = new URL('../dist/index.js', import.meta.url).href;
const script = (withIndex: boolean) => `
  import { listSkillsMeta, SkillCache } from ${JSON.stringify(entry)};
  const cache = new SkillCache(${withIndex ? `{ indexFile: ${JSON.stringify(indexFile)} }` : ''});
  const t = performance.now();
  const { skills } = await listSkillsMeta({ cwd: ${JSON.stringify(cwd)}, homeDir: ${JSON.stringify(home)}, cache });
  if (skills.length !== ${SKILLS}) throw new Error('wrong count ' + skills.length);
  process.stdout.write(String(performance.now() - t));
`;
const firstListing = (withIndex: boolean): number =>
  Number(
    execFileSync(process.execPath, ['--input-type=module', '-e', script(withIndex)], { encoding: 'utf8' }),
  );

firstListing(true); // an earlier process wrote the index
const inside: Record<string, number[]> = { cold: [], indexed: [] };
const median = (v: readonly number[]): number =>
  [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)] ?? Number.NaN;
afterAll(() => {
  const cold = median(inside.cold ?? []);
  const indexed = median(inside.indexed ?? []);
  console.log(
    `first listing inside a fresh process: no index ${cold.toFixed(1)} ms, indexed ${indexed.toFixed(1)} ms (medians)`,
  );
  console.log(`ratio indexed / no index: x${(indexed / cold).toFixed(3)} (goal: indexed under 300 ms)`);
});

describe(`first listSkillsMeta in a fresh process, ${SKILLS} skills (whole process incl. Node start)`, () => {
  bench(
    'baseline: no index (read + YAML parse of every file)',
    () => {
      inside.cold?.push(firstListing(false));
    },
    { iterations: 5, warmupIterations: 0 },
  );
  bench(
    'SkillCache({indexFile}): parsed outcomes from an earlier process',
    () => {
      inside.indexed?.push(firstListing(true));
    },
    { iterations: 5, warmupIterations: 0 },
  );
});
