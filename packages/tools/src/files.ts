import { isUtf8 } from 'node:buffer';
import { mkdir, readFile, stat, writeFile as writeText } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, ToolError } from './errors.js';
import { looksBinary, splitLines } from './text.js';
import { READ_FLAGS, type ResolvedPath, type Workspace, WRITE_FLAGS } from './workspace.js';

/** Arguments of the Write tool. */
export interface WriteArgs {
  /** File to create or overwrite. */
  file_path: string;
  /** The complete new content. */
  content: string;
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}

/** Arguments of the Edit tool. */
export interface EditArgs {
  /** File to edit. */
  file_path: string;
  /** Exact text to replace; empty only to create a new (or fill an empty) file. */
  old_string: string;
  /** Replacement text. */
  new_string: string;
  /** Replace every occurrence instead of requiring exactly one. */
  replace_all?: boolean | undefined;
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}

/** Limits of Write and Edit. */
export interface FileChangeLimits {
  /** Largest before- or after-image kept for the diff (default 256 KiB); a larger change shows no diff. */
  maxDiffBytes?: number;
  /** Largest file Edit will load (default 10 MiB). */
  maxEditBytes?: number;
}

/** How a Write or Edit changed the file. */
export type FileChangeKind = 'created' | 'updated' | 'unchanged';

/** What Write or Edit produced. */
export interface FileChangeOutcome {
  /** One-line summary for the model. */
  value: string;
  /** Absolute path changed. */
  path: string;
  /** Path shown to people. */
  displayPath: string;
  /** How the file changed. */
  change: FileChangeKind;
  /** Number of replacements (Edit; 0 for Write). */
  replacements: number;
  /** Text before: `null` when the file was created, or when it was over `maxDiffBytes` or binary. */
  before: string | null;
  /** Text after: `null` when over `maxDiffBytes`. */
  after: string | null;
}

const byteLength = (s: string): number => Buffer.byteLength(s, 'utf8');

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

// Checked under the file lock, not from `resolved.exists`: a concurrent Write may have just created it.
async function existingFile(resolved: ResolvedPath): Promise<{ size: number } | undefined> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(resolved.real);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  if (info.isDirectory())
    throw new ToolError('is_directory', `${resolved.display} is a directory, not a file`);
  if (!info.isFile()) throw new ToolError('not_a_file', `${resolved.display} is not a regular file`);
  return { size: info.size };
}

async function writeResolved(resolved: ResolvedPath, content: string): Promise<void> {
  await mkdir(path.dirname(resolved.real), { recursive: true });
  await writeText(resolved.real, content, { encoding: 'utf8', flag: WRITE_FLAGS });
}

/** Creates or overwrites a file inside the workspace, keeping the before-image (capped) for the diff. */
export async function writeTextFile(
  workspace: Workspace,
  args: WriteArgs,
  limits: FileChangeLimits = {},
): Promise<FileChangeOutcome> {
  const maxDiffBytes = limits.maxDiffBytes ?? 256 * 1024;
  if (typeof args.content !== 'string') throw new ToolError('invalid_input', 'content must be a string');
  const resolved = await workspace.resolve(args.file_path);
  return workspace.withFileLock(resolved.real, () => writeLocked(resolved, args.content, maxDiffBytes));
}

async function writeLocked(
  resolved: ResolvedPath,
  content: string,
  maxDiffBytes: number,
): Promise<FileChangeOutcome> {
  const existing = await existingFile(resolved);
  let before: string | null = null;
  if (existing !== undefined && existing.size <= maxDiffBytes) {
    const raw = await readFile(resolved.real, { flag: READ_FLAGS });
    if (!looksBinary(raw.subarray(0, 8192))) before = raw.toString('utf8');
  }
  await writeResolved(resolved, content);
  const lines = splitLines(content).length;
  const change: FileChangeKind =
    existing === undefined ? 'created' : before === content ? 'unchanged' : 'updated';
  let value: string;
  switch (change) {
    case 'created':
      value = `Created ${resolved.display} (${plural(lines, 'line')})`;
      break;
    case 'unchanged':
      value = `${resolved.display} already had this content (${plural(lines, 'line')}); nothing changed`;
      break;
    case 'updated':
      value = `Overwrote ${resolved.display} (${plural(lines, 'line')})`;
      break;
  }
  return {
    value,
    path: resolved.absolute,
    displayPath: resolved.display,
    before,
    after: byteLength(content) > maxDiffBytes ? null : content,
    change,
    replacements: 0,
  };
}

function countOccurrences(text: string, needle: string): number {
  let count = 0;
  let at = text.indexOf(needle);
  while (at !== -1) {
    count += 1;
    at = text.indexOf(needle, at + needle.length);
  }
  return count;
}

