import { mkdir, mkdtemp, realpath, rm, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, expect } from 'vitest';
import { ToolError } from '../src/errors.js';
import { Workspace } from '../src/workspace.js';

const made: string[] = [];

/** A fresh real temp directory, removed after the test. */
export async function tempDir(prefix = 'codeagent-tools-'): Promise<string> {
  const dir = await realpath(await mkdtemp(path.join(os.tmpdir(), prefix)));
  made.push(dir);
  return dir;
}

afterEach(async () => {
  while (made.length > 0) {
    const dir = made.pop()!;
    await rm(dir, { recursive: true, force: true });
  }
});

/** Writes files (creating parents) from a `{relativePath: content}` map. */
export async function writeTree(root: string, files: Record<string, string | Uint8Array>): Promise<void> {
  for (const [rel, content] of Object.entries(files)) {
    const file = path.join(root, rel);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, content);
  }
}

/** Whether a process is alive (a zombie counts as dead: it only waits to be reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const state = stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3);
    return state !== 'Z' && state !== 'X';
  } catch {
    return false;
  }
}

/** Polls `check` until it holds or `attempts` x 50 ms passed (a wait, not a timing assertion). */
export async function eventually(check: () => boolean | Promise<boolean>, attempts = 100): Promise<boolean> {
  for (let i = 0; i < attempts; i += 1) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** A temp workspace holding `files`, with a `Workspace` rooted at it. */
export async function setup(files: Record<string, string | Uint8Array> = {}) {
  const root = await tempDir();
  await writeTree(root, files);
  return { root, ws: new Workspace({ cwd: root }) };
}

/** Awaits a promise that must reject with a one-line `ToolError`, and returns the error. */
export async function failure(p: Promise<unknown>): Promise<ToolError> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(ToolError);
  expect((e as Error).message).not.toContain('\n');
  return e as ToolError;
}
