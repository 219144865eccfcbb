import { isUtf8 } from 'node:buffer';
import { createHash } from 'node:crypto';
import { mkdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, ToolError } from './errors.js';
import { looksBinary, splitLines } from './text.js';
import { readVerified, writeVerified } from './open.js';
import type { ResolvedPath, Workspace } from './workspace.js';

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
  /**
   * Write and Edit through a file with more than one hard link (default `false`: refused with `hard-link`,
   * since the change would show under every other name too). A host sets it from the user's approval.
   */
  allowHardLinks?: boolean;
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

/** Digest of the text a change starts from (`absent` for a missing file), to check an approval still holds. */
const digestOf = (before: string | null): string =>
  before === null ? 'absent' : createHash('sha256').update(before, 'utf8').digest('hex');

/** What the user approved, for the Write and Edit tools to hold the change to (the file must still be what was shown). */
export interface ApprovedChange {
  /** {@link FileChangePreview.beforeDigest} of the preview the user saw. */
  readonly beforeDigest: string;
  /** The preview said the file has other hard links, and the user approved writing through them. */
  readonly allowHardLinks?: boolean;
}

/** The limits an approved change runs with: the user's approval of a hard-linked file allows that one write. */
const approvedLimits = (limits: FileChangeLimits, approved: ApprovedChange | undefined): FileChangeLimits =>
  approved?.allowHardLinks === true ? { ...limits, allowHardLinks: true } : limits;

