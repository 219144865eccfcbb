import type { HighlightToken } from './highlight.js';

/** Tokenises `code` as `lang` (a bundled grammar name) into lines of tokens with light and dark colours. */
export type Highlighter = (code: string, lang: string) => Promise<HighlightToken[][]>;

/** What {@link workerHighlighter} talks to: a `Worker` fits. */
export interface HighlightWorker {
  /** Sends a request. */
  postMessage(message: unknown): void;
  /** Subscribes to answers. */
  addEventListener(type: 'message', listener: (event: { data: unknown }) => void): void;
}

let installed: Highlighter | null = null;

/**
 * Replaces the highlighter every `CodeBlock` uses (`null`: the default, shiki loaded lazily on the page and run one
 * block per task). A host whose pages must never block passes `workerHighlighter(worker)`.
 */
export function setHighlighter(highlighter: Highlighter | null): void {
  installed = highlighter;
}

const isTokenLines = (x: unknown): x is HighlightToken[][] =>
  Array.isArray(x) &&
  x.every(
    (line) =>
      Array.isArray(line) &&
      line.every(
        (t) =>
          typeof t === 'object' &&
          t !== null &&
          typeof (t as { content?: unknown }).content === 'string' &&
          typeof (t as { style?: unknown }).style === 'object' &&
          (t as { style?: unknown }).style !== null,
      ),
  );

/**
 * A highlighter that sends each request to a worker running `serveHighlighter(self)` from
 * `@codeagent/react/highlight`: shiki's grammar compilation and tokenising stay off the page's main thread.
 */
export function workerHighlighter(worker: HighlightWorker): Highlighter {
  let next = 0;
  const waiting = new Map<number, { resolve: (l: HighlightToken[][]) => void; reject: (e: Error) => void }>();
  worker.addEventListener('message', (event) => {
    const data = event.data as { id?: unknown; lines?: unknown } | null;
    if (typeof data !== 'object' || data === null || typeof data.id !== 'number') return;
    const w = waiting.get(data.id);
    if (!w) return;
    waiting.delete(data.id);
    if (isTokenLines(data.lines)) w.resolve(data.lines);
    else w.reject(new Error('the highlighter worker gave no tokens'));
  });
  return (code, lang) =>
    new Promise<HighlightToken[][]>((resolve, reject) => {
      const id = next++;
      waiting.set(id, { resolve, reject });
      worker.postMessage({ id, code, lang });
    });
}

let queue: Promise<unknown> = Promise.resolve();

/** Highlights with the installed highlighter; resolves `null` when `wanted()` turned false before its turn. */
export function highlightCode(
  code: string,
  lang: string,
  wanted: () => boolean,
): Promise<HighlightToken[][] | null> {
  const h = installed;
  if (h) return h(code, lang);
  // On the page: one block per task, so a screen of code blocks never tokenises in one long task.
  const run = queue
    .then(() => new Promise<void>((resolve) => setTimeout(resolve, 0)))
    .then(() => (wanted() ? import('./highlight.js').then((m) => m.highlight(code, lang)) : null));
  queue = run.catch(() => undefined);
  return run;
}
