/** One violation found by {@link findUnsafeTerminalBytes}. */
export interface TerminalViolation {
  /** UTF-16 offset of the offending character in the checked text. */
  readonly index: number;
  /** Which rule the character breaks. */
  readonly rule: 'non-sgr-escape' | 'c0-control' | 'c1-control' | 'bidi-control' | 'del';
  /** The offending code point as `U+XXXX`, plus the next few characters for context. */
  readonly excerpt: string;
}

/** Bidi embeddings, overrides, isolates and marks (Trojan Source, CVE-2021-42574). */
const BIDI = new Set([
  0x061c, 0x200e, 0x200f, 0x202a, 0x202b, 0x202c, 0x202d, 0x202e, 0x2066, 0x2067, 0x2068, 0x2069,
]);
const STRICT_SGR_RE = /^\u001b\[[0-9;]*m/;

function describe(text: string, index: number): string {
  const code = text.codePointAt(index) ?? 0;
  const next = JSON.stringify(text.slice(index, index + 8));
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')} ${next}`;
}

/**
 * Strict checker for rendered terminal bytes: every ESC must start `ESC [ <digits and ;> m` (SGR), and no
 * C0 control other than `\n` and `\t`, no DEL, no C1 control and no bidi control may appear.
 * Returns every violation (empty when the text is safe to write to a terminal).
 */
export function findUnsafeTerminalBytes(text: string, limit = 20): TerminalViolation[] {
  const found: TerminalViolation[] = [];
  for (let i = 0; i < text.length && found.length < limit; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x1b) {
      const m = STRICT_SGR_RE.exec(text.slice(i, i + 64));
      if (m) {
        i += m[0].length - 1;
        continue;
      }
      found.push({ index: i, rule: 'non-sgr-escape', excerpt: describe(text, i) });
    } else if (c < 0x20) {
      if (c !== 0x0a && c !== 0x09) found.push({ index: i, rule: 'c0-control', excerpt: describe(text, i) });
    } else if (c === 0x7f) {
      found.push({ index: i, rule: 'del', excerpt: describe(text, i) });
    } else if (c >= 0x80 && c <= 0x9f) {
      found.push({ index: i, rule: 'c1-control', excerpt: describe(text, i) });
    } else if (BIDI.has(c)) {
      found.push({ index: i, rule: 'bidi-control', excerpt: describe(text, i) });
    }
  }
  return found;
}

/** True when `text` passes {@link findUnsafeTerminalBytes} with no violation. */
export function isSafeTerminalOutput(text: string): boolean {
  return findUnsafeTerminalBytes(text, 1).length === 0;
}

/** Everything the strict checker rejects, with well-formed SGR matched first so it can be kept. */
const BACKSTOP_RE =
  /\u001b\[[0-9;]*m|\u001b|[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
/** Rejected characters other than ESC (checked with one scan before the slower replace). */
const UNSAFE_NON_ESC_RE =
  /[\u0000-\u0008\u000b-\u001a\u001c-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
const SGR_AT_RE = /\u001b\[[0-9;]*m/y;

/** True when `text` has a character the strict checker rejects other than ESC (one native scan). */
export function hasUnsafeNonEsc(text: string): boolean {
  return UNSAFE_NON_ESC_RE.test(text);
}

function onlySgrEscapes(text: string): boolean {
  for (let i = text.indexOf('\u001b'); i !== -1; i = text.indexOf('\u001b', i + 1)) {
    SGR_AT_RE.lastIndex = i;
    if (!SGR_AT_RE.test(text)) return false;
  }
  return true;
}

/**
 * Last line of defence applied to every rendered frame: removes anything the strict checker rejects
 * (after `sanitizeTerminalText` has already done the real work, so this normally changes nothing).
 */
export function enforceStrictOutput(text: string): string {
  if (!UNSAFE_NON_ESC_RE.test(text) && onlySgrEscapes(text)) return text;
  return text.replace(BACKSTOP_RE, (m) => (m.length > 1 ? m : ''));
}
