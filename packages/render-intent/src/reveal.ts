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
 * separators and every space other than U+0020 (the Hangul fillers render as blanks too).
 */
const INVISIBLE_CLASS =
  '[\\p{Cc}\\p{Cf}\\p{Cs}\\p{Zl}\\p{Zp}\\u00a0\\u1680\\u2000-\\u200a\\u202f\\u205f\\u3000\\u115f\\u1160\\u3164\\uffa0\\u{E0000}-\\u{E007F}]';
/** Newlines, space runs (or a space that ends a line) and invisible characters; everything else is copied. */
const SPECIAL_MANY = new RegExp(`(\\n)|( {2,}| (?=\\n|$))|(${INVISIBLE_CLASS})`, 'gu');
const SPECIAL_ALL_SPACES = new RegExp(`(\\n)|( +)|(${INVISIBLE_CLASS})`, 'gu');

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
  const special = new RegExp(minRun <= 1 ? SPECIAL_ALL_SPACES : SPECIAL_MANY);
  let from = 0;
  for (let m = special.exec(input); m !== null; m = special.exec(input)) {
    plain += input.slice(from, m.index);
    from = m.index + m[0].length;
    if (m[1] !== undefined) {
      if (markNewlines) {
        flush();
        out.push({ kind: 'control', text: '↵' });
      }
      plain += '\n';
    } else if (m[2] !== undefined) {
      const run = m[2].length;
      const endsLine = from === input.length || input.charCodeAt(from) === 0x0a;
      const atLineStart = m.index === 0 || input.charCodeAt(m.index - 1) === 0x0a;
      if (keepIndent && atLineStart && !endsLine) plain += m[2];
      else if (run >= minRun) {
        flush();
        out.push({ kind: 'space', text: `␠×${run}` });
      } else if (endsLine) {
        flush();
        out.push({ kind: 'space', text: '␠'.repeat(run) });
      } else plain += m[2];
    } else {
      flush();
      out.push({ kind: 'control', text: marker(m[0].codePointAt(0) ?? 0) });
    }
  }
  plain += input.slice(from);
  flush();
  return out;
}

/** {@link revealSegments} joined into one string (no styling): for titles and plain-text approvals in any UI. */
export function revealText(text: string, options: RevealOptions = {}): string {
  return revealSegments(text, options)
    .map((s) => s.text)
    .join('');
}
