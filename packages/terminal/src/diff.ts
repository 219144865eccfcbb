import { structuredPatch } from 'diff';
import { paint, RESET } from './ansi.js';
import { safeInline, sanitize } from './text.js';

/** One hunk of a line diff, in unified-diff form. */
interface Hunk {
  readonly oldStart: number;
  readonly oldLines: number;
  readonly newStart: number;
  readonly newLines: number;
  readonly lines: readonly string[];
}

/** Line counts of a diff. */
export interface DiffStats {
  /** Lines added. */
  readonly added: number;
  /** Lines removed. */
  readonly removed: number;
}

/**
 * Above this edit distance (changed lines) jsdiff gives up and the diff shows the whole old text removed and
 * the new text added: Myers' cost grows with the square of the distance, this keeps a render under ~0.1 s.
 */
const MAX_EDIT_LENGTH = 500;

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function wholeReplacement(oldText: string, newText: string): Hunk[] {
  const removed = splitLines(oldText).map((l) => `-${l}`);
  const added = splitLines(newText).map((l) => `+${l}`);
  if (removed.length === 0 && added.length === 0) return [];
  return [
    {
      oldStart: removed.length ? 1 : 0,
      oldLines: removed.length,
      newStart: added.length ? 1 : 0,
      newLines: added.length,
      lines: [...removed, ...added],
    },
  ];
}

function computeHunks(oldText: string, newText: string): Hunk[] {
  if (oldText === newText) return [];
  if (oldText === '' || newText === '') return wholeReplacement(oldText, newText);
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, {
    context: 3,
    maxEditLength: MAX_EDIT_LENGTH,
  });
  return patch ? patch.hunks : wholeReplacement(oldText, newText);
}

function stats(hunks: readonly Hunk[]): DiffStats {
  let added = 0;
  let removed = 0;
  for (const hunk of hunks) {
    for (const line of hunk.lines) {
      if (line.startsWith('+')) added++;
      else if (line.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}

function withFinalNewline(text: string): string {
  return text === '' || text.endsWith('\n') ? text : `${text}\n`;
}

function closeLine(line: string): string {
  return line.includes('\u001b') && !line.endsWith(RESET) ? line + RESET : line;
}

/** Input of {@link renderDiffLines}: untrusted texts; `oldText: null` marks a new file. */
export interface DiffInput {
  readonly path?: unknown;
  readonly oldText: unknown;
  readonly newText: unknown;
}

/** Renders one file diff: a `path  +N -M` summary line, then coloured hunks. */
export function renderDiffLines(input: DiffInput, color: boolean): string[] {
  const isNew = input.oldText === null || input.oldText === undefined;
  // A missing final newline is not worth a `\ No newline at end of file` line in a card: compare whole lines.
  const oldText = isNew ? '' : withFinalNewline(sanitize(input.oldText, color));
  const newText = withFinalNewline(sanitize(input.newText, color));
  const hunks = computeHunks(oldText, newText);
  const { added, removed } = stats(hunks);
  const path = input.path === undefined || input.path === null ? '' : safeInline(input.path, color);
  const summary = [
    path === '' ? null : paint(color, path, 'bold'),
    isNew ? paint(color, '(new file)', 'dim') : null,
    paint(color, `+${added}`, 'green'),
    paint(color, `-${removed}`, 'red'),
  ]
    .filter((part): part is string => part !== null)
    .join(' ');
  const out = [summary];
  if (hunks.length === 0) {
    out.push(paint(color, '(no changes)', 'dim'));
    return out;
  }
  for (const hunk of hunks) {
    out.push(
      paint(color, `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`, 'cyan'),
    );
    for (const raw of hunk.lines) {
      const line = raw.replace(/\n/g, '');
      const mark = line[0];
      if (mark === '+') out.push(closeLine(paint(color, line, 'green')));
      else if (mark === '-') out.push(closeLine(paint(color, line, 'red')));
      else if (mark === '\\') out.push(paint(color, line, 'dim'));
      else out.push(closeLine(line));
    }
  }
  return out;
}
