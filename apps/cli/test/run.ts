import { execFile } from 'node:child_process';
import { mkdir, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The built binary. */
export const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

/** The outcome of one run of the built binary. */
export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the built binary with exactly `env` (plus PATH), stdin closed; never throws for a non-zero status. */
export function runBin(args: readonly string[], env: Record<string, string>, cwd?: string): Promise<CliRun> {
  return new Promise((resolve) => {
    const child = execFile(
      'node',
      [BIN, ...args],
      { env: { PATH: process.env.PATH ?? '', ...env }, maxBuffer: 64 * 1024 * 1024, ...(cwd ? { cwd } : {}) },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : 1;
        resolve({ code, stdout, stderr });
      },
    );
    child.stdin?.end();
  });
}

/** A fresh temp root with `home/`, `work/` and `data/` folders. */
export async function tempRoot(
  prefix = 'codeagent-cli-',
): Promise<{ root: string; home: string; work: string; data: string }> {
  const root = await mkdtemp(join(tmpdir(), prefix));
  const dirs = { root, home: join(root, 'home'), work: join(root, 'work'), data: join(root, 'data') };
  await Promise.all([mkdir(dirs.home), mkdir(dirs.work), mkdir(dirs.data)]);
  return dirs;
}

/** The session files in `<dataDir>/sessions` (not the store's own `.codeagent-store.json` or lock files). */
export async function sessionFiles(dataDir: string): Promise<string[]> {
  const { readdir } = await import('node:fs/promises');
  const { join } = await import('node:path');
  return (await readdir(join(dataDir, 'sessions')))
    .filter((f) => f.endsWith('.json') && !f.startsWith('.'))
    .sort();
}
