import { clean } from './clean.js';

const ESC = '\u001b';
const MAX_HELD = 256;

/**
 * Sanitises streamed model text chunk by chunk. An escape sequence split across two chunks is held back until
 * it is complete (or too long to be one), so a split SGR keeps its colour and a split OSC is still removed whole.
 */
export class StreamSanitizer {
  private held = '';

  /** Sanitises a chunk, returning what can be written now. */
  push(chunk: string): string {
    const text = this.held + chunk;
    this.held = '';
    const cut = incompleteTailStart(text);
    if (cut >= 0 && text.length - cut <= MAX_HELD) {
      this.held = text.slice(cut);
      return clean(text.slice(0, cut));
    }
    return clean(text);
  }

  /** Flushes whatever is held (sanitised: an unterminated escape is dropped). */
  flush(): string {
    const rest = this.held;
    this.held = '';
    return rest === '' ? '' : clean(rest);
  }
}

/** Index of a trailing escape sequence that has not ended yet, or -1. */
function incompleteTailStart(text: string): number {
  const at = text.lastIndexOf(ESC);
  if (at < 0) return -1;
  const rest = text.slice(at + 1);
  if (rest === '') return at;
  const kind = rest[0];
  if (kind === '[') {
    // CSI ends with a final byte 0x40-0x7E.
    return /^\[[\x20-\x3f]*[\x40-\x7e]/.test(rest) ? -1 : at;
  }
  if (kind === ']' || kind === 'P' || kind === '_' || kind === '^' || kind === 'X') {
    // String sequences end with BEL or ST (ESC \).
    return rest.includes('\u0007') || rest.includes(`${ESC}\\`) ? -1 : at;
  }
  return -1;
}
