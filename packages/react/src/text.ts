import { toText } from '@codeagent/artifact-schema/internal';
import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';

// The defensive readers shared by every package (`toText`; `isDict` is any non-array object).
export { isRecord as isDict, toText } from '@codeagent/artifact-schema/internal';

/**
 * Untrusted text made safe to show as plain text: every terminal escape, control character (but `\n` and
 * `\t`) and bidi override/isolate is removed. React escapes the rest for HTML exactly once.
 */
export function plainText(x: unknown): string {
  return sanitizeTerminalText(toText(x), { keepSgr: false });
}

/** {@link plainText} on one line: line breaks and tabs become spaces (titles, names, paths). */
export function inlineText(x: unknown): string {
  return plainText(x).replace(/[\n\t]/g, ' ');
}

/** JSON of an untrusted value for display; never throws (cycles, bigint, throwing getters give a marker). */
export function displayJson(x: unknown): string {
  try {
    const seen = new WeakSet<object>();
    const json = JSON.stringify(
      x,
      (_key, value: unknown) => {
        if (typeof value === 'bigint') return `${value}n`;
        if (typeof value === 'object' && value !== null) {
          if (seen.has(value)) return '[Circular]';
          seen.add(value);
        }
        return value;
      },
      2,
    );
    return json === undefined ? toText(x) : json;
  } catch {
    return '[unserialisable value]';
  }
}

/** A plain object (not an array, not null). */
export type Dict = Record<string, unknown>;

/** Reads `o[key]` without throwing (a hostile getter gives `undefined`). */
export function read(o: unknown, key: string): unknown {
  if (typeof o !== 'object' || o === null) return undefined;
  try {
    return Object.hasOwn(o, key) ? (o as Dict)[key] : undefined;
  } catch {
    return undefined;
  }
}

/** Reads a string field, or `undefined`. */
export function readString(o: unknown, key: string): string | undefined {
  const v = read(o, key);
  return typeof v === 'string' ? v : undefined;
}
