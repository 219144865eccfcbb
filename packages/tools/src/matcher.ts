import { Worker } from 'node:worker_threads';
import { ToolError } from './errors.js';

/** One matching line found by {@link scanText}. */
export interface LineHit {
  /** 1-based line number. */
  line: number;
  /** The line, cut to the length limit (never inside a surrogate pair). */
  text: string;
  /** Characters cut from the end of the line (0 when it fit). */
  more: number;
}

/**
 * Scans a text line by line (LF or CRLF) and returns up to `stopAfter` matching lines. Self-contained
 * on purpose (no imports, no closures): its source is also what the matching worker runs.
 */
export function scanText(
  text: string,
  source: string,
  flags: string,
  prefilter: boolean,
  stopAfter: number,
  maxLineLength: number,
): LineHit[] {
  const hits: LineHit[] = [];
  if (prefilter && !new RegExp(source, `${flags}m`).test(text)) return hits;
  const regex = new RegExp(source, flags);
  let lineNo = 0;
  let from = 0;
  while (from <= text.length && hits.length < stopAfter) {
    let nl = text.indexOf('\n', from);
    if (nl === -1) nl = text.length;
    lineNo += 1;
    let line = text.slice(from, nl);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    if (regex.test(line)) {
      let end = Math.min(line.length, maxLineLength);
      const code = line.charCodeAt(end - 1);
      if (end < line.length && code >= 0xd800 && code <= 0xdbff) end -= 1;
      hits.push({ line: lineNo, text: line.slice(0, end), more: line.length - end });
    }
    if (nl === text.length) break;
    from = nl + 1;
  }
  return hits;
}

/** Source of the matching worker; evaluated as ESM or CommonJS depending on the host, so it uses no import/require. */
export const WORKER_SOURCE = `
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const scanText = ${scanText.toString()};
const decoder = new TextDecoder();
parentPort.on('message', (m) => {
  const results = m.files.map((f) => scanText(decoder.decode(f.bytes), m.source, m.flags, m.prefilter, f.stopAfter, m.maxLineLength));
  parentPort.postMessage({ id: m.id, results });
});
`;

/** Options of {@link RegexMatcher}. */
export interface RegexMatcherOptions {
  /** Most time one batch may take before the worker is stopped (catastrophic backtracking). */
  timeoutMs: number;
  /** Longer matching lines are cut. */
  maxLineLength: number;
}

/**
 * Runs a regex over file contents in a worker thread, so a catastrophically backtracking pattern
 * is stopped after `timeoutMs` instead of freezing the process (ReDoS guard for model-written patterns).
 */
export class RegexMatcher {
  readonly #regex: RegExp;
  readonly #prefilter: boolean;
  readonly #options: RegexMatcherOptions;
  #worker: Worker | undefined;
  #next = 0;

  /** Prepares a matcher for an already compiled regex (the worker starts on first use). */
  constructor(regex: RegExp, options: RegexMatcherOptions) {
    this.#regex = regex;
    // With `m` every line match is a whole-text match too (a superset is fine for a filter); a lookbehind
    // could see across the newline, so such patterns are not prefiltered.
    this.#prefilter = !regex.source.includes('(?<');
    this.#options = options;
  }

  /** Matches each text (UTF-8 bytes, transferred to the worker) and returns its hits, in order. */
  match(files: ReadonlyArray<{ bytes: Uint8Array; stopAfter: number }>): Promise<LineHit[][]> {
    if (files.length === 0) return Promise.resolve([]);
    if (this.#worker === undefined) {
      this.#worker = new Worker(WORKER_SOURCE, { eval: true });
      // The pending timeout keeps the loop alive while a batch runs; an idle worker must not.
      this.#worker.unref();
    }
    const worker = this.#worker;
    const id = this.#next++;
    const transfer = files.map((f) => f.bytes.buffer as ArrayBuffer);
    return new Promise<LineHit[][]>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.close();
        reject(
          new ToolError(
            'regex_timeout',
            `Grep stopped: the pattern took over ${this.#options.timeoutMs} ms on one batch of files; simplify it (nested quantifiers such as (a+)+ backtrack catastrophically)`,
          ),
        );
      }, this.#options.timeoutMs);
      const onMessage = (m: { id: number; results: LineHit[][] }): void => {
        if (m.id !== id) return;
        cleanup();
        resolve(m.results);
      };
      const onError = (error: Error): void => {
        cleanup();
        this.close();
        reject(new ToolError('io_error', `Grep worker failed: ${error.message}`, { cause: error }));
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        worker.off('message', onMessage);
        worker.off('error', onError);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.postMessage(
        {
          id,
          source: this.#regex.source,
          flags: this.#regex.flags,
          prefilter: this.#prefilter,
          maxLineLength: this.#options.maxLineLength,
          files,
        },
        transfer,
      );
    });
  }

  /** Stops the worker (idempotent). */
  close(): void {
    const worker = this.#worker;
    this.#worker = undefined;
    if (worker !== undefined) void worker.terminate();
  }
}
