import { open, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import path from 'node:path';

/** Project instruction file names read in each folder, in this order (`AGENTS.md` first; the others for compatibility). */
export const INSTRUCTION_FILE_NAMES: readonly string[] = Object.freeze([
  'AGENTS.md',
  'CLAUDE.md',
  'GEMINI.md',
]);

/** The user-level instruction file, relative to the home directory. */
export const USER_INSTRUCTIONS_PATH = '.codeagent/AGENTS.md';

/** Most bytes of one instruction file sent to the model (the rest is cut, and the cut is said). */
export const DEFAULT_MAX_FILE_BYTES = 32_768;

/** Most bytes of all instruction files together. */
export const DEFAULT_MAX_TOTAL_BYTES = 65_536;

/** One instruction file as it goes to the model. */
export interface InstructionFile {
  /** `user` (the home directory's file) or `project` (repository root down to the working directory). */
  readonly scope: 'user' | 'project';
  /** Absolute path. */
  readonly path: string;
  /** Path shown to the model and the user: relative to the repository root, or `~/...` for the user file. */
  readonly label: string;
  /** The file's text, as written (possibly cut to the byte budget). */
  readonly text: string;
  /** Size of the file on disk, in bytes. */
  readonly bytes: number;
  /** Whether the text was cut to fit the budget. */
  readonly truncated: boolean;
}

/** Options of {@link loadInstructionFiles}. */
export interface LoadInstructionsOptions {
  /** The working directory. */
  readonly cwd: string;
  /** The repository root (default: the nearest folder at or above `cwd` holding `.git`, else `cwd`). */
  readonly root?: string | undefined;
  /** Home directory for the user-level file (default: the OS home); `false` skips it. */
  readonly homeDir?: string | false | undefined;
  /** File names to read in each folder (default {@link INSTRUCTION_FILE_NAMES}). */
  readonly fileNames?: readonly string[] | undefined;
  /** Per-file byte cap (default {@link DEFAULT_MAX_FILE_BYTES}). */
  readonly maxFileBytes?: number | undefined;
  /** Byte cap over all files (default {@link DEFAULT_MAX_TOTAL_BYTES}). */
  readonly maxTotalBytes?: number | undefined;
}

/** What {@link loadInstructionFiles} found, and what it skipped and why. */
export interface LoadedInstructions {
  /** Files in prompt order: the user file, then the repository root down to the working directory. */
  readonly files: readonly InstructionFile[];
  /** One line per file that was skipped or cut (unreadable, binary, outside the tree, over budget). */
  readonly warnings: readonly string[];
  /** The repository root used. */
  readonly root: string;
}

/** The nearest folder at or above `cwd` that holds `.git` (a folder or a worktree's file), or null. */
export async function findRepositoryRoot(cwd: string): Promise<string | null> {
  let dir = path.resolve(cwd);
  for (;;) {
    if (await stat(path.join(dir, '.git')).catch(() => null)) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) return null;
    dir = parent;
  }
}

/** Folders from `root` down to `cwd` (just `cwd` when it is not inside `root`). */
function chain(root: string, cwd: string): string[] {
  const relative = path.relative(root, cwd);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) return [cwd];
  const dirs = [root];
  let dir = root;
  for (const part of relative.split(path.sep)) {
    dir = path.join(dir, part);
    dirs.push(dir);
  }
  return dirs;
}

function inside(child: string, parent: string): boolean {
  const relative = path.relative(parent, child);
  return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Reads at most `limit` bytes of a regular file; the text is cut at a character boundary. */
async function readCapped(
  file: string,
  limit: number,
): Promise<{ text: string; bytes: number; cut: boolean; binary: boolean }> {
  const handle = await open(file, 'r');
  try {
    const info = await handle.stat();
    const size = info.size;
    const buffer = Buffer.alloc(Math.min(size, limit));
    const { bytesRead } = await handle.read(buffer, 0, buffer.length, 0);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes.includes(0)) return { text: '', bytes: size, cut: false, binary: true };
    let text = new TextDecoder('utf-8', { fatal: false }).decode(bytes);
    const cut = size > bytesRead;
    // A multi-byte character split by the cap decodes to a replacement character: drop it.
    if (cut) text = text.replace(/\uFFFD+$/u, '');
    return { text, bytes: size, cut, binary: false };
  } finally {
    await handle.close();
  }
}

