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
  // The change reorders keys and a constant (breaking): it needs a major changeset.
  writeFileSync(join(root, '.changeset', 'demo-extra.md'), '---\n"@demo/pkg": major\n---\n\nAdds EXTRA.\n');
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

/** A throw-away repository of its own with the demo package at `version`, its guard, changesets and git. */
function repo(version: string) {
  const dir = mkdtempSync(join(tmpdir(), 'codeagent-surface-bump-'));
  const pkg = join(dir, 'packages', 'demo');
  mkdirSync(join(pkg, 'dist'), { recursive: true });
  mkdirSync(join(dir, '.changeset'));
  const write = (dts: string, js: string) => {
    const exports = { '.': { types: './dist/index.d.ts', import: './dist/index.js' } };
    writeFileSync(
      join(pkg, 'package.json'),
      JSON.stringify({ name: '@demo/pkg', version, type: 'module', exports }),
    );
    writeFileSync(join(pkg, 'dist', 'index.d.ts'), dts);
    writeFileSync(join(pkg, 'dist', 'index.js'), js);
  };
  const guardAt = async (command: 'check' | 'update') => {
    try {
      const { stdout, stderr } = await run(process.execPath, [script, command, '--root', dir]);
      return { code: 0, out: stdout + stderr };
    } catch (error) {
      const e = error as { code: number; stdout: string; stderr: string };
      return { code: e.code, out: e.stdout + e.stderr };
    }
  };
  const changeset = (level: string | null) => {
    rmSync(join(dir, '.changeset', 'demo.md'), { force: true });
    if (level)
      writeFileSync(join(dir, '.changeset', 'demo.md'), `---\n"@demo/pkg": ${level}\n---\n\nA change.\n`);
  };
  const sh = (...args: string[]) => run('git', ['-C', dir, ...args]);
  return {
    dir,
    write,
    guard: guardAt,
    changeset,
    sh,
    done: () => rmSync(dir, { recursive: true, force: true }),
  };
}

const OPEN_DTS = `${DTS}export type Code = 'a' | 'b' | (string & {});\n`;

it('judges the bump level: a removal needs major, an addition minor, no surface change patch', async () => {
  const r = repo('1.2.0');
  try {
    r.write(OPEN_DTS, JS);
    expect((await r.guard('update')).code).toBe(0);
    expect((await r.guard('check')).out).toMatch(/surface guard: OK/);

    // An added export: a patch changeset is too low, and the message names the package, the pin and the bump needed.
    r.write(`${OPEN_DTS}export declare const EXTRA = 1;\n`, `${JS}export const EXTRA = 1;\n`);
    let out = await r.guard('check');
    expect(out.out).toContain('(it needs at least `minor` since the last release)');
    await r.guard('update');
    r.changeset('patch');
    out = await r.guard('check');
    expect(out.code).toBe(1);
    expect(out.out).toContain(
      '@demo/pkg: the public surface pinned in scripts/surface/demo.json adds exports since its last release (1.2.0): it needs a `minor` changeset, but .changeset/ gives it `patch` (demo.md):',
    );
    expect(out.out).toContain('+ entries › . › names › EXTRA: "const"');
    r.changeset('minor');
    expect((await r.guard('check')).out).toMatch(/surface guard: OK/);

    // A new known member of an open union is an addition too.
    r.write(
      `${OPEN_DTS.replace("'a' | 'b'", "'a' | 'b' | 'c'")}export declare const EXTRA = 1;\n`,
      `${JS}export const EXTRA = 1;\n`,
    );
    await r.guard('update');
    expect((await r.guard('check')).out).toMatch(/surface guard: OK/);

    // A removed export (and a closed union that changed) is breaking: minor is too low for 1.x.
    r.write(
      OPEN_DTS.replace('export declare function run(): void;\n', ''),
      JS.replace('export function run() {}\n', ''),
    );
    await r.guard('update');
    out = await r.guard('check');
    expect(out.code).toBe(1);
    expect(out.out).toContain(
      '@demo/pkg: the public surface pinned in scripts/surface/demo.json removes or changes exports or literals since its last release (1.2.0): it needs a `major` changeset, but .changeset/ gives it `minor` (demo.md):',
    );
    expect(out.out).toContain('- entries › . › names › run: "function"');
    expect(out.out).toContain('raise the bump in a changeset that names @demo/pkg to `major`');
    r.changeset('major');
    expect((await r.guard('check')).out).toMatch(/surface guard: OK/);

    // Back to the released surface (a docs-only change): any changeset, or none, will do.
    r.write(OPEN_DTS, JS);
    await r.guard('update');
    r.changeset('patch');
    expect((await r.guard('check')).out).toMatch(/surface guard: OK/);
    r.changeset(null);
    expect((await r.guard('check')).out).toMatch(/surface guard: OK/);
  } finally {
    r.done();
  }
}, 240_000);

it('while the version is 0.x a breaking change needs minor (semver: 0.y.z may change anything; the minor is the breaking digit)', async () => {
  const r = repo('0.3.0');
  try {
    r.write(DTS, JS);
    await r.guard('update');
    r.write(DTS.replace("'completed' | 'error'", "'completed' | 'error' | 'paused'"), JS);
    await r.guard('update');
    r.changeset('patch');
    const out = await r.guard('check');
    expect(out.code).toBe(1);
    expect(out.out).toContain(
      'removes or changes exports or literals (0.x: a breaking change bumps the minor) since its last release (0.3.0): it needs a `minor` changeset, but .changeset/ gives it `patch`',
    );
    expect(out.out).toContain(
      '~ entries › . › unions › StopReason: ["completed","error"] -> ["completed","error","paused"]',
    );
    r.changeset('minor');
    expect((await r.guard('check')).out).toMatch(/surface guard: OK/);
  } finally {
    r.done();
  }
}, 240_000);

it('finds the released surface of a pin written before pins kept it, in the pin’s git history', async () => {
  const r = repo('1.0.0');
  try {
    await r.sh('init', '-q');
    r.write(DTS, JS);
    await r.guard('update');
    await r.sh('add', '-A');
    await r.sh('-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'pin');
    r.write(
      DTS.replace('export declare function run(): void;\n', ''),
      JS.replace('export function run() {}\n', ''),
    );
    await r.guard('update');
    // An older guard kept only the released digest: drop the released surface from the pin.
    const file = join(r.dir, 'scripts', 'surface', 'demo.json');
    const { releasedSurface, ...legacy } = JSON.parse(readFileSync(file, 'utf8'));
    expect(releasedSurface).toBeDefined();
    writeFileSync(file, JSON.stringify(legacy));
    r.changeset('minor');
    const out = await r.guard('check');
    expect(out.code).toBe(1);
    expect(out.out).toContain('it needs a `major` changeset, but .changeset/ gives it `minor`');
    // Without the history nothing can be judged but the changeset's presence.
    rmSync(join(r.dir, '.git'), { recursive: true, force: true });
    expect((await r.guard('check')).out).toMatch(/surface guard: OK/);
  } finally {
    r.done();
  }
}, 240_000);
