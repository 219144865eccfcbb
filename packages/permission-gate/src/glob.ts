/**
 * A small, platform-neutral glob matcher (no Node `path`) that cannot be driven into catastrophic
 * backtracking: patterns with more than one unbounded wildcard run on a Thompson-style NFA
 * simulation (O(pattern x input)); simpler ones compile to an anchored RegExp.
 *
 * - `path` flavour: `*` matches within one segment, `?` one non-`/` character, `**` as a whole
 *   segment matches any number of segments (`src/**` = everything under `src/`).
 * - `text` flavour (shell commands, URLs): `*` and `**` match anything, including `/` and spaces.
 * - Both: `{a,b}` alternation (nestable, at most 256 expansions), `[abc]` / `[!abc]` / `[^abc]`
 *   classes with ranges, `\x` escapes.
 */

/** The two glob flavours. */
export type GlobFlavour = 'path' | 'text';

/** A compiled glob. */
export interface GlobMatcher {
  /** The pattern as given. */
  readonly pattern: string;
  /** True when the whole string matches. */
  test(input: string): boolean;
}

/** Thrown for a glob that cannot be compiled (unbalanced braces or brackets, bad ranges, too many expansions). */
export class GlobSyntaxError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GlobSyntaxError';
  }
}

type Token =
  | { readonly t: 'lit'; readonly c: string }
  | { readonly t: 'one'; readonly slash: boolean }
  | {
      readonly t: 'class';
      readonly ranges: readonly (readonly [number, number])[];
      readonly negate: boolean;
      readonly slash: boolean;
    }
  | { readonly t: 'star'; readonly slash: boolean }
  // `**/`: empty, or any string that ends with `/`.
  | { readonly t: 'gslash' };

const MAX_EXPANSIONS = 256;

