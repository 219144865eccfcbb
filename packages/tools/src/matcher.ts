import { Worker } from 'node:worker_threads';
import { ToolError } from './errors.js';
import { looksBinary } from './text.js';

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

/**
 * Reads a regular file synchronously for the worker (sync I/O is cheap there and keeps the main thread
 * free): `null` for anything unreadable, not a regular file, over `maxBytes`, or binary-looking.
 * Self-contained like {@link scanText}; `isBinary` is passed in because the worker has no imports.
 */
export function loadFileSync(
  fs: typeof import('node:fs'),
  file: string,
  maxBytes: number,
  isBinary: (sample: Uint8Array) => boolean,
): Uint8Array | null {
  let fd: number;
  try {
    // O_NONBLOCK: a FIFO swapped in after the walk must not block the open; O_NOFOLLOW: nor may a symlink
    // swapped in for the file lead the read outside the workspace.
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | fs.constants.O_NOFOLLOW);
  } catch {
    return null;
  }
  try {
    const info = fs.fstatSync(fd);
    if (!info.isFile() || info.size > maxBytes) return null;
    const buf = Buffer.allocUnsafe(info.size);
    let off = 0;
    while (off < info.size) {
      const n = fs.readSync(fd, buf, off, info.size - off, off);
      if (n === 0) break;
      off += n;
    }
    const bytes = buf.subarray(0, off);
    return isBinary(bytes.subarray(0, 8192)) ? null : bytes;
  } catch {
    return null;
  } finally {
    fs.closeSync(fd);
  }
}

/** Source of the matching worker; evaluated as ESM or CommonJS depending on the host, so it uses no import/require. */
export const WORKER_SOURCE = `
const { parentPort } = process.getBuiltinModule('node:worker_threads');
const fs = process.getBuiltinModule('node:fs');
const scanText = ${scanText.toString()};
const looksBinary = ${looksBinary.toString()};
const loadFileSync = ${loadFileSync.toString()};
const decoder = new TextDecoder();
parentPort.on('message', (m) => {
  const results = m.files.map((f) => {
    const bytes = f.path === undefined ? f.bytes : loadFileSync(fs, f.path, m.maxFileBytes, looksBinary);
    if (bytes === null) return [];
    return scanText(decoder.decode(bytes), m.source, m.flags, m.prefilter, f.stopAfter, m.maxLineLength);
  });
  parentPort.postMessage({ id: m.id, results });
});
`;

/** One file for {@link RegexMatcher.match}: a path the worker reads, or bytes already in memory. */
export type MatchInput = { path: string; stopAfter: number } | { bytes: Uint8Array; stopAfter: number };

/** Options of {@link RegexMatcher}. */
export interface RegexMatcherOptions {
  /** Most time one batch may take before the worker is stopped (catastrophic backtracking). */
  timeoutMs: number;
  /** Longer matching lines are cut. */
  maxLineLength: number;
  /** Files larger than this are skipped (default: no limit). */
  maxFileBytes?: number;
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

  /**
   * Matches each file and returns its hits, in order. Paths are read by the worker (regular text files
   * only; anything else gives no hits); bytes are transferred to it.
   */
  match(files: readonly MatchInput[]): Promise<LineHit[][]> {
    if (files.length === 0) return Promise.resolve([]);
    if (this.#worker === undefined) {
      this.#worker = new Worker(WORKER_SOURCE, { eval: true });
      // The pending timeout keeps the loop alive while a batch runs; an idle worker must not.
      this.#worker.unref();
    }
    const worker = this.#worker;
    const id = this.#next++;
    const transfer = files.flatMap((f) => ('bytes' in f ? [f.bytes.buffer as ArrayBuffer] : []));
    return new Promise<LineHit[][]>((resolve, reject) => {
      const timer = setTimeout(() => {
        cleanup();
        this.close();
        reject(
          new ToolError(
            'regex-timeout',
            `Grep stopped: one batch of files took over ${this.#options.timeoutMs} ms; simplify the pattern (nested quantifiers such as (a+)+ backtrack catastrophically) or narrow the path`,
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
        reject(new ToolError('io-error', `Grep worker failed: ${error.message}`, { cause: error }));
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
          maxFileBytes: this.#options.maxFileBytes ?? Number.POSITIVE_INFINITY,
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
