import { execFile } from 'node:child_process';

/** What the prompt says about the repository. */
export interface GitState {
  /** Current branch, or null when detached or unknown. */
  readonly branch: string | null;
  /** Number of changed or untracked paths (`git status --porcelain`), capped at {@link MAX_STATUS_PATHS}. */
  readonly changedPaths: number;
  /** Whether {@link changedPaths} hit the cap. */
  readonly moreChanges: boolean;
  /** Up to five recent commits, `<short hash> <subject>`, newest first, each line capped. */
  readonly recentCommits: readonly string[];
}

/** The most changed paths counted. */
export const MAX_STATUS_PATHS = 1000;

const TIMEOUT_MS = 1500;

function git(cwd: string, args: readonly string[]): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(
      'git',
      [...args],
      {
        cwd,
        timeout: TIMEOUT_MS,
        maxBuffer: 4 * 1024 * 1024,
        // Read-only: never take the index lock, never prompt.
        env: { ...process.env, GIT_OPTIONAL_LOCKS: '0', GIT_TERMINAL_PROMPT: '0' },
        windowsHide: true,
      },
      (error, stdout) => resolve(error ? null : stdout),
    );
  });
}

/** Reads branch, change count and recent commits with read-only git commands (1.5 s cap); null outside a repository or without git. */
export async function readGitState(cwd: string): Promise<GitState | null> {
  const [status, log] = await Promise.all([
    git(cwd, ['status', '--porcelain=v1', '--branch', '-z', '--untracked-files=normal']),
    git(cwd, ['log', '-n', '5', '--format=%h %s']),
  ]);
  if (status === null) return null;
  const entries = status.split('\0').filter((e) => e !== '');
  const head = entries[0]?.startsWith('## ') ? entries.shift() : undefined;
  let branch: string | null = null;
  if (head !== undefined) {
    const name = head.slice(3).split('...')[0] ?? '';
    if (name.startsWith('No commits yet on ')) branch = name.slice('No commits yet on '.length);
    else if (!name.startsWith('HEAD (no branch)')) branch = name;
  }
  // A rename entry is followed by its old path as a separate field.
  let changed = 0;
  for (let i = 0; i < entries.length; i += 1) {
    const entry = entries[i] ?? '';
    if (entry[0] === 'R' || entry[0] === 'C') i += 1;
    changed += 1;
  }
  const recentCommits = (log ?? '')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .slice(0, 5)
    .map((line) => (line.length > 120 ? `${line.slice(0, 119)}…` : line));
  return {
    branch: branch === '' ? null : branch,
    changedPaths: Math.min(changed, MAX_STATUS_PATHS),
    moreChanges: changed > MAX_STATUS_PATHS,
    recentCommits,
  };
}
