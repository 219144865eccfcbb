import type { ShellSyntaxNode, ShellSyntaxParser } from './syntax.js';
import { assignmentOf, literalWord, spell, type Word, wordOf } from './words.js';
import { clip, WRAPPERS } from './wrappers.js';

/** What the permission rules see in one shell command line (ADR 0100). */
export interface ShellAnalysis {
  /**
   * Every simple command of the line (pipelines, lists, subshells, substitutions, function bodies included),
   * each as its spellings: the source text with blanks collapsed, and its words canonically quoted. An allow
   * rule must match a spelling of every one of them.
   */
  readonly commands: readonly (readonly string[])[];
  /** The forms deny and ask rules are tried on: each command with and without its wrappers, assignments, path. */
  readonly forms: readonly string[];
  /** Why the line cannot be analysed (a non-literal command word, a parse error...): deny/ask rules may apply. */
  readonly unanalysable?: string;
  /** Why no allow rule can apply although the line was analysed (it writes to a file). */
  readonly notAllowable?: string;
}

/** Lines longer than this are not parsed: deny and ask rules may apply. */
const MAX_LENGTH = 64 * 1024;
/** Shell source nested in shell source (`sh -c "eval '...'"`) is followed this deep. */
const MAX_NESTING = 8;
/** Parses per analysed line (nested sources included). */
const MAX_PARSES = 64;
/** Wrappers unwrapped in one chain (`sudo env nice timeout 5 rm`). */
const MAX_HOPS = 16;
const CACHE_LIMIT = 2048;
/** Longer lines are analysed every time rather than kept (the cache stays under 2048 x 4 KiB of keys). */
const CACHE_MAX_KEY = 4096;

/** Reserved words: one in command position means the grammar did not see what bash sees. */
const RESERVED = new Set([
  '{',
  '}',
  '(',
  ')',
  '!',
  '[[',
  ']]',
  'if',
  'then',
  'else',
  'elif',
  'fi',
  'do',
  'done',
  'case',
  'esac',
  'in',
  'while',
  'until',
  'for',
  'select',
  'function',
]);

