import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { truncateToWidth } from '@codeagent/terminal';

/** Raw output kept per running call: enough for the tail whatever the lines' length. */
const KEEP_CHARS = 16 * 1024;

/** The tail lines of raw command output as plain text: `\r` applied (progress bars), escapes removed, tabs expanded. */
export function tailLines(raw: string, count: number): string[] {
  const lines = raw.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines.slice(-count).map((line) => {
    const trimmed = line.endsWith('\r') ? line.slice(0, -1) : line;
    const shown = trimmed.slice(trimmed.lastIndexOf('\r') + 1);
    return sanitizeTerminalText(shown.replace(/\t/g, '  '), { keepSgr: false });
  });
}

/** Options of {@link LiveOutput}. */
export interface LiveOutputOptions {
  /** Colour on: the tail is dim. Off (NO_COLOR, `--no-color`): no SGR at all. */
  readonly color: boolean;
  /** Terminal columns now. */
  readonly columns: () => number;
  /** Terminal rows now (the block never takes more than a third of them). */
  readonly rows: () => number;
  /** Lines of the tail shown (default 5). */
  readonly lines?: number;
}

/**
 * The live tail of a running call under its card: the last lines of what it printed so far, redrawn in place
 * (cursor up, erase below) as output arrives, erased before anything else is written and when the call ends
 * (its final card replaces it). Each line is cut to the terminal width so the block's height is exact.
 */
export class LiveOutput {
  readonly #write: (text: string) => void;
  readonly #options: LiveOutputOptions;
  #call: string | null = null;
  #raw = '';
  /** Rows of the block on screen now (the cursor is on the row below it). */
  #drawn = 0;

  constructor(write: (text: string) => void, options: LiveOutputOptions) {
    this.#write = write;
    this.#options = options;
  }

  /** The call whose output the block shows, or `null`. */
  get call(): string | null {
    return this.#call;
  }

  /** Adds output of `call` (another call's output starts a new tail). */
  push(call: string, text: string): void {
    if (this.#call !== call) {
      this.#call = call;
      this.#raw = '';
    }
    const raw = this.#raw + text;
    this.#raw = raw.length > KEEP_CHARS ? raw.slice(raw.length - KEEP_CHARS) : raw;
  }

  /** Draws the tail in place of the previous drawing; the cursor must be at the start of the row below it. */
  draw(): void {
    if (this.#call === null) return;
    const max = Math.max(1, Math.min(this.#options.lines ?? 5, Math.floor(this.#options.rows() / 3)));
    const lines = tailLines(this.#raw, max);
    const width = Math.max(10, this.#options.columns() - 5);
    const body = lines
      .map((line) => {
        const cut = `  ┆ ${truncateToWidth(line, width)}`;
        return `${this.#options.color ? `\u001b[2m${cut}\u001b[0m` : cut}\u001b[K\n`;
      })
      .join('');
    this.#write(`${this.#erase()}${body}`);
    this.#drawn = lines.length;
  }

  /** Erases the block (the cursor ends where it began). */
  clear(): void {
    const erase = this.#erase();
    if (erase !== '') this.#write(erase);
    this.#drawn = 0;
  }

  /** The call ended: erase its tail and forget it. */
  end(call: string): void {
    if (this.#call !== call) return;
    this.clear();
    this.#call = null;
    this.#raw = '';
  }

  #erase(): string {
    return this.#drawn > 0 ? `\r\u001b[${this.#drawn}A\u001b[J` : '';
  }
}
