import type { ShellSyntaxNode } from './syntax.js';

/** One shell word: its value after quote removal when it is a literal, else its source text. */
export interface Word {
  /** The value after quote removal (literal words) or the source text (words with expansions). */
  readonly value: string;
  /** True when the word has no expansion, substitution, glob or brace syntax: the shell passes `value` as is. */
  readonly literal: boolean;
  /** The word as written. */
  readonly raw: string;
}

interface Acc {
  value: string;
  literal: boolean;
  /** An unquoted `[` or `{` seen earlier in the word (a later `]` / `}` makes it a glob or brace expansion). */
  bracket: boolean;
  brace: boolean;
  /** A `,` or `..` after the `{`: a later `}` makes a brace expansion (`{}` alone is literal). */
  list: boolean;
}

/** A word node (word, string, concatenation, ...) evaluated as far as it is static. */
export function wordOf(node: ShellSyntaxNode): Word {
  const acc: Acc = { value: '', literal: true, bracket: false, brace: false, list: false };
  append(node, acc);
  return { value: acc.literal ? acc.value : node.text, literal: acc.literal, raw: node.text };
}

/** A literal word made up by the analyser (a keyword, a basename). */
export function literalWord(value: string): Word {
  return { value, literal: true, raw: value };
}

/** `NAME=value` with quote removal on the value. */
export function assignmentOf(node: ShellSyntaxNode): Word {
  const value = node.childForFieldName('value');
  const text = node.text;
  if (!value) return { value: text, literal: /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(text), raw: text };
  const head = text.slice(0, text.length - value.text.length);
  const v = wordOf(value);
  const literal = v.literal && /^[A-Za-z_][A-Za-z0-9_]*\+?=$/.test(head);
  return { value: literal ? head + v.value : text, literal, raw: text };
}

/** True when the children cover the whole text, i.e. no anonymous token (a brace, a comma) sits between them. */
function contiguous(node: ShellSyntaxNode, kids: readonly (ShellSyntaxNode | null)[]): boolean {
  let n = 0;
  for (const k of kids) n += k?.text.length ?? 0;
  return n === node.text.length;
}

function append(node: ShellSyntaxNode, acc: Acc): void {
  if (!acc.literal) return;
  switch (node.type) {
    case 'word':
    case 'number': {
      const v = unescapeUnquoted(node.text, acc);
      if (v === undefined) acc.literal = false;
      else acc.value += v;
      return;
    }
    case 'raw_string': {
      const t = node.text;
      if (t.length < 2 || !t.startsWith("'") || !t.endsWith("'")) acc.literal = false;
      else acc.value += t.slice(1, -1);
      return;
    }
    case 'ansi_c_string': {
      const t = node.text;
      const v =
        t.startsWith("$'") && t.endsWith("'") && t.length >= 3 ? decodeAnsiC(t.slice(2, -1)) : undefined;
      if (v === undefined) acc.literal = false;
      else acc.value += v;
      return;
    }
    case 'translated_string': {
      const kids = node.namedChildren;
      const inner = kids[0];
      if (kids.length !== 1 || !inner || inner.type !== 'string' || node.text !== `$${inner.text}`)
        acc.literal = false;
      else append(inner, acc);
      return;
    }
    case 'string': {
      const t = node.text;
      const open = t.startsWith('$"') ? 2 : t.startsWith('"') ? 1 : -1;
      const kids = node.namedChildren;
      if (
        open < 0 ||
        t.length < open + 1 ||
        !t.endsWith('"') ||
        kids.some((k) => k?.type !== 'string_content')
      ) {
        acc.literal = false;
        return;
      }
      acc.value += unescapeDouble(t.slice(open, -1));
      return;
    }
    case 'concatenation':
    case 'command_name': {
      const kids = node.namedChildren;
      if (kids.length === 0 || !contiguous(node, kids)) {
        acc.literal = false;
        return;
      }
      for (const k of kids) if (k) append(k, acc);
      return;
    }
    default:
      // Expansions, substitutions, brace expressions, arrays, anything the analyser does not know.
      acc.literal = false;
  }
}

/**
 * Quote removal for an unquoted word: `\x` is `x`, backslash-newline vanishes. Returns `undefined` when the
 * word is subject to pathname or brace expansion (`*`, `?`, `[...]`, `{...}`), so its value is not known.
 */
export function unescapeUnquoted(
  text: string,
  state = { bracket: false, brace: false, list: false },
): string | undefined {
  let out = '';
  let glob = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '\\') {
      const next = text[i + 1];
      i++;
      if (next === undefined) out += '\\';
      else if (next !== '\n') out += next;
      continue;
    }
    if (c === '*' || c === '?') glob = true;
    else if (c === '[') state.bracket = true;
    else if (c === ']' && state.bracket) glob = true;
    else if (c === '{') state.brace = true;
    else if (state.brace && (c === ',' || (c === '.' && text[i + 1] === '.'))) state.list = true;
    else if (c === '}' && state.list) glob = true;
    else if (c === '$' || c === '`') glob = true;
    out += c;
  }
  return glob ? undefined : out;
}

/** Quote removal inside double quotes: only `\$`, `` \` ``, `\"`, `\\` and backslash-newline are escapes. */
function unescapeDouble(text: string): string {
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** Decodes the body of a `$'...'` string as bash does; `undefined` for an escape it cannot decode. */
export function decodeAnsiC(body: string): string | undefined {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i] as string;
    if (c !== '\\') {
      out += c;
      continue;
    }
    const e = body[i + 1];
    if (e === undefined) return undefined;
    i++;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const rest = body.slice(i);
    const octal = /^[0-7]{1,3}/.exec(rest);
    const hex = octal ? null : /^x([0-9A-Fa-f]{1,2})/.exec(rest);
    const uni =
      octal || hex ? null : (/^u([0-9A-Fa-f]{1,4})/.exec(rest) ?? /^U([0-9A-Fa-f]{1,8})/.exec(rest));
    if (octal) {
      out += String.fromCharCode(Number.parseInt(octal[0], 8) & 0xff);
      i += octal[0].length - 1;
    } else if (hex) {
      out += String.fromCharCode(Number.parseInt(hex[1] as string, 16));
      i += hex[0].length - 1;
    } else if (uni) {
      const cp = Number.parseInt(uni[1] as string, 16);
      if (cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return undefined;
      out += String.fromCodePoint(cp);
      i += uni[0].length - 1;
    } else if (e === 'c' && body[i + 1] !== undefined) {
      out += String.fromCharCode((body.charCodeAt(i + 1) & 0x1f) as number);
      i++;
    } else {
      out += `\\${e}`;
    }
  }
  return out;
}

const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/** A word spelled canonically: plain words as they are, other literals single-quoted, dynamic words as written. */
export function spell(w: Word): string {
  if (!w.literal) return w.raw;
  if (PLAIN.test(w.value)) return w.value;
  return `'${w.value.replaceAll("'", "'\\''")}'`;
}