function holdToApproval(resolved: ResolvedPath, digest: string, approved: ApprovedChange | undefined): void {
  if (approved !== undefined && approved.beforeDigest !== digest) {
    throw new ToolError(
      'changed-since-approval',
      `${resolved.display} changed after its change was shown for approval; nothing was written. Read it again and retry`,
    );
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`;

// Checked under the file lock, not from `resolved.exists`: a concurrent Write may have just created it.
interface ExistingFile {
  size: number;
  nlink: number;
  /** Identity and version of a file whose text is not read (binary or large): inode, size and mtime. */
  stamp: string;
}

async function existingFile(resolved: ResolvedPath): Promise<ExistingFile | undefined> {
  let info: Awaited<ReturnType<typeof stat>>;
  try {
    info = await stat(resolved.real);
  } catch (error) {
    if (errnoCode(error) === 'ENOENT') return undefined;
    throw error;
  }
  if (info.isDirectory())
    throw new ToolError('is-directory', `${resolved.display} is a directory, not a file`);
  if (!info.isFile()) throw new ToolError('not-a-file', `${resolved.display} is not a regular file`);
  return { size: info.size, nlink: info.nlink, stamp: `stat:${info.ino}:${info.size}:${info.mtimeMs}` };
}

/** Refuses a file with other hard links early (the write re-checks on the open descriptor). */
function refuseHardLinks(
  resolved: ResolvedPath,
  existing: { nlink: number },
  limits: FileChangeLimits,
): void {
  if (existing.nlink > 1 && limits.allowHardLinks !== true) {
    throw new ToolError(
      'hard-link',
      `${resolved.display} has ${existing.nlink} hard links; writing would change every other name of it too (maybe outside the workspace), so it is refused unless the user allows writes through hard links`,
    );
  }
}

async function writeResolved(
  resolved: ResolvedPath,
  content: string,
  limits: FileChangeLimits,
): Promise<void> {
  await mkdir(path.dirname(resolved.real), { recursive: true });
  await writeVerified(resolved.real, resolved.display, content, { allowHardLinks: limits.allowHardLinks });
}

/**
 * Creates or overwrites a file inside the workspace, keeping the before-image (capped) for the diff. With
 * `approved`, the file must still be what the approved preview showed, else nothing is written.
 */
export async function writeTextFile(
  workspace: Workspace,
  args: WriteArgs,
  limits: FileChangeLimits = {},
  approved?: ApprovedChange,
): Promise<FileChangeOutcome> {
  const maxDiffBytes = limits.maxDiffBytes ?? 256 * 1024;
  if (typeof args.content !== 'string') throw new ToolError('invalid-input', 'content must be a string');
  const resolved = await workspace.resolve(args.file_path);
  return workspace.withFileLock(resolved.real, () =>
    writeLocked(resolved, args.content, maxDiffBytes, approvedLimits(limits, approved), approved),
  );
}

/** What a Write replaces, read-only: whether the file exists and its text when small enough to show. */
async function planWrite(
  resolved: ResolvedPath,
  maxDiffBytes: number,
  limits: FileChangeLimits,
): Promise<{ existing: ExistingFile | undefined; before: string | null; digest: string }> {
  const existing = await existingFile(resolved);
  if (existing !== undefined) refuseHardLinks(resolved, existing, limits);
  let before: string | null = null;
  if (existing !== undefined && existing.size <= maxDiffBytes) {
    const raw = await readVerified(resolved.real, resolved.display);
    if (!looksBinary(raw.subarray(0, 8192))) before = raw.toString('utf8');
  }
  const digest =
    existing === undefined ? digestOf(null) : before === null ? existing.stamp : digestOf(before);
  return { existing, before, digest };
}

async function writeLocked(
  resolved: ResolvedPath,
  content: string,
  maxDiffBytes: number,
  limits: FileChangeLimits,
  approved: ApprovedChange | undefined,
): Promise<FileChangeOutcome> {
  const { existing, before, digest } = await planWrite(resolved, maxDiffBytes, limits);
  holdToApproval(resolved, digest, approved);
  await writeResolved(resolved, content, limits);
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

function checkEditArgs(args: EditArgs): void {
  if (typeof args.old_string !== 'string' || typeof args.new_string !== 'string') {
    throw new ToolError('invalid-input', 'old_string and new_string must be strings');
  }
  if (args.old_string === args.new_string) {
    throw new ToolError(
      'edit-no-change',
      'old_string and new_string are identical; there is nothing to change',
    );
  }
}

/**
 * Replaces an exact string in a file inside the workspace; a missing or non-unique match is a clear error. With
 * `approved`, the file must still be what the approved preview showed, else nothing is written.
 */
export async function editTextFile(
  workspace: Workspace,
  args: EditArgs,
  limits: FileChangeLimits = {},
  approved?: ApprovedChange,
): Promise<FileChangeOutcome> {
  const maxDiffBytes = limits.maxDiffBytes ?? 256 * 1024;
  const maxEditBytes = limits.maxEditBytes ?? 10 * 1024 * 1024;
  checkEditArgs(args);
  const resolved = await workspace.resolve(args.file_path);
  return workspace.withFileLock(resolved.real, () =>
    editLocked(resolved, args, maxDiffBytes, maxEditBytes, approvedLimits(limits, approved), approved),
  );
}

/** The change an Edit makes, computed read-only from the file (the same code runs for the preview). */
interface PlannedEdit {
  /** Text before, `null` when the file does not exist. */
  before: string | null;
  after: string;
  replacements: number;
  /** Link count of the file (1 for a new file). */
  links: number;
}

/** Reads the file and applies the replacement in memory; throws exactly the errors the Edit would fail with. */
async function planEdit(
  resolved: ResolvedPath,
  args: EditArgs,
  maxEditBytes: number,
  limits: FileChangeLimits,
): Promise<PlannedEdit> {
  const existing = await existingFile(resolved);
  if (existing === undefined) {
    if (args.old_string !== '') throw new ToolError('not-found', `File not found: ${resolved.display}`);
    return { before: null, after: args.new_string, replacements: 1, links: 1 };
  }
  refuseHardLinks(resolved, existing, limits);
  if (existing.size > maxEditBytes) {
    throw new ToolError(
      'file-too-large',
      `${resolved.display} is larger than the ${maxEditBytes}-byte Edit limit; use Bash (e.g. sed) for it`,
    );
  }
  const raw = await readVerified(resolved.real, resolved.display);
  if (looksBinary(raw.subarray(0, 8192))) {
    throw new ToolError(
      'binary-file',
      `${resolved.display} looks like a binary file; Edit only changes text`,
    );
  }
  if (!isUtf8(raw)) {
    // Decoding would turn the invalid bytes into U+FFFD and the write would corrupt the whole file.
    throw new ToolError(
      'not-utf8',
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
        'file-exists',
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
        'edit-no-match',
        `old_string was not found in ${resolved.display}; Read the file and copy the exact text, including whitespace`,
      );
    }
    if (count > 1 && args.replace_all !== true) {
      throw new ToolError(
        'edit-ambiguous',
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
  return { before, after, replacements, links: existing.nlink };
}

async function editLocked(
  resolved: ResolvedPath,
  args: EditArgs,
  maxDiffBytes: number,
  maxEditBytes: number,
  limits: FileChangeLimits,
  approved: ApprovedChange | undefined,
): Promise<FileChangeOutcome> {
  const { before, after, replacements } = await planEdit(resolved, args, maxEditBytes, limits);
  holdToApproval(resolved, digestOf(before), approved);
  await writeResolved(resolved, after, limits);
  if (before === null) {
    return {
      value: `Created ${resolved.display} (${plural(splitLines(after).length, 'line')})`,
      path: resolved.absolute,
      displayPath: resolved.display,
      before: null,
      after: byteLength(after) > maxDiffBytes ? null : after,
      change: 'created',
      replacements: 1,
    };
  }
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

/** What a Write or Edit would do to the file, computed read-only (for the approval, before anything runs). */
export interface FileChangePreview {
  /** Absolute path the change applies to. */
  path: string;
  /** Path shown to people. */
  displayPath: string;
  /** How the file would change. */
  change: FileChangeKind;
  /** Replacements an Edit would make (0 for Write). */
  replacements: number;
  /** The whole text before: `null` for a new file, or when it is binary or over `maxDiffBytes` (not shown). */
  before: string | null;
  /** The whole text after: `null` when over `maxDiffBytes` (not shown). */
  after: string | null;
  /** Identifies the file state the preview was computed from; pass it back as {@link ApprovedChange}. */
  beforeDigest: string;
  /**
   * Link count of the file (1 for a new file). Above 1 the change also shows under the other names; the
   * preview only gets this far with `allowHardLinks`, and an approval says so.
   */
  links: number;
}

const shown = (text: string, maxDiffBytes: number): string | null =>
  byteLength(text) > maxDiffBytes ? null : text;

/**
 * The change an Edit would make, read from the file now, with the same matching code the Edit runs (CRLF
 * matching, uniqueness, `replace_all`); throws the same {@link ToolError} the Edit would fail with.
 */
export async function previewEdit(
  workspace: Workspace,
  args: EditArgs,
  limits: FileChangeLimits = {},
): Promise<FileChangePreview> {
  const maxDiffBytes = limits.maxDiffBytes ?? 256 * 1024;
  const maxEditBytes = limits.maxEditBytes ?? 10 * 1024 * 1024;
  checkEditArgs(args);
  const resolved = await workspace.resolve(args.file_path);
  const plan = await planEdit(resolved, args, maxEditBytes, limits);
  return {
    path: resolved.absolute,
    displayPath: resolved.display,
    change: plan.before === null ? 'created' : 'updated',
    replacements: plan.replacements,
    before: plan.before === null ? null : shown(plan.before, maxDiffBytes),
    after: shown(plan.after, maxDiffBytes),
    beforeDigest: digestOf(plan.before),
    links: plan.links,
  };
}

/** The change a Write would make, read from the file now; throws the errors the Write would fail with early. */
export async function previewWrite(
  workspace: Workspace,
  args: WriteArgs,
  limits: FileChangeLimits = {},
): Promise<FileChangePreview> {
  const maxDiffBytes = limits.maxDiffBytes ?? 256 * 1024;
  if (typeof args.content !== 'string') throw new ToolError('invalid-input', 'content must be a string');
  const resolved = await workspace.resolve(args.file_path);
  const { existing, before, digest } = await planWrite(resolved, maxDiffBytes, limits);
  return {
    path: resolved.absolute,
    displayPath: resolved.display,
    change: existing === undefined ? 'created' : before === args.content ? 'unchanged' : 'updated',
    replacements: 0,
    before,
    after: shown(args.content, maxDiffBytes),
    beforeDigest: digest,
    links: existing?.nlink ?? 1,
  };
}
