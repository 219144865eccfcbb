import { structuredPatch } from 'diff';
import { paint, RESET } from './ansi.js';
import { safeInline, sanitize, toText } from './text.js';

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

/**
 * Renders one file diff: a `path  +N -M` summary line, then coloured hunks; `keepSgr` (default: `color`) keeps the
 * SGR found in the texts themselves.
 */
export function renderDiffLines(input: DiffInput, color: boolean, keepSgr = color): string[] {
  const isNew = input.oldText === null || input.oldText === undefined;
  // A missing final newline is not worth a `\ No newline at end of file` line in a card: compare whole lines.
  const oldText = isNew ? '' : withFinalNewline(sanitize(input.oldText, keepSgr));
  const newText = withFinalNewline(sanitize(input.newText, keepSgr));
  const hunks = computeHunks(oldText, newText);
  const { added, removed } = stats(hunks);
  const path = input.path === undefined || input.path === null ? '' : safeInline(input.path, false);
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

/** One line of a diff for a renderer that does its own escaping (the approval path): raw, unsanitised text. */
export interface DiffLine {
  /** `hunk` header, added, deleted or context line, or a note such as `(no changes)`. */
  readonly kind: 'hunk' | 'add' | 'del' | 'ctx' | 'note';
  /** The line without its `+`/`-`/` ` mark (and without a CR that ends it); untrusted for add/del/ctx. */
  readonly text: string;
}

/**
 * The hunks of `oldText -> newText` as lines (three lines of context, real line numbers in the headers when
 * the texts are whole files), leaving escaping to the caller.
 */
export function diffHunkLines(oldValue: unknown, newValue: unknown): DiffLine[] {
  const isNew = oldValue === null || oldValue === undefined;
  const oldText = isNew ? '' : withFinalNewline(toText(oldValue));
  const newText = withFinalNewline(toText(newValue));
  const hunks = computeHunks(oldText, newText);
  if (hunks.length === 0) return [{ kind: 'note', text: '(no changes)' }];
  const out: DiffLine[] = [];
  for (const hunk of hunks) {
    out.push({
      kind: 'hunk',
      text: `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`,
    });
    for (const raw of hunk.lines) {
      const mark = raw[0];
      const text = raw.slice(1).replace(/\n$/, '').replace(/\r$/, '');
      if (mark === '+') out.push({ kind: 'add', text });
      else if (mark === '-') out.push({ kind: 'del', text });
      else if (mark === '\\') out.push({ kind: 'note', text: raw });
      else out.push({ kind: 'ctx', text });
    }
  }
  return out;
}
