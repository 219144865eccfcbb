/**
 * A small glob-to-RegExp compiler (no Node `path`, platform-neutral).
 *
 * - `path` flavour: `*` matches within one segment, `?` one non-`/` character, `**` as a whole
 *   segment matches any number of segments (`src/**` = everything under `src/`).
 * - `text` flavour (shell commands, URLs): `*` and `**` match anything, including `/` and spaces.
 * - Both: `{a,b}` alternation (nestable), `[abc]` / `[!abc]` / `[^abc]` classes, `\x` escapes.
 */

/** The two glob flavours. */
export type GlobFlavour = 'path' | 'text';

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

function escapeLiteral(s: string): string {
  return s.replace(REGEX_SPECIAL, '\\$&');
}

/** Thrown for a glob that cannot be compiled (unbalanced braces or brackets). */
export class GlobSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlobSyntaxError';
  }
}

/** Compiles a glob pattern to an anchored RegExp source string. */
export function globToRegExpSource(pattern: string, flavour: GlobFlavour): string {
  const star = flavour === 'path' ? '[^/]*' : '[\\s\\S]*';
  const one = flavour === 'path' ? '[^/]' : '[\\s\\S]';
  let i = 0;
  let braceDepth = 0;
  let out = '';
  const n = pattern.length;
  while (i < n) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern[i + 1];
      if (next === undefined) throw new GlobSyntaxError('dangling escape at end of pattern');
      out += escapeLiteral(next);
      i += 2;
      continue;
    }
    if (c === '*') {
      let j = i;
      while (pattern[j] === '*') j++;
      const run = j - i;
      if (run >= 2 && flavour === 'path') {
        const atStart = i === 0 || pattern[i - 1] === '/';
        const atEnd = j === n || pattern[j] === '/';
        if (atStart && atEnd) {
          if (j === n) {
            // `**` at the end: anything (a trailing `/**` requires at least one more character).
            out += '[\\s\\S]*';
            i = j;
          } else {
            // `**/` : zero or more whole segments.
            out += '(?:[^/]*(?:/[^/]*)*/)?';
            i = j + 1;
          }
          continue;
        }
      }
      // A `**` that is not a whole segment behaves like `*` in path flavour.
      out += star;
      i = j;
      continue;
    }
    if (c === '?') {
      out += one;
      i++;
      continue;
    }
    if (c === '[') {
      const close = findClassEnd(pattern, i);
      if (close === -1) throw new GlobSyntaxError(`unclosed "[" at ${i}`);
      let body = pattern.slice(i + 1, close);
      let negate = false;
      if (body.startsWith('!') || body.startsWith('^')) {
        negate = true;
        body = body.slice(1);
      }
      if (body === '') throw new GlobSyntaxError(`empty character class at ${i}`);
      const cls = body.replace(/[\\\]^[]/g, '\\$&');
      out += negate ? (flavour === 'path' ? `[^/${cls}]` : `[^${cls}]`) : `[${cls}]`;
      i = close + 1;
      continue;
    }
    if (c === '{') {
      braceDepth++;
      out += '(?:';
      i++;
      continue;
    }
    if (c === '}' && braceDepth > 0) {
      braceDepth--;
      out += ')';
      i++;
      continue;
    }
    if (c === ',' && braceDepth > 0) {
      out += '|';
      i++;
      continue;
    }
    out += escapeLiteral(c);
    i++;
  }
  if (braceDepth !== 0) throw new GlobSyntaxError('unclosed "{"');
  return `^${out}$`;
}

function findClassEnd(pattern: string, open: number): number {
  // The first `]` right after `[`, `[!` or `[^` is literal.
  let j = open + 1;
  if (pattern[j] === '!' || pattern[j] === '^') j++;
  if (pattern[j] === ']') j++;
  for (; j < pattern.length; j++) {
    if (pattern[j] === '\\') {
      j++;
      continue;
    }
    if (pattern[j] === ']') return j;
  }
  return -1;
}

/** Compiles a glob to an anchored RegExp; throws `GlobSyntaxError` for malformed patterns. */
export function globToRegExp(pattern: string, flavour: GlobFlavour): RegExp {
  const source = globToRegExpSource(pattern, flavour);
  try {
    return new RegExp(source, 'u');
  } catch (cause) {
    throw new GlobSyntaxError(cause instanceof Error ? cause.message : String(cause));
  }
}

/** True when `pattern` contains glob syntax (otherwise it can be compared as a literal). */
export function hasGlobSyntax(pattern: string): boolean {
  return /[*?[{\\]/.test(pattern);
}
