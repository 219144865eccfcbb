/**
 * The trust boundary for renderers: HTML escaping, an unforgeable trusted-HTML brand, and terminal text
 * sanitising. Platform-neutral, no dependencies.
 *
 * @packageDocumentation
 */

import { toText } from './internal/object.js';

const HTML_ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
const HTML_SPECIAL = /[&<>"']/g;
const HTML_SPECIAL_TEST = /[&<>"']/;

/**
 * Escapes `& < > " '` so that `text` is inert in HTML element content and quoted attribute values.
 * Call it exactly once, at render time, on raw stored text. Non-strings are converted with `String()`
 * (`null`/`undefined` and unconvertible values give `''`).
 */
export function escapeHtml(text: string): string {
  const s = toText(text);
  return HTML_SPECIAL_TEST.test(s) ? s.replace(HTML_SPECIAL, (c) => HTML_ESCAPES[c] ?? c) : s;
}

/** HTML that the host explicitly vouches for; the only value a renderer may insert as HTML. */
export interface TrustedHtml {
  /** The raw HTML. */
  readonly html: string;
}

class TrustedHtmlValue implements TrustedHtml {
  // The private field is the brand: it cannot be forged by JSON, structured clones or object spreads.
  readonly #html: string;
  constructor(html: string) {
    this.#html = html;
    Object.freeze(this);
  }
  get html(): string {
    return this.#html;
  }
  static is(x: unknown): x is TrustedHtmlValue {
    return typeof x === 'object' && x !== null && #html in x;
  }
  toString(): string {
    return this.#html;
  }
}

/**
 * Brands `html` as trusted. Only the host's own code should call this, never on artifact, display or
 * restored-session data. Throws a `TypeError` for a non-string.
 */
export function trustedHtml(html: string): TrustedHtml {
  if (typeof html !== 'string') throw new TypeError('trustedHtml expects a string');
  return new TrustedHtmlValue(html);
}

/** True only for values created by {@link trustedHtml} in this module instance (a JSON look-alike is not trusted). */
export function isTrustedHtml(x: unknown): x is TrustedHtml {
  return TrustedHtmlValue.is(x);
}

const ESC = 0x1b;
const BEL = 0x07;
const C1_ST = 0x9c;

// Characters that may need work: C0 (minus \t \n), DEL, C1, bidi embeddings/overrides/isolates.
const NEEDS_SANITISING = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;

/** Index just past a string command (OSC/DCS/SOS/PM/APC body) starting at `i`; BEL ends OSC only. */
function skipString(s: string, i: number, bellEnds: boolean): number {
  for (let j = i; j < s.length; j++) {
    const c = s.charCodeAt(j);
    if (c === C1_ST || (bellEnds && c === BEL)) return j + 1;
    if (c === ESC) return s.charCodeAt(j + 1) === 0x5c ? j + 2 : j;
  }
  return s.length;
}

/**
 * Parses a CSI body starting at `i` (after `ESC [` or 0x9B). Returns the end index and whether it is a plain
 * SGR sequence (parameters of digits, `;` and `:` only, no intermediates, final `m`).
 */
function scanCsi(s: string, i: number): { end: number; sgr: boolean } {
  let j = i;
  let paramsOnlyDigits = true;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c >= 0x30 && c <= 0x3f) {
      if (!((c >= 0x30 && c <= 0x39) || c === 0x3b || c === 0x3a)) paramsOnlyDigits = false;
      j++;
    } else break;
  }
  let intermediates = false;
  while (j < s.length) {
    const c = s.charCodeAt(j);
    if (c >= 0x20 && c <= 0x2f) {
      intermediates = true;
      j++;
    } else break;
  }
  const final = s.charCodeAt(j);
  if (final >= 0x40 && final <= 0x7e) {
    return { end: j + 1, sgr: final === 0x6d && paramsOnlyDigits && !intermediates };
  }
  // Malformed or truncated: drop what was consumed; the offending character is processed on its own.
  return { end: j, sgr: false };
}

