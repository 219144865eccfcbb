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

/**
 * A cheap lower bound of inserted plus deleted lines: lines of one side with no counterpart in
 * the other side's multiset of lines must be deleted or inserted whatever the alignment.
 */
function editLowerBound(before: string, after: string): number {
  const counts = new Map<string, number>();
  for (const line of before.split('\n')) counts.set(line, (counts.get(line) ?? 0) + 1);
  let inserted = 0;
  for (const line of after.split('\n')) {
    const n = counts.get(line) ?? 0;
    if (n === 0) inserted++;
    else counts.set(line, n - 1);
  }
  let deleted = 0;
  for (const n of counts.values()) deleted += n;
  return inserted + deleted;
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
  if (editLowerBound(before, after) > maxEditLength) return wholeFile(path, before, after);
  const patch = structuredPatch(path, path, before, after, '', '', { context, maxEditLength });
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