/** Expands `{a,b}` alternation into plain alternatives (escapes and classes are kept verbatim). */
function expandBraces(pattern: string): string[] {
  const open = findTopBrace(pattern);
  if (open === -1) return [pattern];
  let depth = 0;
  const parts: string[] = [];
  let start = open + 1;
  let close = -1;
  for (let i = open; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '[') {
      const end = findClassEnd(pattern, i);
      if (end !== -1) {
        i = end;
        continue;
      }
    }
    if (c === '{') depth++;
    else if (c === '}') {
      depth--;
      if (depth === 0) {
        parts.push(pattern.slice(start, i));
        close = i;
        break;
      }
    } else if (c === ',' && depth === 1) {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  if (close === -1) throw new GlobSyntaxError('unclosed "{"');
  const head = pattern.slice(0, open);
  const tails = expandBraces(pattern.slice(close + 1));
  const out: string[] = [];
  for (const part of parts) {
    for (const mid of expandBraces(part)) {
      for (const tail of tails) {
        out.push(head + mid + tail);
        if (out.length > MAX_EXPANSIONS)
          throw new GlobSyntaxError(`more than ${MAX_EXPANSIONS} brace expansions`);
      }
    }
  }
  return out;
}

function findTopBrace(pattern: string): number {
  for (let i = 0; i < pattern.length; i++) {
    const c = pattern[i];
    if (c === '\\') i++;
    else if (c === '[') {
      const end = findClassEnd(pattern, i);
      if (end !== -1) i = end;
    } else if (c === '{') return i;
  }
  return -1;
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

function parseClass(body: string): (readonly [number, number])[] {
  const chars: number[] = [];
  const cps = [...body];
  for (let i = 0; i < cps.length; i++) {
    let c = cps[i] as string;
    if (c === '\\' && i + 1 < cps.length) c = cps[++i] as string;
    chars.push(c.codePointAt(0) as number);
    // Mark a range with -1 as the separator between two code points.
    if (cps[i + 1] === '-' && i + 2 < cps.length) {
      chars.push(-1);
      i++;
    }
  }
  const ranges: (readonly [number, number])[] = [];
  for (let i = 0; i < chars.length; i++) {
    const lo = chars[i] as number;
    if (chars[i + 1] === -1) {
      let hi = chars[i + 2] as number;
      if (hi === undefined) hi = lo;
      if (hi < lo) throw new GlobSyntaxError(`bad range in character class "[${body}]"`);
      ranges.push([lo, hi]);
      i += 2;
    } else ranges.push([lo, lo]);
  }
  return ranges;
}

function tokenize(pattern: string, flavour: GlobFlavour): Token[] {
  const cross = flavour === 'text';
  const out: Token[] = [];
  const n = pattern.length;
  let i = 0;
  while (i < n) {
    const c = pattern[i] as string;
    if (c === '\\') {
      const next = pattern.codePointAt(i + 1);
      if (next === undefined) throw new GlobSyntaxError('dangling escape at end of pattern');
      const ch = String.fromCodePoint(next);
      out.push({ t: 'lit', c: ch });
      i += 1 + ch.length;
      continue;
    }
    if (c === '*') {
      let j = i;
      while (pattern[j] === '*') j++;
      const run = j - i;
      if (run >= 2 && !cross) {
        const atStart = i === 0 || pattern[i - 1] === '/';
        if (atStart && j === n) {
          out.push({ t: 'star', slash: true });
          i = j;
          continue;
        }
        if (atStart && pattern[j] === '/') {
          out.push({ t: 'gslash' });
          i = j + 1;
          continue;
        }
      }
      // A `**` that is not a whole segment behaves like `*` in path flavour.
      out.push({ t: 'star', slash: cross });
      i = j;
      continue;
    }
    if (c === '?') {
      out.push({ t: 'one', slash: cross });
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
      out.push({ t: 'class', ranges: parseClass(body), negate, slash: cross });
      i = close + 1;
      continue;
    }
    if (c === '}') throw new GlobSyntaxError(`unbalanced "}" at ${i}`);
    const cp = pattern.codePointAt(i) as number;
    const ch = String.fromCodePoint(cp);
    out.push({ t: 'lit', c: ch });
    i += ch.length;
  }
  return out;
}

function consumes(tok: Token, ch: string, cp: number): boolean {
  switch (tok.t) {
    case 'lit':
      return tok.c === ch;
    case 'one':
      return tok.slash || ch !== '/';
    case 'class': {
      if (!tok.slash && ch === '/') return false;
      const inside = tok.ranges.some(([lo, hi]) => cp >= lo && cp <= hi);
      return inside !== tok.negate;
    }
    case 'star':
      return tok.slash || ch !== '/';
    case 'gslash':
      // Lowered to other nodes before simulation.
      return false;
  }
}

/** An NFA node: a token, or an epsilon fork that may jump `to` nodes ahead (used for a globstar segment). */
type Node = Token | { readonly t: 'skip'; readonly to: number };

/** Lowers tokens to NFA nodes: a globstar segment becomes `skip(3) star lit('/')`: empty, or anything ending in a slash. */
function toNodes(tokens: readonly Token[]): Node[] {
  const out: Node[] = [];
  for (const t of tokens) {
    if (t.t === 'gslash') out.push({ t: 'skip', to: 3 }, { t: 'star', slash: true }, { t: 'lit', c: '/' });
    else out.push(t);
  }
  return out;
}

/** Thompson-style simulation over one node list: linear in input length for a fixed pattern. */
function nfaTest(nodes: readonly Node[], input: string): boolean {
  const m = nodes.length;
  let cur = new Uint8Array(m + 1);
  let next = new Uint8Array(m + 1);
  // Epsilon edges only point forward, so one ascending pass computes the closure.
  const close = (set: Uint8Array) => {
    for (let i = 0; i < m; i++) {
      if (!set[i]) continue;
      const t = nodes[i] as Node;
      if (t.t === 'star') set[i + 1] = 1;
      else if (t.t === 'skip') {
        set[i + 1] = 1;
        set[i + t.to] = 1;
      }
    }
  };
  cur[0] = 1;
  close(cur);
  for (const ch of input) {
    const cp = ch.codePointAt(0) as number;
    next.fill(0);
    let any = false;
    for (let i = 0; i < m; i++) {
      if (!cur[i]) continue;
      const t = nodes[i] as Node;
      if (t.t === 'skip' || !consumes(t, ch, cp)) continue;
      any = true;
      next[t.t === 'star' ? i : i + 1] = 1;
    }
    if (!any) return false;
    close(next);
    [cur, next] = [next, cur];
  }
  return cur[m] === 1;
}

const REGEX_SPECIAL = /[.*+?^${}()|[\]\\/]/g;

function regexSource(tokens: readonly Token[]): string {
  let s = '';
  for (const t of tokens) {
    switch (t.t) {
      case 'lit':
        s += t.c.replace(REGEX_SPECIAL, '\\$&');
        break;
      case 'one':
        s += t.slash ? '[\\s\\S]' : '[^/]';
        break;
      case 'star':
        s += t.slash ? '[\\s\\S]*' : '[^/]*';
        break;
      case 'gslash':
        s += '(?:[\\s\\S]*/)?';
        break;
      case 'class': {
        const body = t.ranges
          .map(([lo, hi]) =>
            lo === hi ? `\\u{${lo.toString(16)}}` : `\\u{${lo.toString(16)}}-\\u{${hi.toString(16)}}`,
          )
          .join('');
        s += t.negate ? `[^${t.slash ? '' : '/'}${body}]` : t.slash ? `[${body}]` : `(?![/])[${body}]`;
        break;
      }
    }
  }
  return s;
}

function unbounded(tokens: readonly Token[]): number {
  let n = 0;
  for (const t of tokens) if (t.t === 'star' || t.t === 'gslash') n++;
  return n;
}

/**
 * Compiles a glob into a matcher; throws `GlobSyntaxError` for malformed patterns. The pattern is parsed
 * eagerly (so errors surface here); the RegExp or NFA is built on the first `test`.
 */
export function compileGlob(pattern: string, flavour: GlobFlavour): GlobMatcher {
  const alternatives = expandBraces(pattern).map((p) => tokenize(p, flavour));
  let run: ((input: string) => boolean) | undefined;
  const build = (): ((input: string) => boolean) => {
    // One unbounded wildcard per alternative cannot backtrack catastrophically: use the RegExp engine.
    if (alternatives.every((a) => unbounded(a) <= 1)) {
      const re = new RegExp(`^(?:${alternatives.map(regexSource).join('|')})$`, 'u');
      return (input) => re.test(input);
    }
    const lowered = alternatives.map(toNodes);
    const lits = alternatives.map((a) => (a[0]?.t === 'lit' ? a[0].c : undefined));
    return (input) =>
      lowered.some((a, i) => (lits[i] === undefined || input.startsWith(lits[i])) && nfaTest(a, input));
  };
  return {
    pattern,
    test: (input) => {
      run ??= build();
      return run(input);
    },
  };
}

/** Compiles a glob that always uses the NFA matcher (exported for equivalence tests). */
export function compileGlobNfa(pattern: string, flavour: GlobFlavour): GlobMatcher {
  const lowered = expandBraces(pattern).map((p) => toNodes(tokenize(p, flavour)));
  return { pattern, test: (input) => lowered.some((a) => nfaTest(a, input)) };
}
