import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

// The surface guard (scripts/surface.mjs) on a throw-away repository with one built package.
const run = promisify(execFile);
const script = join(import.meta.dirname, '..', '..', '..', 'scripts', 'surface.mjs');
const root = mkdtempSync(join(tmpdir(), 'codeagent-surface-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
const pkgDir = join(root, 'packages', 'demo');

async function guard(command: 'check' | 'update'): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [script, command, '--root', root]);
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

function writePackage(version: string, dts: string, js: string): void {
  mkdirSync(join(pkgDir, 'dist'), { recursive: true });
  const exports = {
    '.': { types: './dist/index.d.ts', import: './dist/index.js' },
    './package.json': './package.json',
  };
  writeFileSync(
    join(pkgDir, 'package.json'),
    JSON.stringify({ name: '@demo/pkg', version, type: 'module', exports }),
  );
  writeFileSync(join(pkgDir, 'dist', 'index.d.ts'), dts);
  writeFileSync(join(pkgDir, 'dist', 'index.js'), js);
}

const DTS = `export type StopReason = 'completed' | 'error';
export declare const STOP_REASONS: readonly StopReason[];
export type DemoEvent = { type: 'delta'; text: string } | { type: 'end'; result: string };
export interface ResultEvent { id: string; value: string; isError: boolean }
export declare function run(): void;
`;
const JS = `export const STOP_REASONS = Object.freeze(['completed', 'error']);\nexport function run() {}\n`;

it('pins a package, fails on any surface change until the pin and a changeset come together, and accepts a release', async () => {
  writePackage('1.0.0', DTS, JS);
  mkdirSync(join(root, '.changeset'));
  let r = await guard('check');
  expect(r.code).toBe(1);
  expect(r.out).toMatch(/@demo\/pkg has no surface pin: run `pnpm surface:update`/);

  expect((await guard('update')).code).toBe(0);
  const pin = JSON.parse(readFileSync(join(root, 'scripts', 'surface', 'demo.json'), 'utf8'));
  expect(pin.surface.entries['.']).toMatchObject({
    names: {
      DemoEvent: 'type',
      ResultEvent: 'interface',
      STOP_REASONS: 'const',
      StopReason: 'type',
      run: 'function',
    },
    unions: { StopReason: ['completed', 'error'] },
    keyOrders: {
      DemoEvent: { tag: 'type', members: { delta: ['type', 'text'], end: ['type', 'result'] } },
      ResultEvent: ['id', 'value', 'isError'],
    },
    constants: { STOP_REASONS: ['completed', 'error'] },
  });
  expect((await guard('check')).out).toMatch(/surface guard: OK/);

  // A new export, a constant's value and an event's key order each fail, naming what changed.
  writePackage(
    '1.0.0',
    DTS.replace(
      '{ id: string; value: string; isError: boolean }',
      '{ value: string; id: string; isError: boolean }',
    ) + 'export declare const EXTRA = 1;\n',
    JS.replace("['completed', 'error']", "['error', 'completed']") + 'export const EXTRA = 1;\n',
  );
  r = await guard('check');
  expect(r.code).toBe(1);
  expect(r.out).toContain('@demo/pkg: the public surface differs from its pin (scripts/surface/demo.json)');
  expect(r.out).toContain('+ entries › . › names › EXTRA: "const"');
  expect(r.out).toContain(
    '~ entries › . › keyOrders › ResultEvent: ["id","value","isError"] -> ["value","id","isError"]',
  );
  expect(r.out).toContain(
    '~ entries › . › constants › STOP_REASONS: ["completed","error"] -> ["error","completed"]',
  );
  expect(r.out).toContain('run `pnpm surface:update`, and add a changeset for @demo/pkg');

  // The pin alone is not enough: a changeset must name the package (one for another package does not count).
  await guard('update');
  writeFileSync(join(root, '.changeset', 'other.md'), '---\n"@demo/other": minor\n---\n\nNot this one.\n');
  r = await guard('check');
  expect(r.code).toBe(1);
  expect(r.out).toMatch(
    /@demo\/pkg: the public surface changed since its last release \(1\.0\.0\) but no changeset/,
  );
  writeFileSync(join(root, '.changeset', 'demo-extra.md'), '---\n"@demo/pkg": minor\n---\n\nAdds EXTRA.\n');
  expect((await guard('check')).out).toMatch(/surface guard: OK/);

  // A release consumes the changesets and bumps the version: the pinned surface is now the released one.
  rmSync(join(root, '.changeset', 'demo-extra.md'));
  const released = readFileSync(join(pkgDir, 'dist', 'index.d.ts'), 'utf8');
  writePackage('1.1.0', released, readFileSync(join(pkgDir, 'dist', 'index.js'), 'utf8'));
  expect((await guard('check')).out).toMatch(/surface guard: OK/);
  // The next update records the version; the surface pinned before it is now the released one.
  await guard('update');
  const pinned = JSON.parse(readFileSync(join(root, 'scripts', 'surface', 'demo.json'), 'utf8'));
  expect(pinned.version).toBe('1.1.0');
  expect(pinned.released).not.toBe(pin.released);
}, 240_000);
