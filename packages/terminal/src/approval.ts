import {
  assertNever,
  type FileDiff,
  type RevealOptions,
  revealSegments,
  type ToolCallView,
} from '@codeagent/render-intent';
import { paint, type Style, visibleWidth } from './ansi.js';
import { enforceStrictOutput } from './checker.js';
import { diffHunkLines } from './diff.js';
import { resolveRenderOptions, type TerminalRenderOptions } from './options.js';
import { safeJson, toText } from './text.js';

/** Options of {@link renderApproval}: the usual render options plus the model's reason and a line budget. */
export interface ApprovalRenderOptions extends TerminalRenderOptions {
  /** The model-written reason for the call (`_intent`); untrusted, shown through the same path. */
  readonly intent?: string | null | undefined;
  /** Most lines shown (default 40, at least 3); the rest is counted in the footer. `Infinity` shows everything. */
  readonly maxLines?: number;
  /**
   * When a generic card's raw input is shown: `always` (default: an approval shows what runs, whatever the
   * presenter's content says) or `fallback` (only without content, like the card renderer; for cards that
   * do not ask).
   */
  readonly rawInput?: 'always' | 'fallback';
}

/** What {@link renderApproval} produced: the text and how much of it did not fit. */
export interface ApprovalRendering {
  /** The lines to show, joined with `\n` (no trailing newline). */
  readonly text: string;
  /** Lines of the whole approval (after wrapping), shown or not. */
  readonly totalLines: number;
  /** Lines left out because of `maxLines` (0 when everything is shown); the footer says so. */
  readonly hiddenLines: number;
}

/** A run of text with one style; the text has no newline. */
interface Piece {
  readonly text: string;
  readonly styles: readonly Style[];
  /** Never split across lines unless it is wider than a whole line (markers such as `<ESC>`). */
  readonly atomic: boolean;
}

/** One logical line before wrapping: a prefix for its first row, one for continuation rows, and its pieces. */
interface Row {
  readonly first: string;
  readonly rest: string;
  readonly pieces: readonly Piece[];
}

const INDENT = '  ';

/** Untrusted text as styled pieces, one array per line: every invisible character is shown (no SGR from it). */
function revealed(value: unknown, styles: readonly Style[], options: RevealOptions = {}): Piece[][] {
  const lines: Piece[][] = [[]];
  for (const seg of revealSegments(toText(value), options)) {
    if (seg.kind === 'text') {
      const parts = seg.text.split('\n');
      parts.forEach((part, i) => {
        if (i > 0) lines.push([]);
        if (part !== '') lines[lines.length - 1]?.push({ text: part, styles, atomic: false });
      });
    } else {
      const style: Style = seg.kind === 'control' ? 'yellow' : 'dim';
      lines[lines.length - 1]?.push({ text: seg.text, styles: [style], atomic: true });
    }
  }
  return lines;
}

const own = (text: string, ...styles: Style[]): Piece => ({ text, styles, atomic: false });

const ASCII_RE = /^[\u0020-\u007e]*$/;

const MARK = /^\p{M}/u;

/** Whether the code unit at `i` belongs to the character before it (a chunk must not end just before it). */
function continues(text: string, i: number): boolean {
  const c = text.charCodeAt(i);
  const prev = text.charCodeAt(i - 1);
  return (
    (c >= 0xdc00 && c <= 0xdfff) ||
    c === 0x200d ||
    prev === 0x200d ||
    (c >= 0xfe00 && c <= 0xfe0f) ||
    MARK.test(text.slice(i, i + 2))
  );
}

let segmenter: Intl.Segmenter | undefined;
/** Graphemes of `text`, segmented in chunks (linear on long text) that never split a character or its marks. */
function* graphemes(text: string): Generator<string> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (let start = 0; start < text.length; ) {
    let end = Math.min(text.length, start + 4096);
    while (end < text.length && continues(text, end)) end++;
    for (const { segment } of segmenter.segment(text.slice(start, end))) yield segment;
    start = end;
  }
}

/**
 * Wraps rows to `width` columns (never cuts: every character lands on some line). Stops building strings once
 * `keep` lines exist but still counts the rest.
 */
