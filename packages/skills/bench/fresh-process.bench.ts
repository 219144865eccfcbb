// skills bench, fresh process: the first listing a CLI start pays, 2,000 skills, timed inside a new Node process
// (module load excluded), with the persistent index an earlier process wrote, beside a fresh process running the
// plain readdir + read + YAML parse of the same tree. Shared format (scripts/bench-lib.mjs).
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, test } from 'vitest';
import { benchSuite } from '../../../scripts/bench-lib.mjs';

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
const yamlEntry = pathToFileURL(createRequire(import.meta.url).resolve('yaml')).href;
const ours = (withIndex: boolean) => `
  import { listSkillsMeta, SkillCache } from ${JSON.stringify(entry)};
  const cache = new SkillCache(${withIndex ? `{ indexFile: ${JSON.stringify(indexFile)} }` : ''});
  const t = performance.now();
  const { skills } = await listSkillsMeta({ cwd: ${JSON.stringify(cwd)}, homeDir: ${JSON.stringify(home)}, cache });
  if (skills.length !== ${SKILLS}) throw new Error('wrong count ' + skills.length);
  process.stdout.write(String(performance.now() - t));
`;
const plain = `
  import { readdir, readFile } from 'node:fs/promises';
  import { join } from 'node:path';
  import { parse } from ${JSON.stringify(yamlEntry)};
  const dir = ${JSON.stringify(join(cwd, '.agents/skills'))};
  const t = performance.now();
  let n = 0;
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const text = await readFile(join(dir, e.name, 'SKILL.md'), 'utf8');
    if (typeof parse(text.slice(4, text.indexOf('\\n---', 4))).name === 'string') n++;
  }
  if (n !== ${SKILLS}) throw new Error('wrong count ' + n);
  process.stdout.write(String(performance.now() - t));
`;
const run = (script: string): number =>
  Number(execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }));

test('first listing in a fresh process', async () => {
  const suite = benchSuite(
    '@codeagent/skills',
    `the first listing of ${SKILLS} skills inside a fresh Node process (module load excluded)`,
    'fresh-process',
  );
  run(ours(true)); // an earlier process wrote the index
  await suite.compare({
    name: 'first listing, indexed',
    what: 'listSkillsMeta with SkillCache({indexFile}) written by an earlier process',
    baselineName: 'a fresh process doing plain readdir + read + YAML parse',
    ours: () => run(ours(true)),
    baseline: () => run(plain),
    clock: 'returned',
    repeat: 1,
    minRounds: 9,
    budgetMs: 30_000,
    warmup: 0,
    goal: { max: 300, on: 'value', note: 'ms' },
  });
  await suite.compare({
    name: 'first listing, no index',
    what: 'listSkillsMeta with a fresh SkillCache and no index (reads and parses every file)',
    baselineName: 'a fresh process doing plain readdir + read + YAML parse',
    ours: () => run(ours(false)),
    baseline: () => run(plain),
    clock: 'returned',
    repeat: 1,
    minRounds: 9,
    budgetMs: 30_000,
    warmup: 0,
    goal: { max: 1.5 },
  });
  suite.finish();
});
