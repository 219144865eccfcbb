// Grep over a generated 5,000-file tree vs naive readdir + readFile + regex baselines.
import { mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, bench, describe } from 'vitest';
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

const options = { time: 0, iterations: 3, warmupTime: 0, warmupIterations: 1 };

describe(`grep ${FILES} files (+${IGNORED} gitignored)`, () => {
  bench(
    'grepFiles (gitignore, worker reads + matches)',
    async () => {
      check((await grepFiles(workspace, { pattern: 'findMe\\(' })).count, 'grepFiles');
    },
    options,
  );
  bench(
    'naive readdir+regex, everything (baseline)',
    async () => {
      check((await naive(root)) - IGNORED / 50, 'naive');
    },
    options,
  );
  bench(
    'naive readdir+regex, node_modules skipped by hand',
    async () => {
      check(await naive(root, 'node_modules'), 'naive-skip');
    },
    options,
  );
});
