import type { Dirent } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import ignore, { type Ignore } from 'ignore';

/** One file found by {@link walkFiles}. */
export interface WalkEntry {
  /** Absolute path. */
  absolute: string;
  /** Path relative to the walk's start directory, `/`-separated. */
  relative: string;
}

/** Options of {@link walkFiles}. */
export interface WalkOptions {
  /** Absolute real path of the directory to walk. */
  start: string;
  /** Directory whose `.gitignore` files (from it down to `start`) apply; usually the workspace root. */
  ignoreBase: string;
  /** Honour `.gitignore` files (default true). `.git` directories are always skipped. */
  gitignore?: boolean;
  /** Stops the walk when aborted. */
  signal?: AbortSignal | undefined;
}

interface Level {
  base: string;
  rules: Ignore;
}

const toPosix = (p: string): string => p.split(path.sep).join('/');

/** Whether a `path.relative` result points outside its base (`..` or `../x`, not a name like `...`). */
const escapes = (rel: string): boolean =>
  rel === '..' || rel.startsWith(`..${path.sep}`) || path.isAbsolute(rel);

async function loadRules(dir: string): Promise<Level | undefined> {
  let text: string;
  try {
    text = await readFile(path.join(dir, '.gitignore'), 'utf8');
  } catch {
    return undefined;
  }
  return { base: dir, rules: ignore().add(text) };
}

function isIgnored(levels: readonly Level[], absolute: string, isDir: boolean): boolean {
  let ignored = false;
  for (const level of levels) {
    const rel = toPosix(path.relative(level.base, absolute));
    if (rel === '' || rel === '..' || rel.startsWith('../')) continue;
    try {
      const result = level.rules.test(isDir ? `${rel}/` : rel);
      if (result.ignored) ignored = true;
      else if (result.unignored) ignored = false;
    } catch {
      // A name the ignore package cannot test (e.g. odd characters) is simply not ignored.
    }
  }
  return ignored;
}

/**
 * Walks regular files under `start` depth-first in name order, skipping `.git`, symbolic links
 * (never followed, so a link cannot lead the walk out of the workspace) and, by default,
 * everything a `.gitignore` between `ignoreBase` and the file excludes (nested files, negations).
 * A `start` that is itself ignored was asked for explicitly and is walked without ignore rules.
 */
export async function* walkFiles(options: WalkOptions): AsyncGenerator<WalkEntry> {
  let useGitignore = options.gitignore ?? true;
  const baseLevels: Level[] = [];
  if (useGitignore) {
    const rel = path.relative(options.ignoreBase, options.start);
    const dirs = [options.ignoreBase];
    if (rel !== '' && !escapes(rel)) {
      let cur = options.ignoreBase;
      for (const part of rel.split(path.sep)) {
        cur = path.join(cur, part);
        dirs.push(cur);
      }
    }
    // The start directory's own rules are loaded when it is visited.
    dirs.pop();
    for (const dir of dirs) {
      const level = await loadRules(dir);
      if (level) baseLevels.push(level);
    }
    // Asking for an ignored directory by name (Grep in dist/) is explicit: search it whole.
    if (isIgnored(baseLevels, options.start, true)) useGitignore = false;
  }
  const stack: Array<{ dir: string; levels: Level[] }> = [{ dir: options.start, levels: baseLevels }];
  while (stack.length > 0) {
    if (options.signal?.aborted) return;
    const { dir, levels: parentLevels } = stack.pop()!;
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      continue; // unreadable directory: skip it, like ripgrep does
    }
    let levels = parentLevels;
    if (useGitignore && entries.some((e) => e.name === '.gitignore' && e.isFile())) {
      const own = await loadRules(dir);
      if (own) levels = [...parentLevels, own];
    }
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const subdirs: string[] = [];
    for (const entry of entries) {
      const absolute = path.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (entry.name === '.git') continue;
        if (useGitignore && isIgnored(levels, absolute, true)) continue;
        subdirs.push(absolute);
      } else if (entry.isFile()) {
        if (useGitignore && isIgnored(levels, absolute, false)) continue;
        yield { absolute, relative: toPosix(path.relative(options.start, absolute)) };
      }
    }
    for (let i = subdirs.length - 1; i >= 0; i -= 1) stack.push({ dir: subdirs[i]!, levels });
  }
}
