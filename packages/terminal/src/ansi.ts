import stringWidth from 'string-width';

/** The escape character. */
const ESC = '\u001b';
/** Full SGR reset: closes every attribute, used at the end of each rendered line or cell. */
export const RESET = `${ESC}[0m`;

/** A well-formed SGR sequence (the only escape that may reach the terminal). */
const SGR_RE = /\u001b\[[0-9;]*m/g;
/** Any CSI-shaped sequence or lone ESC, for width measurement of text that was not sanitised. */
const ANSI_RE = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b[@-_]?/g;
const ASCII_PRINTABLE_RE = /^[\u0020-\u007e]*$/;

let segmenter: Intl.Segmenter | undefined;

/** Code units per segmentation chunk: `Intl.Segmenter` and `string-width` slow down badly on long strings. */
const CHUNK = 256;

/** End of the next chunk of `text` from `start`, preferring a point just before an ASCII or CJK base character. */
function chunkEnd(text: string, start: number): number {
  const n = text.length;
  if (n - start <= CHUNK) return n;
  const hard = start + CHUNK;
  for (let i = hard; i > start + CHUNK / 2; i--) {
    const c = text.charCodeAt(i);
    const prev = text.charCodeAt(i - 1);
    const base = (c >= 0x20 && c < 0x7f) || (c >= 0x3040 && c <= 0x30ff) || (c >= 0x4e00 && c <= 0x9fff);
    if (base && prev !== 0x200d) return i;
  }
  // No obvious boundary: cut anyway, but never inside a surrogate pair.
  const c = text.charCodeAt(hard);
  return c >= 0xdc00 && c <= 0xdfff ? hard + 1 : hard;
}

/** Graphemes of `text`, segmented chunk by chunk so long strings stay linear. */
function* graphemes(text: string): Generator<string> {
  segmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  for (let start = 0; start < text.length; ) {
    const end = chunkEnd(text, start);
    for (const { segment } of segmenter.segment(text.slice(start, end))) yield segment;
    start = end;
  }
}

/**
 * Number of terminal columns `text` occupies: escape sequences count zero, wide CJK and emoji count two.
 */
export function visibleWidth(text: string): number {
  const plain = text.includes(ESC) ? text.replace(ANSI_RE, '') : text;
  if (ASCII_PRINTABLE_RE.test(plain)) return plain.length;
  if (plain.length <= CHUNK) return stringWidth(plain);
  let width = 0;
  for (let start = 0; start < plain.length; ) {
    const end = chunkEnd(plain, start);
    width += stringWidth(plain.slice(start, end));
    start = end;
  }
  return width;
}

/** Removes every SGR sequence from already sanitised text. */
export function stripSgr(text: string): string {
  return text.includes(ESC) ? text.replace(SGR_RE, '') : text;
}

/** Options of {@link truncateToWidth}. */
export interface TruncateOptions {
  /** Marker appended when text is cut (default `…`); dropped when wider than the target width. */
  readonly ellipsis?: string;
}

/**
 * Cuts `text` to at most `width` columns without splitting a grapheme or an SGR sequence, appending an
 * ellipsis when something was cut and an SGR reset when the kept part carries colour.
 */
export function truncateToWidth(text: string, width: number, options: TruncateOptions = {}): string {
  const max = Number.isFinite(width) ? Math.max(0, Math.floor(width)) : 0;
  if (text.length <= max && ASCII_PRINTABLE_RE.test(text)) return text;
  let ellipsis = options.ellipsis ?? '…';
  let ellipsisWidth = visibleWidth(ellipsis);
  if (ellipsisWidth > max) {
    ellipsis = '';
    ellipsisWidth = 0;
  }
  const budget = max - ellipsisWidth;
  // One pass with an early exit: `kept` is the prefix that fits the budget, `used` the width seen so far.
  let kept = '';
  let keptColoured = false;
  let keptFull = false;
  let used = 0;
  let index = 0;
  const sgr = new RegExp(SGR_RE.source, 'g');
  for (;;) {
    sgr.lastIndex = index;
    const match = sgr.exec(text);
    const end = match ? match.index : text.length;
    for (const segment of graphemes(text.slice(index, end))) {
      used += visibleWidth(segment);
      if (used > max) return kept + ellipsis + (keptColoured ? RESET : '');
      if (used <= budget && !keptFull) kept += segment;
      else keptFull = true;
    }
    if (!match) return text;
    if (!keptFull) {
      kept += match[0];
      keptColoured = true;
    }
    index = match.index + match[0].length;
  }
}

/** Pads `text` with spaces on the right up to `width` visible columns. */
export function padEndToWidth(text: string, width: number): string {
  const gap = width - visibleWidth(text);
  return gap > 0 ? text + ' '.repeat(gap) : text;
}

/** Pads `text` with spaces on the left up to `width` visible columns. */
export function padStartToWidth(text: string, width: number): string {
  const gap = width - visibleWidth(text);
  return gap > 0 ? ' '.repeat(gap) + text : text;
}

/** Named text styles the renderers use. */
export type Style =
  | 'bold'
  | 'dim'
  | 'italic'
  | 'red'
  | 'green'
  | 'yellow'
  | 'blue'
  | 'magenta'
  | 'cyan'
  | 'gray'
  | 'pillOk'
  | 'pillFail'
  | 'pillWarn';

const STYLE_CODES: Record<Style, string> = {
  bold: '1',
  dim: '2',
  italic: '3',
  red: '31',
  green: '32',
  yellow: '33',
  blue: '34',
  magenta: '35',
  cyan: '36',
  gray: '90',
  pillOk: '30;42',
  pillFail: '97;41',
  pillWarn: '30;43',
};

/** Applies `styles` to each line of `text` when `color` is on; every painted line ends with a reset. */
export function paint(color: boolean, text: string, ...styles: Style[]): string {
  if (!color || styles.length === 0 || text === '') return text;
  const open = `${ESC}[${styles.map((s) => STYLE_CODES[s]).join(';')}m`;
  if (!text.includes('\n')) return open + text + RESET;
  return text
    .split('\n')
    .map((line) => (line === '' ? line : open + line + RESET))
    .join('\n');
}

const MAX_CARRIED = 16;
const SGR_PARAMS_RE = /^[0-9;]*$/;

/** Updates the carried SGR state with the SGR sequences of one line. */
function carrySgr(active: string[], line: string): string[] {
  let state = active;
  let esc = line.indexOf(ESC);
  while (esc !== -1) {
    const end = line.indexOf('m', esc);
    if (end === -1) break;
    const params = line.slice(esc + 2, end);
    if (line.charCodeAt(esc + 1) !== 0x5b || !SGR_PARAMS_RE.test(params)) {
      // Not an SGR (text that was not sanitised): carry nothing from it.
      esc = line.indexOf(ESC, esc + 1);
      continue;
    }
    if (/^0*(?:;|$)/.test(params)) {
      const rest = params.replace(/^0*;?/, '');
      state = rest === '' ? [] : [`${ESC}[${rest}m`];
    } else {
      state = state === active ? [...state] : state;
      state.push(line.slice(esc, end + 1));
      if (state.length > MAX_CARRIED) state = state.slice(-MAX_CARRIED);
    }
    esc = line.indexOf(ESC, end + 1);
  }
  return state;
}

/**
 * Makes each line of sanitised text self-contained: SGR state active at the end of a line is reset there
 * and re-applied at the start of the next one, so colours never bleed into a prefix, border or frame.
 * Lines without colour are copied through untouched (one pass, few allocations on large outputs).
 */
export function isolateText(text: string): string {
  let esc = text.indexOf(ESC);
  if (esc === -1) return text;
  const chunks: string[] = [];
  const n = text.length;
  let copyFrom = 0;
  let active: string[] = [];
  let lineStart = 0;
  for (;;) {
    if (active.length === 0) {
      if (esc === -1) break;
      // Skip straight to the next line that carries an escape.
      lineStart = Math.max(lineStart, text.lastIndexOf('\n', esc) + 1);
    }
    let lineEnd = text.indexOf('\n', lineStart);
    if (lineEnd === -1) lineEnd = n;
    if (esc !== -1 && esc < lineStart) esc = text.indexOf(ESC, lineStart);
    if ((esc !== -1 && esc < lineEnd) || active.length > 0) {
      const line = text.slice(lineStart, lineEnd);
      const prefixSgr = active.join('');
      active = carrySgr(active, line);
      const full = prefixSgr + line;
      const isolated = full.endsWith(RESET) || !full.includes(ESC) ? full : full + RESET;
      // A line that already ends its own colours stays in the stretch being copied (most coloured lines do).
      if (isolated !== line) {
        chunks.push(text.slice(copyFrom, lineStart), isolated);
        copyFrom = lineEnd;
      }
    }
    if (lineEnd >= n) break;
    lineStart = lineEnd + 1;
    if (esc !== -1 && esc < lineStart) esc = text.indexOf(ESC, lineStart);
  }
  if (copyFrom === 0) return text;
  chunks.push(text.slice(copyFrom));
  return chunks.join('');
}

/** Prefixes every line of a multi-line block (`skipEmpty`: leave empty lines empty, no trailing spaces). */
export function prefixBlock(text: string, prefix: string, skipEmpty = true): string {
  if (!skipEmpty) return prefix + text.replaceAll('\n', `\n${prefix}`);
  const head = text === '' || text.startsWith('\n') ? '' : prefix;
  return head + text.replace(/\n(?=[^\n])/g, `\n${prefix}`);
}