/**
 * Finds and reads the instruction files: `~/.codeagent/AGENTS.md`, then `AGENTS.md`, `CLAUDE.md` and `GEMINI.md` in
 * each folder from the repository root down to `cwd`. Project files are untrusted: only regular files whose real
 * path stays inside the repository are read (a symlink to `~/.ssh/id_rsa` is skipped), binary files are skipped, each file
 * and the total are capped in bytes, and a file with the same text as one already read is read once.
 */
export async function loadInstructionFiles(options: LoadInstructionsOptions): Promise<LoadedInstructions> {
  const cwd = path.resolve(options.cwd);
  const root = path.resolve(options.root ?? (await findRepositoryRoot(cwd)) ?? cwd);
  const names = options.fileNames ?? INSTRUCTION_FILE_NAMES;
  const maxFile = Math.max(0, options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES);
  let budget = Math.max(0, options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES);
  const warnings: string[] = [];
  const files: InstructionFile[] = [];
  const seenText = new Set<string>();
  const seenPath = new Set<string>();

  const candidates: Array<{
    scope: InstructionFile['scope'];
    file: string;
    tree: string;
    label: string;
  }> = [];
  const home = options.homeDir === false ? null : path.resolve(options.homeDir ?? homedir());
  if (home !== null) {
    candidates.push({
      scope: 'user',
      file: path.join(home, USER_INSTRUCTIONS_PATH),
      tree: path.join(home, path.dirname(USER_INSTRUCTIONS_PATH)),
      label: `~/${USER_INSTRUCTIONS_PATH}`,
    });
  }
  for (const dir of chain(root, cwd)) {
    for (const name of names) {
      const file = path.join(dir, name);
      const label = path.relative(root, file).split(path.sep).join('/') || name;
      candidates.push({ scope: 'project', file, tree: root, label });
    }
  }

  for (const candidate of candidates) {
    let real: string;
    try {
      real = await realpath(candidate.file);
    } catch {
      continue; // absent: the common case
    }
    // The user's own file may link anywhere; a project file (a cloned repository is untrusted) may not leave it.
    const treeReal = await realpath(candidate.tree).catch(() => candidate.tree);
    if (candidate.scope === 'project' && !inside(real, treeReal)) {
      warnings.push(`${candidate.label}: skipped, it points outside the repository`);
      continue;
    }
    if (seenPath.has(real)) continue; // CLAUDE.md as a symlink to AGENTS.md
    seenPath.add(real);
    const info = await stat(real).catch(() => null);
    if (info === null || !info.isFile()) {
      if (info !== null) warnings.push(`${candidate.label}: skipped, not a regular file`);
      continue;
    }
    if (budget <= 0) {
      warnings.push(
        `${candidate.label}: skipped, the instruction budget (${options.maxTotalBytes ?? DEFAULT_MAX_TOTAL_BYTES} bytes) is used up`,
      );
      continue;
    }
    let read: Awaited<ReturnType<typeof readCapped>>;
    try {
      read = await readCapped(real, Math.min(maxFile, budget));
    } catch (error) {
      warnings.push(
        `${candidate.label}: skipped, unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      continue;
    }
    if (read.binary) {
      warnings.push(`${candidate.label}: skipped, not text`);
      continue;
    }
    if (read.text.trim() === '' || seenText.has(read.text)) continue;
    seenText.add(read.text);
    if (read.cut)
      warnings.push(`${candidate.label}: cut to ${Buffer.byteLength(read.text)} of ${read.bytes} bytes`);
    budget -= Buffer.byteLength(read.text);
    files.push({
      scope: candidate.scope,
      path: candidate.file,
      label: candidate.label,
      text: read.text,
      bytes: read.bytes,
      truncated: read.cut,
    });
  }
  return { files, warnings, root };
}
