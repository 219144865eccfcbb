import { structuredPatch } from 'diff';
import type { FileDiff } from './types.js';

/** Options for {@link computeHunkDiffs}. */
export interface HunkDiffOptions {
  /** Context lines kept around each change (default 3). */
  context?: number;
  /**
   * Most inserted plus deleted lines worth diffing (default 1000). Beyond it the change is one
   * whole-file diff: jsdiff's cost grows with the edit length and presenters run synchronously.
   * Deterministic (unlike a timeout), so replay gives the same view.
   */
  maxEditLength?: number;
}

/** Default {@link HunkDiffOptions.maxEditLength}. */
const MAX_EDIT_LENGTH = 1000;
/** The edit length of the first, cheap search (jsdiff's cost grows with the edit length it explores). */
const QUICK_EDIT_LENGTH = 64;

/** FNV-1a hashes of the lines of `text[from, to)`, one per `\n`-separated line, without allocating substrings. */
function lineHashes(text: string, from: number, to: number): Int32Array {
  let count = 1;
  for (let i = text.indexOf('\n', from); i !== -1 && i < to; i = text.indexOf('\n', i + 1)) count++;
  const out = new Int32Array(count);
  let h = 0x811c9dc5 | 0;
  let k = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      out[k++] = h;
      h = 0x811c9dc5 | 0;
    } else h = Math.imul(h ^ c, 16777619);
  }
  out[k] = h;
  return out;
}

/** The largest `k <= max` with `same(k)`, by binary search (`same` is monotone: a common prefix of length k). */
function commonLength(max: number, same: (k: number) => boolean): number {
  let low = 0;
  let high = max;
  while (low < high) {
    const mid = (low + high + 1) >>> 1;
    if (same(mid)) low = mid;
    else high = mid - 1;
  }
  return low;
}

/**
 * Whether the change certainly needs more than `limit` inserted plus deleted lines, decided cheaply so that a huge
 * rewrite never reaches jsdiff (whose bounded search still costs tens of milliseconds there). The common prefix
 * and suffix lines are skipped; when the rest has at most `limit` lines in all, no alignment can exceed it. Otherwise
 * lines of one side with no counterpart in the other side's multiset must be inserted or deleted; lines are compared
 * by hash, and a collision only makes the bound smaller, so it stays a lower bound.
 */
function certainlyOverLimit(before: string, after: string, limit: number): boolean {
  const shorter = Math.min(before.length, after.length);
  let start = commonLength(shorter, (k) => before.slice(0, k) === after.slice(0, k));
  while (start > 0 && before.charCodeAt(start - 1) !== 10) start--;
  let tail = commonLength(
    shorter - start,
    (k) => before.slice(before.length - k) === after.slice(after.length - k),
  );
  while (tail > 0 && before.charCodeAt(before.length - tail) !== 10) tail--;
  const a = lineHashes(before, start, before.length - tail);
  const b = lineHashes(after, start, after.length - tail);
  if (a.length + b.length <= limit) return false;
  a.sort();
  b.sort();
  let i = 0;
  let j = 0;
  let common = 0;
  while (i < a.length && j < b.length) {
    const x = a[i] as number;
    const y = b[j] as number;
    if (x === y) {
      common++;
      i++;
      j++;
    } else if (x < y) i++;
    else j++;
  }
  return a.length + b.length - 2 * common > limit;
}

/** A non-negative whole number option (`Infinity` allowed), or the default for anything else. */
const wholeNumber = (value: number | undefined, fallback: number): number =>
  typeof value === 'number' && value >= 0 ? Math.floor(value) : fallback;

/** The whole change as one hunk (used past `maxEditLength`). */
function wholeFile(path: string, before: string, after: string): PositionedHunk[] {
  const oldLines = before === '' ? 0 : before.split('\n').length - (before.endsWith('\n') ? 1 : 0);
  return [{ oldIndex: 0, oldLines, diff: { path, oldText: before === '' ? null : before, newText: after } }];
}

/** A hunk diff with its position in the old text (0-based line index); internal. */
export interface PositionedHunk {
  /** 0-based index of the hunk's first old line. */
  oldIndex: number;
  /** Number of old lines the hunk covers. */
  oldLines: number;
  /** The hunk as a file diff. */
  diff: FileDiff;
}

const NO_NEWLINE = '\\';

/**
 * Rebuilds old and new text from jsdiff hunk lines. A `\ No newline at end of file` marker
 * applies to the line just before it: that line ends without `\n` on its side(s).
 */
function rebuild(lines: readonly string[]): { oldText: string; newText: string; oldCount: number } {
  let oldText = '';
  let newText = '';
  let oldCount = 0;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const op = line[0];
    if (op === NO_NEWLINE) continue;
    const eol = lines[i + 1]?.[0] === NO_NEWLINE ? '' : '\n';
    const text = line.slice(1) + eol;
    if (op === ' ' || op === '-') {
      oldText += text;
      oldCount++;
    }
    if (op === ' ' || op === '+') newText += text;
  }
  return { oldText, newText, oldCount };
}

/** Positioned hunks of `before -> after`; the public {@link computeHunkDiffs} drops positions. */
export function computePositionedHunks(
  path: string,
  before: string,
  after: string,
  options: HunkDiffOptions = {},
): PositionedHunk[] {
  if (before === after) return [];
  const context = wholeNumber(options.context, 3);
  const maxEditLength = wholeNumber(options.maxEditLength, MAX_EDIT_LENGTH);
  // Most changes are small: a search bounded at a few dozen edits costs what the plain diff costs and finds the same
  // (shortest) script. Only when it gives up is the cheap lower bound worth computing before the full search.
  const quick = Math.min(QUICK_EDIT_LENGTH, maxEditLength);
  let patch = structuredPatch(path, path, before, after, '', '', { context, maxEditLength: quick });
  if (patch === undefined && quick < maxEditLength) {
    if (certainlyOverLimit(before, after, maxEditLength)) return wholeFile(path, before, after);
    patch = structuredPatch(path, path, before, after, '', '', { context, maxEditLength });
  }
  if (patch === undefined) return wholeFile(path, before, after);
  return patch.hunks.map((hunk) => {
    const { oldText, newText, oldCount } = rebuild(hunk.lines);
    // jsdiff numbers lines from 1, also for an empty old range (insert before that line).
    const oldIndex = Math.max(0, hunk.oldStart - 1);
    return {
      oldIndex,
      oldLines: oldCount,
      diff: { path, oldText: oldCount === 0 ? null : oldText, newText },
    };
  });
}

/**
 * Splits `before -> after` into one {@link FileDiff} per jsdiff `structuredPatch` hunk, with
 * `context` lines (default 3) on both sides; `oldText` is `null` for a hunk with no old lines.
 * Identical texts give `[]`. Line endings (CRLF) and a missing final newline are kept exactly.
 * A change longer than `maxEditLength` (default 1000 lines) is one whole-file diff.
 */
export function computeHunkDiffs(
  path: string,
  before: string,
  after: string,
  options: HunkDiffOptions = {},
): FileDiff[] {
  return computePositionedHunks(path, before, after, options).map((h) => h.diff);
}