/** Replaces an exact string in a file inside the workspace; a missing or non-unique match is a clear error. */
export async function editTextFile(
  workspace: Workspace,
  args: EditArgs,
  limits: FileChangeLimits = {},
): Promise<FileChangeOutcome> {
  const maxDiffBytes = limits.maxDiffBytes ?? 256 * 1024;
  const maxEditBytes = limits.maxEditBytes ?? 10 * 1024 * 1024;
  if (typeof args.old_string !== 'string' || typeof args.new_string !== 'string') {
    throw new ToolError('invalid_input', 'old_string and new_string must be strings');
  }
  if (args.old_string === args.new_string) {
    throw new ToolError(
      'edit_no_change',
      'old_string and new_string are identical; there is nothing to change',
    );
  }
  const resolved = await workspace.resolve(args.file_path);
  return workspace.withFileLock(resolved.real, () => editLocked(resolved, args, maxDiffBytes, maxEditBytes));
}

async function editLocked(
  resolved: ResolvedPath,
  args: EditArgs,
  maxDiffBytes: number,
  maxEditBytes: number,
): Promise<FileChangeOutcome> {
  const existing = await existingFile(resolved);
  if (existing === undefined) {
    if (args.old_string !== '') throw new ToolError('not_found', `File not found: ${resolved.display}`);
    await writeResolved(resolved, args.new_string);
    return {
      value: `Created ${resolved.display} (${plural(splitLines(args.new_string).length, 'line')})`,
      path: resolved.absolute,
      displayPath: resolved.display,
      before: null,
      after: byteLength(args.new_string) > maxDiffBytes ? null : args.new_string,
      change: 'created',
      replacements: 1,
    };
  }
  if (existing.size > maxEditBytes) {
    throw new ToolError(
      'file_too_large',
      `${resolved.display} is larger than the ${maxEditBytes}-byte Edit limit; use Bash (e.g. sed) for it`,
    );
  }
  const raw = await readFile(resolved.real, { flag: READ_FLAGS });
  if (looksBinary(raw.subarray(0, 8192))) {
    throw new ToolError(
      'binary_file',
      `${resolved.display} looks like a binary file; Edit only changes text`,
    );
  }
  if (!isUtf8(raw)) {
    // Decoding would turn the invalid bytes into U+FFFD and the write would corrupt the whole file.
    throw new ToolError(
      'not_utf8',
      `${resolved.display} is not valid UTF-8 text; Edit would corrupt it, so use Bash (e.g. sed or iconv) for it`,
    );
  }
  const before = raw.toString('utf8');
  let oldString = args.old_string;
  let newString = args.new_string;
  let after: string;
  let replacements: number;
  if (oldString === '') {
    if (before !== '') {
      throw new ToolError(
        'file_exists',
        `old_string is empty but ${resolved.display} already has content; give the exact text to replace, or use Write`,
      );
    }
    after = newString;
    replacements = 1;
  } else {
    let count = countOccurrences(before, oldString);
    if (count === 0 && before.includes('\r\n') && oldString.includes('\n') && !oldString.includes('\r')) {
      // The model usually writes LF; match a CRLF file by converting both strings.
      const crlf = oldString.replace(/\n/g, '\r\n');
      const crlfCount = countOccurrences(before, crlf);
      if (crlfCount > 0) {
        oldString = crlf;
        newString = newString.replace(/\r?\n/g, '\r\n');
        count = crlfCount;
      }
    }
    if (count === 0) {
      throw new ToolError(
        'edit_no_match',
        `old_string was not found in ${resolved.display}; Read the file and copy the exact text, including whitespace`,
      );
    }
    if (count > 1 && args.replace_all !== true) {
      throw new ToolError(
        'edit_ambiguous',
        `old_string occurs ${count} times in ${resolved.display}; add surrounding lines to make it unique, or set replace_all to change every occurrence`,
      );
    }
    // split/join and slice, never String.replace: `$&` and friends in new_string stay literal.
    if (args.replace_all === true) {
      after = before.split(oldString).join(newString);
    } else {
      const at = before.indexOf(oldString);
      after = before.slice(0, at) + newString + before.slice(at + oldString.length);
    }
    replacements = count;
  }
  await writeResolved(resolved, after);
  return {
    value: `Edited ${resolved.display}: ${plural(replacements, 'replacement')}`,
    path: resolved.absolute,
    displayPath: resolved.display,
    before: byteLength(before) > maxDiffBytes ? null : before,
    after: byteLength(after) > maxDiffBytes ? null : after,
    change: 'updated',
    replacements,
  };
}
