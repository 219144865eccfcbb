import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';

/** Code points that change how text reads without being visible: bidi controls, zero-width marks, BOM. */
const INVISIBLE = /[\u061c\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/;

/**
 * Text for a title the editor shows (tool calls, approvals): every control character, escape and invisible
 * formatting character is written out as a visible `\u{…}` code, so the title shows exactly what runs and
 * carries no escape sequence at all. Tabs stay; newlines stay (multi-line commands).
 */
export function visibleTitle(text: string): string {
  let out = '';
  for (const ch of text) {
    const c = ch.codePointAt(0) ?? 0;
    const control = (c < 0x20 && c !== 0x09 && c !== 0x0a) || c === 0x7f || (c >= 0x80 && c <= 0x9f);
    out += control || INVISIBLE.test(ch) ? `\\u{${c.toString(16)}}` : ch;
  }
  return out;
}

/** Untrusted prose for the editor (model text, tool output): escape sequences, SGR included, and controls removed. */
export function plainText(text: string): string {
  return sanitizeTerminalText(text, { keepSgr: false });
}

/** Output for a terminal widget (`_meta.terminal_output`): SGR colours kept, every other escape removed. */
export function terminalText(text: string): string {
  return sanitizeTerminalText(text);
}
