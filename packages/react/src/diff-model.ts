import { structuredPatch } from 'diff';

/** One line of a rendered diff, with its real line numbers on each side (`null` where it has none). */
export interface DiffLine {
  /** Added, deleted or context. */
  type: 'add' | 'del' | 'ctx';
  /** The line text without its end of line. */
  text: string;
  /** Line number in the old text (1-based), or `null` for an added line or an unknown position. */
  oldNo: number | null;
  /** Line number in the new text (1-based), or `null` for a deleted line or an unknown position. */
  newNo: number | null;
}

/** A hunk: its `@@` header and lines. */
export interface DiffHunk {
  /** The unified-diff hunk header (`@@ -a,b +c,d @@`), or `''` when positions are unknown. */
  header: string;
  /** The lines. */
  lines: DiffLine[];
}

/** Above this edit length jsdiff gives up and the diff shows the whole old text removed, the new added. */
const MAX_EDIT_LENGTH = 2000;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

const withEol = (text: string): string => (text === '' || text.endsWith('\n') ? text : `${text}\n`);

/** Options of {@link diffHunks}. */
export interface DiffHunkOptions {
  /** Context lines around changes (default 3; `Infinity` keeps every line). */
  context?: number;
  /** 1-based line number of the first old line, or `null` when unknown (default 1). */
  oldStart?: number | null;
  /** 1-based line number of the first new line, or `null` when unknown (default 1). */
  newStart?: number | null;
}

/**
 * Line hunks of `oldText -> newText` with real line numbers. Never throws; a change too long to diff becomes
 * one hunk that removes the old text and adds the new one.
 */
export function diffHunks(oldText: string, newText: string, options: DiffHunkOptions = {}): DiffHunk[] {
  const context = options.context ?? 3;
  const oldBase = options.oldStart === undefined ? 1 : options.oldStart;
  const newBase = options.newStart === undefined ? 1 : options.newStart;
  const a = withEol(oldText);
  const b = withEol(newText);
  if (a === b) return [];
  let patch: ReturnType<typeof structuredPatch> | undefined;
  try {
    patch = structuredPatch('a', 'b', a, b, undefined, undefined, {
      context: Number.isFinite(context) ? context : 1_000_000_000,
      maxEditLength: MAX_EDIT_LENGTH,
    });
  } catch {
    patch = undefined;
  }
  const hunks = patch?.hunks ?? [
    {
      oldStart: 1,
      newStart: 1,
      oldLines: splitLines(a).length,
      newLines: splitLines(b).length,
      lines: [...splitLines(a).map((l) => `-${l}`), ...splitLines(b).map((l) => `+${l}`)],
    },
  ];
  return hunks.map((hunk) => {
    // structuredPatch numbers from 1, also an empty range (the line it is inserted before).
    let oldNo = oldBase === null ? null : oldBase - 1 + hunk.oldStart;
    let newNo = newBase === null ? null : newBase - 1 + hunk.newStart;
    const header =
      oldNo === null || newNo === null ? '' : `@@ -${oldNo},${hunk.oldLines} +${newNo},${hunk.newLines} @@`;
    const lines: DiffLine[] = [];
    for (const raw of hunk.lines) {
      const mark = raw[0];
      const text = raw.slice(1);
      if (mark === '+') {
        lines.push({ type: 'add', text, oldNo: null, newNo });
        if (newNo !== null) newNo++;
      } else if (mark === '-') {
        lines.push({ type: 'del', text, oldNo, newNo: null });
        if (oldNo !== null) oldNo++;
      } else if (mark === ' ') {
        lines.push({ type: 'ctx', text, oldNo, newNo });
        if (oldNo !== null) oldNo++;
        if (newNo !== null) newNo++;
      }
      // `\ No newline at end of file` markers cannot occur: both sides end with a newline.
    }
    return { header, lines };
  });
}

/**
 * The 1-based line at which `part` starts in `whole`, searching line starts from character `from`; returns
 * the line and the character index just past the match, or `undefined` when `part` is not there.
 */
export function locateLines(
  whole: string,
  part: string,
  from = 0,
): { line: number; end: number } | undefined {
  if (part === '') return undefined;
  let at = whole.indexOf(part, from);
  while (at !== -1) {
    if (at === 0 || whole[at - 1] === '\n') {
      let line = 1;
      for (let i = whole.indexOf('\n'); i !== -1 && i < at; i = whole.indexOf('\n', i + 1)) line++;
      return { line, end: at + part.length };
    }
    at = whole.indexOf(part, at + 1);
  }
  return undefined;
}
