import { structuredPatch } from 'diff';
import type { FileDiff } from './types.js';

/** Options for {@link computeHunkDiffs}. */
export interface HunkDiffOptions {
  /** Context lines kept around each change (default 3). */
  context?: number;
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
  const context = Math.max(0, Math.floor(options.context ?? 3));
  const patch = structuredPatch(path, path, before, after, '', '', { context });
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
 */
export function computeHunkDiffs(
  path: string,
  before: string,
  after: string,
  options: HunkDiffOptions = {},
): FileDiff[] {
  return computePositionedHunks(path, before, after, options).map((h) => h.diff);
}
