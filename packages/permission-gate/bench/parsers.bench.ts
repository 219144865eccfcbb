/**
 * The bash parsers ADR 0100 chose between, on the red-team corpus (test/red-team/bash-deny.json): parse cost
 * of the whole corpus per iteration, and how many lines each rejects. Candidates are installed with npm into a
 * temporary folder (never workspace dependencies). Run: `pnpm bench` in this package.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Language, Parser } from 'web-tree-sitter';
import { bench, describe } from 'vitest';
import corpus from '../test/red-team/bash-deny.json' with { type: 'json' };

const lines = (corpus as readonly { command: string }[]).map((v) => v.command);
const dir = mkdtempSync(join(tmpdir(), 'codeagent-parsers-'));
execFileSync(
  'npm',
  [
    'install',
    '--prefix',
    dir,
    '--no-audit',
    '--no-fund',
    '--silent',
    'mvdan-sh@0.10.1',
    'bash-parser@0.5.0',
    'sh-syntax@0.7.0',
  ],
  {
    stdio: 'inherit',
  },
);
const fromTmp = createRequire(join(dir, 'package.json'));
const mvdan = fromTmp('mvdan-sh') as {
  syntax: { NewParser(): { Parse(src: string, name: string): unknown } };
};
const bashParser = fromTmp('bash-parser') as (src: string) => unknown;
const shSyntax = (await import(pathToFileURL(fromTmp.resolve('sh-syntax')).href)) as {
  parse(src: string): Promise<unknown>;
};

const own = createRequire(import.meta.url);
await Parser.init({ wasmBinary: readFileSync(own.resolve('web-tree-sitter/web-tree-sitter.wasm')) });
const treeSitter = new Parser();
treeSitter.setLanguage(
  await Language.load(readFileSync(own.resolve('tree-sitter-bash/tree-sitter-bash.wasm'))),
);
const mvdanParser = mvdan.syntax.NewParser();

/** Parses one line; true when the parser accepted it. */
const candidates: Record<string, (line: string) => boolean | Promise<boolean>> = {
  'web-tree-sitter + tree-sitter-bash (chosen)': (line) => {
    const tree = treeSitter.parse(line);
    const ok = tree !== null && !tree.rootNode.hasError;
    tree?.delete();
    return ok;
  },
  'mvdan-sh 0.10.1 (GopherJS, sync)': (line) => {
    try {
      mvdanParser.Parse(line, '');
      return true;
    } catch {
      return false;
    }
  },
  'sh-syntax 0.7.0 (Go WebAssembly, async)': async (line) => {
    try {
      await shSyntax.parse(line);
      return true;
    } catch {
      return false;
    }
  },
  'bash-parser 0.5.0 (last release 2017)': (line) => {
    try {
      bashParser(line);
      return true;
    } catch {
      return false;
    }
  },
};

for (const [name, parse] of Object.entries(candidates)) {
  let rejected = 0;
  for (const line of lines) if (!(await parse(line))) rejected++;
  console.log(`${name}: rejects ${rejected} of ${lines.length} red-team lines`);
}

let sink = 0;
describe(`parse the ${lines.length} red-team lines once per iteration`, () => {
  for (const [name, parse] of Object.entries(candidates)) {
    // sh-syntax takes seconds per corpus: a few samples are enough to place it.
    const slow = name.startsWith('sh-syntax');
    bench(
      name,
      async () => {
        for (const line of lines) if (await parse(line)) sink++;
      },
      slow ? { time: 0, iterations: 3, warmupTime: 0, warmupIterations: 0 } : { time: 2000, warmupTime: 300 },
    );
  }
});

if (sink < 0) throw new Error('unreachable');
