import { readFileSync } from 'node:fs';

/**
 * Parses an expected-failures baseline: one vector id per line; `#` starts a comment (give the reason there); blank
 * lines are ignored. A language-neutral format any host's CI can keep beside its code.
 */
export function parseBaseline(text: string): Set<string> {
  const ids = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const id = line.replace(/#.*$/, '').trim();
    if (id !== '') ids.add(id);
  }
  return ids;
}

/** Reads a baseline file (see {@link parseBaseline}). */
export function readBaseline(path: string): Set<string> {
  return parseBaseline(readFileSync(path, 'utf8'));
}
