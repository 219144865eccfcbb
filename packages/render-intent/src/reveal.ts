/** What a piece of revealed text is: the text itself, a made-visible invisible character, or a space run. */
export type RevealKind = 'text' | 'control' | 'space';

/** One piece of {@link revealSegments} output; `control` and `space` pieces are markers a UI may style. */
export interface RevealSegment {
  /** What this piece is. */
  kind: RevealKind;
  /** The text to show (a marker such as `<ESC>` or `␠×300` for `control` and `space`). */
  text: string;
}

/** Options of {@link revealSegments}. */
export interface RevealOptions {
  /** `keep` (default): a newline stays a line break; `mark`: it is shown as `↵` and then breaks the line. */
  newlines?: 'keep' | 'mark';
  /** Shortest run of spaces shown as `␠×N` (default 3; smaller runs stay spaces unless they end a line). */
  minSpaceRun?: number;
  /** Leave the spaces that start a line alone (indentation in a diff); default `false`. */
  keepIndent?: boolean;
}

const NAMES: Readonly<Record<number, string>> = {
  0: 'NUL',
  7: 'BEL',
  8: 'BS',
  9: 'TAB',
  11: 'VT',
  12: 'FF',
  13: 'CR',
  27: 'ESC',
  127: 'DEL',
};

/**
 * Characters that must never reach an approval as themselves: C0/C1 controls, format characters (bidi
 * embeddings, overrides and isolates, zero-width characters, BOM, tags), lone surrogates, line/paragraph
 * separators and every space other than U+0020.
 */
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\p{Zs}\u115f\u1160\u3164\uffa0]/u;

const hex = (cp: number): string => cp.toString(16).toUpperCase().padStart(4, '0');

/** The marker for one invisible code point: `<ESC>`, `<CR>`, `<U+202E>`. */
function marker(cp: number): string {
  return `<${NAMES[cp] ?? `U+${hex(cp)}`}>`;
}

/**
 * Splits untrusted text into pieces that show every character that could hide or reorder what is displayed:
 * escape sequences come out as `<ESC>[8m` (so an SGR conceal is visible, not applied), bidi controls as
 * `<U+202E>`, tabs as `<TAB>`, non-ASCII spaces as `<U+00A0>`, runs of spaces as `␠×300`, and spaces that end a
 * line as `␠`. Pure and linear; the joined `text` of the pieces contains no control, format or exotic space
 * character except `\n` (see {@link revealText}).
 */
export function revealSegments(text: string, options: RevealOptions = {}): RevealSegment[] {
  const input = typeof text === 'string' ? text : String(text);
  const markNewlines = options.newlines === 'mark';
  const minRun = Math.max(1, Math.floor(options.minSpaceRun ?? 3));
  const keepIndent = options.keepIndent === true;
  const out: RevealSegment[] = [];
  let plain = '';
  const flush = (): void => {
    if (plain !== '') out.push({ kind: 'text', text: plain });
    plain = '';
  };
  let atLineStart = true;
  const n = input.length;
  let i = 0;
  while (i < n) {
    const code = input.charCodeAt(i);
    if (code === 0x20) {
      let j = i;
      while (j < n && input.charCodeAt(j) === 0x20) j++;
      const run = j - i;
      const endsLine = j === n || input.charCodeAt(j) === 0x0a;
      if (keepIndent && atLineStart && !endsLine) plain += ' '.repeat(run);
      else if (run >= minRun) {
        flush();
        out.push({ kind: 'space', text: `␠×${run}` });
      } else if (endsLine) {
        flush();
        out.push({ kind: 'space', text: '␠'.repeat(run) });
      } else plain += ' '.repeat(run);
      atLineStart = false;
      i = j;
      continue;
    }
    if (code === 0x0a) {
      if (markNewlines) {
        flush();
        out.push({ kind: 'control', text: '↵' });
      }
      plain += '\n';
      atLineStart = true;
      i++;
      continue;
    }
    const cp = input.codePointAt(i) ?? code;
    const width = cp > 0xffff ? 2 : 1;
    const ch = input.slice(i, i + width);
    if (INVISIBLE.test(ch) || (cp >= 0xe0000 && cp <= 0xe007f)) {
      flush();
      out.push({ kind: 'control', text: marker(cp) });
    } else plain += ch;
    atLineStart = false;
    i += width;
  }
  flush();
  return out;
}

/** {@link revealSegments} joined into one string (no styling): for titles and plain-text approvals in any UI. */
export function revealText(text: string, options: RevealOptions = {}): string {
  return revealSegments(text, options)
    .map((s) => s.text)
    .join('');
}
