import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { toText } from './text.js';

/** A run of terminal text with the CSS classes of its SGR style (`''` when unstyled). */
export interface SgrSpan {
  /** The text, free of escapes and controls (but `\n` and `\t`). */
  text: string;
  /** Space-separated `ca-sgr-*` classes. */
  className: string;
}

interface Style {
  fg: number | null;
  bg: number | null;
  bold: boolean;
  dim: boolean;
  italic: boolean;
  underline: boolean;
  inverse: boolean;
  strike: boolean;
}

const plain = (): Style => ({
  fg: null,
  bg: null,
  bold: false,
  dim: false,
  italic: false,
  underline: false,
  inverse: false,
  strike: false,
});

// The 16 ANSI colours as RGB, to map 256-colour and true-colour codes onto the themed palette.
const PALETTE: ReadonlyArray<readonly [number, number, number]> = [
  [0, 0, 0],
  [205, 49, 49],
  [13, 188, 121],
  [229, 229, 16],
  [36, 114, 200],
  [188, 63, 188],
  [17, 168, 205],
  [229, 229, 229],
  [102, 102, 102],
  [241, 76, 76],
  [35, 209, 139],
  [245, 245, 67],
  [59, 142, 234],
  [214, 112, 214],
  [41, 184, 219],
  [255, 255, 255],
];

function nearest(r: number, g: number, b: number): number {
  let best = 0;
  let bestDistance = Number.POSITIVE_INFINITY;
  PALETTE.forEach(([pr, pg, pb], i) => {
    const d = (r - pr) ** 2 + (g - pg) ** 2 + (b - pb) ** 2;
    if (d < bestDistance) {
      bestDistance = d;
      best = i;
    }
  });
  return best;
}

const CUBE = [0, 95, 135, 175, 215, 255];

/** A 256-colour index mapped onto the 16 themed colours. */
function from256(n: number): number | null {
  if (!Number.isInteger(n) || n < 0 || n > 255) return null;
  if (n < 16) return n;
  if (n >= 232) {
    const v = 8 + (n - 232) * 10;
    return nearest(v, v, v);
  }
  const i = n - 16;
  return nearest(
    CUBE[Math.floor(i / 36)] as number,
    CUBE[Math.floor(i / 6) % 6] as number,
    CUBE[i % 6] as number,
  );
}

const byte = (x: number | undefined): number | null =>
  x !== undefined && Number.isInteger(x) && x >= 0 && x <= 255 ? x : null;

/**
 * Reads an extended colour (`38;5;n`, `38;2;r;g;b` or the colon forms) at `params[i]`; returns the colour (or
 * `null` when malformed) and how many parameters it used.
 */
function extended(params: readonly (readonly number[])[], i: number): { color: number | null; used: number } {
  const head = params[i] as readonly number[];
  if (head.length > 1) {
    // Colon form: 38:5:n or 38:2:[colourspace:]r:g:b within one parameter.
    const mode = head[1];
    if (mode === 5) return { color: from256(head[2] ?? -1), used: 1 };
    if (mode === 2) {
      const rgb = head.length >= 6 ? head.slice(3, 6) : head.slice(2, 5);
      const [r, g, b] = rgb.map((x) => byte(x));
      return { color: r != null && g != null && b != null ? nearest(r, g, b) : null, used: 1 };
    }
    return { color: null, used: 1 };
  }
  const mode = params[i + 1]?.[0];
  if (mode === 5) return { color: from256(params[i + 2]?.[0] ?? -1), used: 3 };
  if (mode === 2) {
    const r = byte(params[i + 2]?.[0]);
    const g = byte(params[i + 3]?.[0]);
    const b = byte(params[i + 4]?.[0]);
    return { color: r != null && g != null && b != null ? nearest(r, g, b) : null, used: 5 };
  }
  return { color: null, used: mode === undefined ? 1 : 2 };
}

function apply(style: Style, body: string): void {
  const params = (body === '' ? ['0'] : body.split(';')).map((p) =>
    p.split(':').map((n) => (n === '' ? 0 : Number.parseInt(n, 10))),
  );
  for (let i = 0; i < params.length; i++) {
    const code = params[i]?.[0] ?? 0;
    if (code === 0) Object.assign(style, plain());
    else if (code === 1) style.bold = true;
    else if (code === 2) style.dim = true;
    else if (code === 3) style.italic = true;
    else if (code === 4) style.underline = true;
    else if (code === 7) style.inverse = true;
    else if (code === 9) style.strike = true;
    else if (code === 22) {
      style.bold = false;
      style.dim = false;
    } else if (code === 23) style.italic = false;
    else if (code === 24) style.underline = false;
    else if (code === 27) style.inverse = false;
    else if (code === 29) style.strike = false;
    else if (code >= 30 && code <= 37) style.fg = code - 30;
    else if (code >= 90 && code <= 97) style.fg = code - 90 + 8;
    else if (code === 39) style.fg = null;
    else if (code >= 40 && code <= 47) style.bg = code - 40;
    else if (code >= 100 && code <= 107) style.bg = code - 100 + 8;
    else if (code === 49) style.bg = null;
    else if (code === 38 || code === 48) {
      const { color, used } = extended(params, i);
      if (color !== null) {
        if (code === 38) style.fg = color;
        else style.bg = color;
      }
      i += used - 1;
    }
    // Anything else (blink, fonts, overline...) is ignored: display only.
  }
}

function classes(style: Style): string {
  const out: string[] = [];
  const fg = style.inverse ? style.bg : style.fg;
  const bg = style.inverse ? style.fg : style.bg;
  if (style.inverse) out.push('ca-sgr-inverse');
  if (fg !== null) out.push(`ca-sgr-fg-${fg}`);
  if (bg !== null) out.push(`ca-sgr-bg-${bg}`);
  if (style.bold) out.push('ca-sgr-bold');
  if (style.dim) out.push('ca-sgr-dim');
  if (style.italic) out.push('ca-sgr-italic');
  if (style.underline) out.push('ca-sgr-underline');
  if (style.strike) out.push('ca-sgr-strike');
  return out.join(' ');
}

// After sanitising, ESC only starts an SGR sequence; the parameter bytes are digits, `;` and `:`.
const SGR = /\u001b\[([0-9;:]*)m/g;

/**
 * Splits untrusted terminal output into styled spans: SGR colours and styles are kept as `ca-sgr-*` classes
 * (256-colour and true-colour codes map onto the 16 themed colours), every other escape and control is removed
 * first by `sanitizeTerminalText`. The spans' text joined equals the output with all escapes removed.
 */
export function parseSgr(output: unknown): SgrSpan[] {
  const text = sanitizeTerminalText(toText(output));
  const spans: SgrSpan[] = [];
  const style = plain();
  const push = (chunk: string): void => {
    // Defensive: no escape or control survives even if sanitising missed a form.
    const clean = chunk.replace(/[\u001b\u009b]/g, '');
    if (clean === '') return;
    const className = classes(style);
    const last = spans[spans.length - 1];
    if (last !== undefined && last.className === className) last.text += clean;
    else spans.push({ text: clean, className });
  };
  let start = 0;
  for (const match of text.matchAll(SGR)) {
    push(text.slice(start, match.index));
    apply(style, match[1] ?? '');
    start = match.index + match[0].length;
  }
  push(text.slice(start));
  return spans;
}