/** A line of plain words only: analysed without the grammar, the same way (a property test checks). */
const PLAIN_LINE = /^[A-Za-z0-9_@%+=:,./ \t-]*$/;
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*\+?=/;
/** `[[ ]]` operators that evaluate arithmetic (which can run commands through array subscripts). */
const ARITHMETIC_TEST = /\s-(?:eq|ne|lt|le|gt|ge|v)\s/;
/** A word naming an array element with a substitution in its subscript (`printf -v 'a[$(cmd)]'`). */
const SUBSCRIPT_CODE = /\[[^\]]*(?:\$\(|`)/;
/** Variables that change how later commands are found or split. */
const SHELL_STATE = /^(?:PATH|IFS|CDPATH|BASH_ENV|ENV|SHELLOPTS|BASHOPTS|GLOBIGNORE|HOME|LD_[A-Z_]+)$/;

class Collector {
  readonly commands: string[][] = [];
  readonly forms = new Set<string>();
  unanalysable: string | undefined;
  notAllowable: string | undefined;
  parses = 0;
  /** Where assignments that belong to a command (`FOO=1 cmd`, `export FOO=1`) start. */
  readonly ownedAssignments = new Set<number>();

  opaque(why: string): void {
    this.unanalysable ??= why;
  }

  form(words: readonly Word[]): void {
    if (words.length > 0) this.forms.add(words.map((w) => w.value).join(' '));
  }
}

let parser: ShellSyntaxParser | undefined;
const cache = new Map<string, ShellAnalysis>();

/** Installs the parser the analyser uses from now on (the `./shell` loader calls this). */
export function installShellParser(p: ShellSyntaxParser): void {
  parser = p;
  cache.clear();
}

/** True once a bash grammar is loaded; before that, only lines of plain words are analysed. */
export function isShellGrammarLoaded(): boolean {
  return parser !== undefined;
}

/**
 * Analyses a shell command line with the bash grammar: every simple command, unwrapped, and whether it can be
 * analysed at all. Never throws. Results are cached by command string once the grammar is loaded.
 */
export function analyseShellCommand(command: string): ShellAnalysis {
  const hit = parser === undefined ? undefined : cache.get(command);
  if (hit) return hit;
  const c = new Collector();
  try {
    analyseSource(command, c, 0);
  } catch (e) {
    c.opaque(`the analyser failed: ${e instanceof Error ? e.message : String(e)}`);
  }
  const out: ShellAnalysis = Object.freeze({
    commands: Object.freeze(c.commands.map((s) => Object.freeze(s))),
    forms: Object.freeze([...c.forms]),
    ...(c.unanalysable !== undefined ? { unanalysable: c.unanalysable } : {}),
    ...(c.notAllowable !== undefined ? { notAllowable: c.notAllowable } : {}),
  });
  if (parser !== undefined && command.length <= CACHE_MAX_KEY) {
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(command, out);
  }
  return out;
}

/** Analyses without the plain-words shortcut (tests compare the two). */
export function analyseWithGrammarOnly(command: string): ShellAnalysis {
  const c = new Collector();
  parseAndWalk(command, c, 0);
  return {
    commands: c.commands,
    forms: [...c.forms],
    ...(c.unanalysable !== undefined ? { unanalysable: c.unanalysable } : {}),
    ...(c.notAllowable !== undefined ? { notAllowable: c.notAllowable } : {}),
  };
}

function collapse(s: string): string {
  return s.replace(/[ \t]+/g, ' ').trim();
}

function analyseSource(source: string, c: Collector, nesting: number): void {
  if (source.length > MAX_LENGTH) {
    c.opaque(`the command is longer than ${MAX_LENGTH} characters`);
    return;
  }
  if (source.includes('\u0000')) {
    c.opaque('the command contains a NUL character');
    return;
  }
  if (source.includes('\r')) {
    // Bash reads a carriage return as part of a word; other shells and terminals may break the line there.
    c.notAllowable ??= 'it contains a carriage return';
    // Deny and ask rules also see the line split there (its commands are not allow spellings: nesting + 1).
    analyseSource(source.replace(/\r/g, '\n'), c, nesting + 1);
  }
  if (nesting === 0 && /\\\r?\n/.test(source)) {
    // Bash joins backslash-newline before it splits words; the grammar does not always: both readings count.
    analyseSource(source.replace(/\\\r?\n/g, ''), c, nesting);
  }
  if (PLAIN_LINE.test(source)) {
    const words = source.split(/[ \t]+/).filter((w) => w !== '');
    let i = 0;
    while (i < words.length && ASSIGNMENT.test(words[i] as string)) i++;
    if (i === words.length) {
      if (i > 0) c.notAllowable ??= 'it sets a shell variable later commands use';
      return;
    }
    if (!RESERVED.has(words[i] as string)) {
      const all = words.map(literalWord);
      command(all.slice(0, i), all.slice(i), collapse(source), c, nesting);
      return;
    }
  }
  parseAndWalk(source, c, nesting);
}

function parseAndWalk(source: string, c: Collector, nesting: number): void {
  if (parser === undefined) {
    c.opaque('the shell grammar is not loaded');
    return;
  }
  if (nesting > MAX_NESTING) {
    c.opaque('shell source nested too deep');
    return;
  }
  if (++c.parses > MAX_PARSES) {
    c.opaque('too much nested shell source');
    return;
  }
  const tree = parser.parse(source);
  if (tree === null) {
    c.opaque('the shell parser gave up');
    return;
  }
  try {
    walk(tree.rootNode, source, c, nesting);
  } finally {
    tree.delete();
  }
}

function mentionsVariable(node: ShellSyntaxNode): boolean {
  const stack = [node];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (['variable_name', 'simple_expansion', 'expansion', 'subscript', 'word'].includes(n.type)) return true;
    for (const k of n.namedChildren) if (k) stack.push(k);
  }
  return false;
}

/** Blanks, newlines and line continuations: what may sit between the tokens of a node. */
const GAP = /^(?:[ \t\r\n]|\\\r?\n)*$/;
/** Nodes whose text is partly not covered by children (literal heredoc text). */
const TEXT_NODES = new Set(['heredoc_body']);

/** True when the tokens under `n` cover its text: the grammar did not silently skip characters. */
function covered(n: ShellSyntaxNode, source: string): boolean {
  if (TEXT_NODES.has(n.type)) return true;
  const kids = n.children;
  if (kids.length === 0) return true;
  let pos = n.startIndex;
  for (const k of kids) {
    if (!k) continue;
    if (k.startIndex > pos && !GAP.test(source.slice(pos, k.startIndex))) return false;
    pos = Math.max(pos, k.endIndex);
  }
  return n.endIndex <= pos || GAP.test(source.slice(pos, n.endIndex));
}

function walk(root: ShellSyntaxNode, source: string, c: Collector, nesting: number): void {
  if (root.hasError) c.opaque('the command does not parse as bash');
  if (!GAP.test(source.slice(0, root.startIndex)) || !GAP.test(source.slice(root.endIndex))) {
    c.opaque('the grammar skipped part of the command');
  }
  const stack: ShellSyntaxNode[] = [root];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (n.isMissing || n.type === 'ERROR') c.opaque('the command does not parse as bash');
    if (c.unanalysable === undefined && !covered(n, source))
      c.opaque('the grammar skipped part of the command');
    switch (n.type) {
      case 'command':
        commandNode(n, c, nesting);
        break;
      case 'declaration_command':
      case 'unset_command':
        declarationNode(n, c, nesting);
        break;
      case 'test_command':
        if (n.text.startsWith('[[') && ARITHMETIC_TEST.test(n.text)) {
          c.opaque('[[ ]] evaluates arithmetic, which can run commands through array subscripts');
        }
        if (nesting === 0) c.commands.push([collapse(n.text)]);
        break;
      case 'arithmetic_expansion':
      case 'c_style_for_statement':
        if (mentionsVariable(n))
          c.opaque('arithmetic on a variable can run commands through array subscripts');
        break;
      case 'compound_statement':
        if (n.text.startsWith('((') && mentionsVariable(n)) {
          c.opaque('arithmetic on a variable can run commands through array subscripts');
        }
        break;
      case 'subscript': {
        // An indexed array's subscript is arithmetic: a variable in it can hold `a[$(cmd)]`, which runs.
        const index = n.childForFieldName('index');
        if (index && !/^(?:[@*]|\d+)$/.test(index.text) && mentionsVariable(index)) {
          c.opaque('an array subscript is arithmetic, which can run commands through a variable');
        }
        break;
      }
      case 'expansion':
        if (/@P\s*\}$/.test(n.text))
          c.opaque('the @P (prompt) expansion runs the command substitutions in a value');
        break;
      case 'file_redirect':
        redirect(n, c);
        break;
      case 'heredoc_redirect':
        heredoc(n, c, nesting);
        break;
      case 'variable_assignment': {
        // tree-sitter-bash also reads `--x=1` as an assignment; bash runs it as a command.
        const name = n.childForFieldName('name');
        if (name?.type === 'variable_name' && !/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text)) {
          c.opaque(`${clip(name.text)} is not a variable name`);
        }
        // `PATH=/tmp/x; git status` changes what the allowed command word finds.
        if (!c.ownedAssignments.has(n.startIndex))
          c.notAllowable ??= 'it sets a shell variable later commands use';
        break;
      }
      case 'for_statement': {
        const variable = n.childForFieldName('variable');
        if (variable && SHELL_STATE.test(variable.text))
          c.notAllowable ??= `it sets ${variable.text} in a loop`;
        break;
      }
      case 'pipeline':
      case 'list':
        c.forms.add(collapse(n.text));
        break;
      default:
        break;
    }
    const kids = n.namedChildren;
    for (let i = kids.length - 1; i >= 0; i--) {
      const k = kids[i];
      if (k) stack.push(k);
    }
  }
}

/** A redirection from or to a file (other than /dev/null or a duplicated descriptor) is more than an allow rule says. */
function redirect(n: ShellSyntaxNode, c: Collector): void {
  const dest = n.childForFieldName('destination');
  const op = dest ? n.text.slice(0, n.text.length - dest.text.length) : n.text;
  const d = dest ? wordOf(dest) : undefined;
  if (d?.literal && d.value === '/dev/null') return;
  if (op.trimEnd().endsWith('&') && d?.literal && /^(?:\d+|-)$/.test(d.value)) return;
  c.notAllowable ??= `it redirects ${op.includes('>') ? 'to' : 'from'} ${clip(dest?.text ?? n.text)}`;
}

function hasSubstitution(node: ShellSyntaxNode): boolean {
  const stack = [node];
  for (let n = stack.pop(); n !== undefined; n = stack.pop()) {
    if (n.type === 'command_substitution') return true;
    for (const k of n.namedChildren) if (k) stack.push(k);
  }
  return false;
}

/**
 * An unquoted heredoc expands substitutions in its body. The grammar misses some (backticks, `<<-`): the body is
 * read again as a double-quoted string so deny and ask rules see them.
 */
function heredoc(n: ShellSyntaxNode, c: Collector, nesting: number): void {
  const kids = n.namedChildren;
  const start = kids.find((k) => k?.type === 'heredoc_start');
  const body = kids.find((k) => k?.type === 'heredoc_body');
  if (!start || !body || /['"\\]/.test(start.text) || !/`|\$\(/.test(body.text)) return;
  if (!hasSubstitution(body)) c.notAllowable ??= 'a heredoc has a substitution the grammar did not parse';
  analyseSource(`: "${body.text.replace(/"/g, '\\"')}"`, c, nesting + 1);
}

function commandNode(n: ShellSyntaxNode, c: Collector, nesting: number): void {
  const assigns: Word[] = [];
  const words: Word[] = [];
  let named = false;
  for (const k of n.namedChildren) {
    if (!k) continue;
    switch (k.type) {
      case 'variable_assignment':
        c.ownedAssignments.add(k.startIndex);
        if (named) words.push(assignmentOf(k));
        else assigns.push(assignmentOf(k));
        break;
      case 'command_name':
        named = true;
        words.push(wordOf(k));
        break;
      case 'file_redirect':
      case 'herestring_redirect':
      case 'heredoc_redirect':
      case 'comment':
        break;
      default:
        if (named) words.push(wordOf(k));
        else c.opaque(`unexpected ${k.type} before the command word`);
    }
  }
  if (!named) return;
  command(assigns, words, collapse(n.text), c, nesting);
}

function declarationNode(n: ShellSyntaxNode, c: Collector, nesting: number): void {
  const keyword = /^[A-Za-z]+/.exec(n.text)?.[0] ?? n.type;
  const words: Word[] = [literalWord(keyword)];
  for (const k of n.namedChildren) {
    if (!k || k.type === 'comment') continue;
    if (k.type === 'variable_assignment') c.ownedAssignments.add(k.startIndex);
    words.push(k.type === 'variable_assignment' ? assignmentOf(k) : wordOf(k));
  }
  command([], words, collapse(n.text), c, nesting);
}

/** One simple command: its spellings for allow rules, its forms for deny rules, and what it runs. */
function command(
  assigns: readonly Word[],
  words: readonly Word[],
  text: string,
  c: Collector,
  nesting: number,
) {
  if (nesting === 0) {
    const canonical = [...assigns, ...words].map(spell).join(' ');
    c.commands.push(canonical === text ? [text] : [text, canonical]);
  }
  c.forms.add(text);
  if (assigns.length > 0) c.form([...assigns, ...words]);
  for (const w of [...assigns, ...words]) {
    if (w.literal && SUBSCRIPT_CODE.test(w.value)) {
      c.opaque(`${clip(w.raw)} names an array element whose subscript can run commands`);
    }
  }
  unwrap(words, c, nesting, 0);
}

function unwrap(words: readonly Word[], c: Collector, nesting: number, hops: number): void {
  c.form(words);
  const first = words[0];
  if (!first) return;
  // `time ( … )`: a subshell after a wrapper; the walk checks the commands inside it.
  if (!first.literal && /^\([\s\S]*\)$/.test(first.raw) && hops > 0) return;
  if (!first.literal) {
    c.opaque(`the command word ${clip(first.raw)} is not a literal`);
    return;
  }
  if (hops > MAX_HOPS) {
    c.opaque('too many wrapper commands');
    return;
  }
  const name = first.value;
  const slash = name.lastIndexOf('/');
  const base = slash === -1 ? name : name.slice(slash + 1);
  const args = words.slice(1);
  if (base !== name) c.form([literalWord(base), ...args]);
  if (RESERVED.has(base)) {
    c.opaque(`${clip(base)} in command position: the grammar did not see what bash sees`);
    return;
  }
  const wrapper = WRAPPERS.get(base);
  if (!wrapper) return;
  const r = wrapper(base, args);
  if (r.opaque !== undefined) c.opaque(r.opaque);
  for (const inner of r.run ?? []) unwrap(inner, c, nesting, hops + 1);
  for (const source of r.code ?? []) analyseSource(source, c, nesting + 1);
}