function wrapRows(
  rows: readonly Row[],
  width: number,
  color: boolean,
  keep: number,
): { lines: string[]; total: number } {
  const lines: string[] = [];
  let total = 0;
  for (const row of rows) {
    let prefix = row.first;
    let line = '';
    let used = visibleWidth(prefix);
    let open: readonly Style[] | null = null;
    let run = '';
    const building = (): boolean => total < keep;
    const closeRun = (): void => {
      if (run !== '' && open !== null) line += paint(color, run, ...open);
      run = '';
    };
    const emit = (): void => {
      closeRun();
      if (building()) lines.push(prefix + line);
      total += 1;
      prefix = row.rest;
      line = '';
      used = visibleWidth(prefix);
    };
    const add = (text: string, styles: readonly Style[], w: number): void => {
      if (open !== styles) {
        closeRun();
        open = styles;
      }
      run += text;
      used += w;
    };
    for (const piece of row.pieces) {
      const w = visibleWidth(piece.text);
      if (
        piece.atomic &&
        used + w > width &&
        used > visibleWidth(prefix) &&
        w <= width - visibleWidth(row.rest)
      ) {
        emit();
      }
      if (piece.atomic && used + w <= width) {
        add(piece.text, piece.styles, w);
        continue;
      }
      if (ASCII_RE.test(piece.text)) {
        // Printable ASCII is one column per character: cut it in slices, not graphemes.
        let at = 0;
        while (at < piece.text.length) {
          if (used >= width && used > visibleWidth(prefix)) emit();
          const room = Math.max(1, width - used);
          const slice = piece.text.slice(at, at + room);
          add(slice, piece.styles, slice.length);
          at += slice.length;
        }
        continue;
      }
      for (const g of graphemes(piece.text)) {
        const gw = visibleWidth(g);
        if (used + gw > width && used > visibleWidth(prefix)) emit();
        add(g, piece.styles, gw);
      }
    }
    emit();
  }
  return { lines, total };
}

function header(glyph: string, title: unknown, tag?: string): Row[] {
  const lines = revealed(title, ['bold'], { newlines: 'mark' });
  return lines.map((pieces, i) => ({
    first: i === 0 ? '' : INDENT,
    rest: INDENT,
    pieces: [
      ...(i === 0 ? [own(`${glyph} `, 'cyan')] : []),
      ...pieces,
      ...(tag !== undefined && i === lines.length - 1 ? [own(` ${tag}`, 'dim')] : []),
    ],
  }));
}

function block(
  value: unknown,
  label: string | null,
  styles: readonly Style[],
  options?: RevealOptions,
): Row[] {
  const rows: Row[] = [];
  revealed(value, styles, options).forEach((pieces, i) => {
    const lead = i === 0 && label !== null ? [own(label, 'dim')] : [];
    rows.push({ first: INDENT, rest: INDENT + INDENT, pieces: [...lead, ...pieces] });
  });
  return rows;
}

function diffRows(diffs: unknown): Row[] {
  if (!Array.isArray(diffs)) return [];
  const rows: Row[] = [];
  for (const d of diffs as readonly FileDiff[]) {
    if (typeof d !== 'object' || d === null) continue;
    const lines = diffHunkLines(d.oldText, d.newText);
    const added = lines.filter((l) => l.kind === 'add').length;
    const removed = lines.filter((l) => l.kind === 'del').length;
    const isNew = d.oldText === null || d.oldText === undefined;
    rows.push({
      first: INDENT,
      rest: INDENT,
      pieces: [
        ...(revealed(d.path, ['bold'])[0] ?? []),
        ...(isNew ? [own(' (new file)', 'dim')] : []),
        own(' '),
        own(`+${added}`, 'green'),
        own(' '),
        own(`-${removed}`, 'red'),
      ],
    });
    for (const line of lines) {
      if (line.kind === 'hunk' || line.kind === 'note') {
        rows.push({
          first: INDENT,
          rest: INDENT,
          pieces: [own(line.text, line.kind === 'hunk' ? 'cyan' : 'dim')],
        });
        continue;
      }
      const style: Style[] = line.kind === 'add' ? ['green'] : line.kind === 'del' ? ['red'] : [];
      const mark = line.kind === 'add' ? '+' : line.kind === 'del' ? '-' : ' ';
      const pieces = revealed(line.text, style, { keepIndent: true })[0] ?? [];
      rows.push({ first: INDENT, rest: `${INDENT}${mark}`, pieces: [own(mark, ...style), ...pieces] });
    }
  }
  return rows;
}

