/**
 * `@codeagent/terminal/corpus`: the terminal-escape injection corpus (a JSON file shipped with the package)
 * and the strict output checker, for any host's end-to-end tests.
 * @packageDocumentation
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export { findUnsafeTerminalBytes, isSafeTerminalOutput, type TerminalViolation } from './checker.js';

/** One adversarial payload of the corpus. */
export interface InjectionPayload {
  /** Stable identifier, e.g. `osc52-clipboard-write`. */
  readonly id: string;
  /** Family: `csi`, `esc`, `osc`, `dcs`, `apc`, `pm`, `sos`, `c1`, `bidi`, `c0`, `truncated`, `sgr`, `mixed`. */
  readonly category: string;
  /** What the payload tries to do. */
  readonly description: string;
  /** The untrusted text. */
  readonly payload: string;
  /** Substrings that must still appear after rendering (visible text, kept SGR colours). */
  readonly keep: readonly string[];
}

/** The corpus file's content. */
export interface InjectionCorpus {
  /** What the corpus is and what a renderer must guarantee. */
  readonly description: string;
  /** Where the payload families come from. */
  readonly sources: readonly string[];
  /** Format version of the file. */
  readonly version: 1;
  /** The payloads. */
  readonly payloads: readonly InjectionPayload[];
}

/** Absolute path of `injection-corpus.json` (also exported as `@codeagent/terminal/corpus.json`). */
export const injectionCorpusPath: string = fileURLToPath(
  new URL('../corpus/injection-corpus.json', import.meta.url),
);

function isPayload(x: unknown): x is InjectionPayload {
  if (typeof x !== 'object' || x === null) return false;
  const p = x as Record<string, unknown>;
  return (
    typeof p.id === 'string' &&
    typeof p.category === 'string' &&
    typeof p.description === 'string' &&
    typeof p.payload === 'string' &&
    Array.isArray(p.keep) &&
    p.keep.every((k) => typeof k === 'string')
  );
}

let cached: InjectionCorpus | undefined;

/** Reads and validates the corpus file (cached); throws a `TypeError` naming the bad entry if it is malformed. */
export function loadInjectionCorpus(): InjectionCorpus {
  if (cached) return cached;
  const data: unknown = JSON.parse(readFileSync(injectionCorpusPath, 'utf8'));
  if (
    typeof data !== 'object' ||
    data === null ||
    !Array.isArray((data as { payloads?: unknown }).payloads)
  ) {
    throw new TypeError(`${injectionCorpusPath}: expected an object with a payloads array`);
  }
  const corpus = data as InjectionCorpus;
  corpus.payloads.forEach((p, i) => {
    if (!isPayload(p)) throw new TypeError(`${injectionCorpusPath}: payload #${i} is malformed`);
  });
  cached = corpus;
  return corpus;
}
