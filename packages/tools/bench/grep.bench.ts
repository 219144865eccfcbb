// tools bench, in the shared format (scripts/bench-lib.mjs): Grep over a generated 5,000-file tree (+1,000 gitignored)
// beside naive readdir + readFile + regex baselines. Wall time (file I/O and worker threads).
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, test } from 'vitest';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import { Workspace } from '../src/index.js';
import { grepFiles } from '../src/internal.js';

const FILES = 5000;
const IGNORED = 1000;
const root = await realpath(await mkdtemp(path.join(os.tmpdir(), 'grep-bench-')));

function body(i: number): string {
  const lines: string[] = [];
  for (let l = 0; l < 60; l += 1) {
    lines.push(
      l === 30 && i % 50 === 0
        ? `const marker_${i} = findMe(${l});`
        : `export function f${i}_${l}(x: number) { return x * ${l}; }`,
    );
  }
  return lines.join('\n');
}

await writeFile(path.join(root, '.gitignore'), 'node_modules/\n*.min.js\n');
for (let d = 0; d < 50; d += 1) {
  await mkdir(path.join(root, `src/d${d}`), { recursive: true });
  await Promise.all(
    Array.from({ length: FILES / 50 }, (_, k) => {
      const i = d * (FILES / 50) + k;
      return writeFile(path.join(root, `src/d${d}/f${i}.ts`), body(i));
    }),
  );
}
await mkdir(path.join(root, 'node_modules/pkg'), { recursive: true });
await Promise.all(
  Array.from({ length: IGNORED }, (_, i) => writeFile(path.join(root, `node_modules/pkg/m${i}.js`), body(i))),
);

const workspace = new Workspace({ cwd: root });
const regex = /findMe\(/;

/** Naive: recursive readdir, read every file, test every line; ignores nothing. */
async function naive(dir: string, skip?: string): Promise<number> {
  let hits = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name === skip) continue;
      hits += await naive(full, skip);
    } else if (entry.isFile()) {
      for (const line of (await readFile(full, 'utf8')).split('\n')) if (regex.test(line)) hits += 1;
    }
  }
  return hits;
}

const expected = FILES / 50;
const check = (n: number, what: string): void => {
  if (n !== expected) throw new Error(`${what} found ${n} matches, expected ${expected}`);
};

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

test(`grep ${FILES} files beside naive readdir + regex`, async () => {
  const suite = benchSuite(
    '@codeagent/tools',
    `Grep (grepFiles: .gitignore honoured, files read and matched in worker threads) over ${FILES} files + ${IGNORED} gitignored`,
  );
  const ours = async () => {
    check((await grepFiles(workspace, { pattern: 'findMe\\(' })).count, 'grepFiles');
  };
  await suite.compare({
    name: 'grep, whole tree',
    what: `grepFiles over ${FILES} files, skipping the ${IGNORED} gitignored ones`,
    baselineName: 'naive recursive readdir + readFile + regex of every file (ignores nothing)',
    ours,
    baseline: async () => {
      check((await naive(root)) - IGNORED / 50, 'naive');
    },
    clock: 'wall',
    minRounds: 11,
    budgetMs: 25_000,
    goal: { max: 1 },
  });
  await suite.compare({
    name: 'grep, ignored dir skipped by hand',
    what: `grepFiles over the same tree`,
    baselineName: 'the naive walk told to skip node_modules (reads the same 5,000 files)',
    ours,
    baseline: async () => {
      check(await naive(root, 'node_modules'), 'naive-skip');
    },
    clock: 'wall',
    minRounds: 11,
    budgetMs: 25_000,
    goal: { max: 1 },
  });
  suite.finish();
});