/** Options of {@link sanitizeTerminalText}. */
export interface SanitizeTerminalOptions {
  /** Keep SGR colour/style sequences (default `true`); `false` returns plain text. */
  keepSgr?: boolean | undefined;
}

/**
 * Makes untrusted text safe to write to a terminal: keeps SGR colour/style sequences (`ESC [ … m`), `\n` and
 * `\t`; strips every other CSI, all OSC (titles, OSC 8 links, OSC 52 clipboard), DCS/SOS/PM/APC strings,
 * other escape sequences, C0 controls (including `\r`), DEL, C1 controls (raw U+0080–U+009F and their
 * `ESC @`–`ESC _` forms), and the bidi embedding/override/isolate characters U+202A–U+202E and U+2066–U+2069.
 * LRM/RLM/ALM are kept: they cannot reorder strong characters and real right-to-left text needs them.
 * With `{ keepSgr: false }` SGR is stripped too (plain text: for approval prompts, where colours could hide
 * text, and for measuring widths). Idempotent; non-strings are converted with `String()`.
 */
export function sanitizeTerminalText(text: string, options?: SanitizeTerminalOptions): string {
  const s = toText(text);
  if (!NEEDS_SANITISING.test(s)) return s;
  const keepSgr = options?.keepSgr !== false;
  const keep = keepSgr
    ? (sgr: string) => {
        out += sgr;
      }
    : () => undefined;
  let out = '';
  let start = 0; // start of the pending run of kept text (safe characters and kept SGR)
  // The regex engine's native scan jumps over runs of safe text; only the unsafe characters are handled here.
  const unsafe = new RegExp(NEEDS_SANITISING.source, 'g');
  for (let m = unsafe.exec(s); m !== null; m = unsafe.exec(s)) {
    const at = m.index;
    const c = s.charCodeAt(at);
    if (c === ESC && s.charCodeAt(at + 1) === 0x5b) {
      const { end, sgr } = scanCsi(s, at + 2);
      unsafe.lastIndex = end;
      // A kept SGR stays inside the pending run: coloured output is copied in long slices, not one per escape.
      if (sgr && keepSgr) continue;
      out += s.slice(start, at);
      start = end;
      continue;
    }
    out += s.slice(start, at);
    start = skipControl(s, at, c, keep);
    unsafe.lastIndex = start;
  }
  return out + s.slice(start);
}

/** Skips one control (and the sequence it introduces) at `i`; emits kept SGR through `keep`. Returns the next index. */
function skipControl(s: string, i: number, c: number, keep: (sgr: string) => void): number {
  if (c === ESC) {
    const next = s.charCodeAt(i + 1);
    if (Number.isNaN(next)) return i + 1;
    switch (next) {
      case 0x5b: {
        const { end, sgr } = scanCsi(s, i + 2);
        if (sgr) keep(s.slice(i, end));
        return end;
      }
      case 0x5d:
        return skipString(s, i + 2, true);
      case 0x50:
      case 0x58:
      case 0x5e:
      case 0x5f:
        return skipString(s, i + 2, false);
      default:
        break;
    }
    // nF: intermediates 0x20–0x2F then one final byte (e.g. ESC ( B, ESC # 8).
    let j = i + 1;
    while (j < s.length && s.charCodeAt(j) >= 0x20 && s.charCodeAt(j) <= 0x2f) j++;
    const final = s.charCodeAt(j);
    // Fp/Fe/Fs finals are 0x30–0x7E; anything else (a control, end of text) ends the sequence without being eaten.
    return final >= 0x30 && final <= 0x7e ? j + 1 : j;
  }
  switch (c) {
    case 0x9b:
      return scanCsi(s, i + 1).end; // raw C1 CSI: never kept (8-bit form), always stripped
    case 0x9d:
      return skipString(s, i + 1, true);
    case 0x90:
    case 0x98:
    case 0x9e:
    case 0x9f:
      return skipString(s, i + 1, false);
    default:
      return i + 1;
  }
}