function viewRows(view: ToolCallView, allInput: boolean): { head: Row[]; rows: Row[]; subject: string } {
  switch (view.card) {
    case 'terminal': {
      const head = header('$', view.title);
      const rows: Row[] = [];
      if (view.description !== undefined) rows.push(...block(view.description, 'about: ', ['dim']));
      if (view.cwd !== undefined) rows.push(...block(view.cwd, 'in ', ['dim']));
      return { head, rows, subject: `the command is ${toText(view.title).length} characters` };
    }
    case 'generic': {
      const kind = typeof view.kind === 'string' ? `[${view.kind}]` : undefined;
      const head = header('●', view.title, kind);
      const rows: Row[] = [];
      if (Array.isArray(view.locations)) {
        for (const loc of view.locations) {
          if (typeof loc !== 'object' || loc === null) continue;
          const line = typeof loc.line === 'number' && Number.isFinite(loc.line) ? `:${loc.line}` : '';
          rows.push(...block(`${toText(loc.path)}${line}`, '↳ ', ['dim']));
        }
      }
      const hasContent = Array.isArray(view.content) && view.content.length > 0;
      if (Array.isArray(view.content)) {
        for (const b of view.content) {
          if (typeof b !== 'object' || b === null) continue;
          if (b.type === 'text') rows.push(...block(b.text, null, []));
          else if (b.type === 'image') rows.push(...block(`[image ${toText(b.mime)}]`, null, ['dim']));
        }
      }
      if (view.rawInput !== undefined && (allInput || !hasContent))
        rows.push(...block(safeJson(view.rawInput), 'input: ', ['dim']));
      return { head, rows, subject: 'the input is longer than the screen' };
    }
    case 'diff':
      return {
        head: header('✎', view.title),
        rows: diffRows(view.diffs),
        subject: 'the change is longer than the screen',
      };
    default:
      return assertNever(view, 'approval card');
  }
}

/**
 * Renders a tool call for an approval prompt. Unlike the card renderer, no untrusted string keeps any escape:
 * SGR from the model is shown (`<ESC>[8m`), not applied; controls, bidi and zero-width characters are named
 * (`<U+202E>`); runs of spaces show their length (`␠×300`); the `_intent`, titles, paths and diff text all go
 * through this path; long text is wrapped to the width, never cut. Past `maxLines` the rest is counted in a
 * footer (`hiddenLines`), so a host can offer to show it (see the CLI's `v` key). Colour styles only what this
 * renderer adds.
 */
export function renderApproval(view: ToolCallView, options: ApprovalRenderOptions = {}): ApprovalRendering {
  const resolved = resolveRenderOptions(options);
  const { color, width } = resolved;
  const rawMax = options.maxLines ?? 40;
  const maxLines = Number.isNaN(rawMax) ? 40 : Math.max(3, Math.floor(rawMax));
  const { head, rows, subject } = viewRows(view, options.rawInput !== 'fallback');
  const intent =
    options.intent === undefined || options.intent === null || options.intent === ''
      ? []
      : block(options.intent, 'why: ', ['italic']);
  const first = wrapRows([...head, ...intent, ...rows], width, color, maxLines);
  if (first.total <= maxLines) {
    return { text: enforceStrictOutput(first.lines.join('\n')), totalLines: first.total, hiddenLines: 0 };
  }
  const note = (hidden: number): Row => ({
    first: INDENT,
    rest: INDENT,
    pieces: [own(`… ${hidden} more line${hidden === 1 ? '' : 's'} not shown (${subject})`, 'yellow')],
  });
  // The footer may wrap on a narrow screen: make room for all of it.
  const footerLines = wrapRows([note(first.total)], width, color, Infinity).total;
  const shown = first.lines.slice(0, Math.max(1, maxLines - footerLines));
  const hidden = first.total - shown.length;
  const lines = [...shown, ...wrapRows([note(hidden)], width, color, Infinity).lines];
  return { text: enforceStrictOutput(lines.join('\n')), totalLines: first.total, hiddenLines: hidden };
}
