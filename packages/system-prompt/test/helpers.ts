import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** A temp tree: a home folder and a git repository with a nested working directory. */
export async function makeRepo(): Promise<{ base: string; home: string; repo: string; cwd: string }> {
  const base = await mkdtemp(path.join(tmpdir(), 'codeagent-sysprompt-'));
  const home = path.join(base, 'home');
  const repo = path.join(base, 'repo');
  const cwd = path.join(repo, 'packages', 'app');
  await mkdir(home, { recursive: true });
  await mkdir(cwd, { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  return { base, home, repo, cwd };
}

/** Runs git in `cwd` with a fixed identity. */
export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, {
    cwd,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@example.invalid',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@example.invalid',
    },
  });
}

/** Writes a file, creating its folder. */
export async function put(file: string, text: string | Buffer): Promise<void> {
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, text);
}
