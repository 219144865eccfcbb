import { type ConfigIssue, configError, describeValue, pathKey, quote } from './errors.js';
import { compileGlob, type GlobMatcher, GlobSyntaxError } from './glob.js';
import { allowCandidates, type NormalisedPath, restrictCandidates } from './paths.js';
import { analyseShellCommand, type ShellAnalysis } from './shell/analyse.js';
import type { Decision, RuleList, ToolMeta } from './types.js';

/** Input keys tried, in order, for a rule pattern's primary argument. */
export const PRIMARY_ARGUMENT_KEYS: readonly string[] = Object.freeze([
  'command',
  'file_path',
  'path',
  'pattern',
  'url',
]);

/** Keys whose value is matched as free text (`*` crosses `/` and spaces); every other key is a path. */
const TEXT_KEYS = new Set(['command', 'url']);

/** A rule string split into its parts. */
export interface ParsedRule {
  /** The rule as written (trimmed). */
  readonly text: string;
  /** The tool name or tool-name glob (`mcp__server__*`). */
  readonly tool: string;
  /** The glob on the primary argument, absent for a whole-tool rule. */
  readonly pattern?: string;
}

const TOOL_NAME = /^[A-Za-z0-9_.:*-]+$/;
const RULE_SHAPE = /^([^()]+?)\(([\s\S]*)\)$/;

interface Compiled {
  readonly rule: ParsedRule;
  readonly path: GlobMatcher | undefined;
  readonly free: GlobMatcher | undefined;
  readonly tool: GlobMatcher | undefined;
}

function compileRule(raw: unknown): { ok: true; compiled: Compiled } | { ok: false; error: string } {
  if (typeof raw !== 'string') return { ok: false, error: `a rule must be a string, got ${typeof raw}` };
  const text = raw.trim();
  const bad = (why: string) => ({ ok: false as const, error: `unparsable rule ${quote(raw)} (${why})` });
  if (text === '') return bad('empty');
  let tool: string;
  let pattern: string | undefined;
  if (!text.includes('(') && !text.includes(')')) {
    tool = text;
    if (!TOOL_NAME.test(tool)) return bad('tool names use letters, digits, _ . : - and *');
  } else {
    const m = RULE_SHAPE.exec(text);
    if (!m) return bad('expected Tool or Tool(pattern)');
    tool = (m[1] as string).trim();
    pattern = m[2] as string;
    if (!TOOL_NAME.test(tool)) return bad('tool names use letters, digits, _ . : - and *');
    if (pattern.trim() === '') return bad('empty pattern; write the tool name alone to match every call');
    if (!balanced(pattern)) return bad('unbalanced parentheses in pattern');
    // Settings-file spelling `Bash(npm run test:*)` means a prefix match.
    if (pattern.endsWith(':*') && !pattern.endsWith('\\:*')) pattern = `${pattern.slice(0, -2)}*`;
  }
  try {
    return {
      ok: true,
      compiled: {
        rule: pattern === undefined ? { text, tool } : { text, tool, pattern },
        path: pattern === undefined ? undefined : compileGlob(pathPattern(pattern), 'path'),
        free: pattern === undefined ? undefined : compileGlob(pattern, 'text'),
        tool: tool.includes('*') ? compileGlob(tool, 'text') : undefined,
      },
    };
  } catch (e) {
    if (e instanceof GlobSyntaxError) return bad(e.message);
    throw e;
  }
}

/** The result of `safeParseRule`. */
export type SafeParseRuleResult =
  | {
      /** The rule parsed. */
      readonly ok: true;
      /** The parsed rule. */
      readonly rule: ParsedRule;
    }
  | {
      /** The rule did not parse. */
      readonly ok: false;
      /** Why, starting with `unparsable rule "<rule>"`. */
      readonly error: string;
    };

/** Path patterns are written relative to the working directory; a leading `./` matches normalised paths. */
function pathPattern(pattern: string): string {
  return pattern.replace(/^(?:\.\/)+(?=.)/, '');
}

/** Parses `Tool` or `Tool(pattern)`; returns an error string for an unparsable rule. */
export function safeParseRule(raw: unknown): SafeParseRuleResult {
  const r = compileRule(raw);
  return r.ok ? { ok: true, rule: r.compiled.rule } : r;
}

/** Parses `Tool` or `Tool(pattern)`; throws a `PermissionGateError` (code `invalid-rule`) when unparsable. */
export function parseRule(raw: string): ParsedRule {
  const r = safeParseRule(raw);
  if (!r.ok) throw configError([{ path: 'rule', message: r.error }]);
  return r.rule;
}

function balanced(s: string): boolean {
  let depth = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s[i];
    if (c === '\\') {
      i++;
      continue;
    }
    if (c === '(') depth++;
    else if (c === ')' && --depth < 0) return false;
  }
  return depth === 0;
}

/** Shell syntax that chains, substitutes or redirects. */
const SHELL_META = /[;&|`\n\r<>\u0000]|\$\(/;

/** Whitespace, control characters and backslashes: a URL containing any of them never matches an allow rule. */
const UNSAFE_URL = /[\u0000-\u0020\u007f-\u009f\\]/;

/** True when a shell command contains chaining, substitution or redirection syntax (a lexical check, no parse). */
export function hasShellMetacharacters(command: string): boolean {
  return SHELL_META.test(command);
}

interface CompiledRule {
  readonly text: string;
  readonly list: RuleList;
  readonly pattern: string | undefined;
  readonly path: GlobMatcher | undefined;
  readonly free: GlobMatcher | undefined;
  readonly textPrefix: string;
  readonly pathPrefix: string;
}

interface ToolMatcher {
  readonly tool: GlobMatcher;
  readonly rule: CompiledRule;
}

/** Rules for one tool name, split by list, whole-tool rules first. */
interface Bucket {
  readonly deny: readonly CompiledRule[];
  readonly ask: readonly CompiledRule[];
  readonly allow: readonly CompiledRule[];
}

const EMPTY_BUCKET: Bucket = { deny: [], ask: [], allow: [] };
const LISTS: readonly RuleList[] = ['deny', 'ask', 'allow'];
const BUCKET_CACHE_LIMIT = 1024;

/** A rule that matched, with the list it came from. */
export interface RuleMatch {
  /** The rule text. */
  readonly rule: string;
  /** The list the rule is in. */
  readonly list: RuleList;
  /** What the match decides: the list, or `ask` when the command could not be analysed (ADR 0100). */
  readonly decision: Decision;
  /** Why the command could not be analysed, when the rule only may apply. */
  readonly unanalysable?: string;
}

/** Rules compiled into a per-tool index, so evaluation touches only the rules that name the tool. */
export class RuleIndex {
  private readonly exact = new Map<
    string,
    { deny: CompiledRule[]; ask: CompiledRule[]; allow: CompiledRule[] }
  >();
  private readonly wildcard: ToolMatcher[] = [];
  private readonly cache = new Map<string, Bucket>();
  /** Number of rules compiled. */
  readonly size: number;

  /** Compiles rules; problems are appended to `issues` (each with its path) instead of thrown. */
  constructor(rules: unknown, issues: ConfigIssue[], pathPrefix = 'rules') {
    let size = 0;
    if (rules !== undefined && (typeof rules !== 'object' || rules === null || Array.isArray(rules))) {
      issues.push({
        path: pathPrefix,
        message: `expected {allow?, ask?, deny?}, got ${describeValue(rules)}`,
      });
      rules = undefined;
    }
    const rec = (rules ?? {}) as Record<string, unknown>;
    for (const k of Object.keys(rec)) {
      if (!(LISTS as readonly string[]).includes(k)) {
        issues.push({
          path: `${pathPrefix}${pathKey(k)}`,
          message: 'unknown key (expected allow, ask or deny)',
        });
      }
    }
    for (const list of LISTS) {
      const entries = Object.hasOwn(rec, list) ? rec[list] : undefined;
      if (entries === undefined) continue;
      if (!Array.isArray(entries)) {
        issues.push({
          path: `${pathPrefix}.${list}`,
          message: `expected an array of rule strings, got ${describeValue(entries)}`,
        });
        continue;
      }
      entries.forEach((raw: unknown, i: number) => {
        const r = compileRule(raw);
        if (!r.ok) {
          issues.push({ path: `${pathPrefix}.${list}[${i}]`, message: r.error });
          return;
        }
        size++;
        const { rule, path, free, tool } = r.compiled;
        const compiled: CompiledRule = {
          text: rule.text,
          list,
          pattern: rule.pattern,
          path,
          free,
          textPrefix: rule.pattern === undefined ? '' : literalPrefix(rule.pattern),
          pathPrefix: rule.pattern === undefined ? '' : literalPrefix(pathPattern(rule.pattern)),
        };
        if (tool !== undefined) {
          this.wildcard.push({ tool, rule: compiled });
        } else {
          let b = this.exact.get(rule.tool);
          if (!b) {
            b = { deny: [], ask: [], allow: [] };
            this.exact.set(rule.tool, b);
          }
          b[list].push(compiled);
        }
      });
    }
    this.size = size;
  }

  private bucket(name: string): Bucket {
    const hit = this.cache.get(name);
    if (hit) return hit;
    const own = this.exact.get(name);
    let b: Bucket;
    if (this.wildcard.length === 0) b = own ?? EMPTY_BUCKET;
    else {
      const merged = {
        deny: [...(own?.deny ?? [])],
        ask: [...(own?.ask ?? [])],
        allow: [...(own?.allow ?? [])],
      };
      for (const w of this.wildcard) if (w.tool.test(name)) merged[w.rule.list].push(w.rule);
      b = merged;
    }
    const sorted: Bucket = {
      deny: wholeFirst(b.deny),
      ask: wholeFirst(b.ask),
      allow: wholeFirst(b.allow),
    };
    if (this.cache.size >= BUCKET_CACHE_LIMIT) this.cache.clear();
    this.cache.set(name, sorted);
    return sorted;
  }

  /** The strongest matching rule for a call (deny beats ask beats allow), or `undefined`. */
  match(
    name: string,
    input: unknown,
    meta: ToolMeta | undefined,
    cwd: NormalisedPath | undefined,
  ): RuleMatch | undefined {
    const b = this.bucket(name);
    if (b.deny.length === 0 && b.ask.length === 0 && b.allow.length === 0) return undefined;
    const subject = new Subject(primaryArgument(input, meta), cwd);
    for (const list of RESTRICTIVE) {
      for (const rule of b[list]) {
        if (ruleMatches(rule, subject)) return { rule: rule.text, list, decision: list };
      }
    }
    const command = subject.command();
    if (command !== undefined) {
      // Fail closed: a line the analyser cannot see through may run anything a deny or ask rule names.
      const why = command.unanalysable;
      const restricting = why === undefined ? undefined : (b.deny.find(hasPattern) ?? b.ask.find(hasPattern));
      if (restricting && why !== undefined) {
        return { rule: restricting.text, list: restricting.list, decision: 'ask', unanalysable: why };
      }
      const allowed = allowCommand(b.allow, command);
      return allowed && { rule: allowed.text, list: 'allow', decision: 'allow' };
    }
    for (const rule of b.allow) {
      if (ruleMatches(rule, subject)) return { rule: rule.text, list: 'allow', decision: 'allow' };
    }
    return undefined;
  }
}

const RESTRICTIVE = ['deny', 'ask'] as const;

function hasPattern(rule: CompiledRule): boolean {
  return rule.pattern !== undefined;
}

/**
 * The allow rule for a command line, when every simple command in it matches an allow rule (a whole-tool
 * rule covers all). Never for a line that cannot be analysed, that writes to a file, or that has no command.
 */
function allowCommand(rules: readonly CompiledRule[], a: ShellAnalysis): CompiledRule | undefined {
  const whole = rules.find((r) => r.pattern === undefined);
  if (whole) return whole;
  if (a.unanalysable !== undefined || a.notAllowable !== undefined || a.commands.length === 0)
    return undefined;
  let first: CompiledRule | undefined;
  for (const spellings of a.commands) {
    const rule = rules.find((r) => spellings.some((s) => test(r.free as GlobMatcher, r.textPrefix, s)));
    if (!rule) return undefined;
    first ??= rule;
  }
  return first;
}

function wholeFirst(rules: readonly CompiledRule[]): readonly CompiledRule[] {
  return [...rules.filter((r) => r.pattern === undefined), ...rules.filter((r) => r.pattern !== undefined)];
}

/** The key and string value a pattern is matched against. */
interface PrimaryArgument {
  readonly key: string;
  readonly value: string;
}

/** Finds the primary argument of a tool input: the declared key, else the first string among the primary keys. */
export function primaryArgument(input: unknown, meta?: ToolMeta): PrimaryArgument | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const rec = input as Record<string, unknown>;
  if (meta?.primaryArgument !== undefined) {
    const v = Object.hasOwn(rec, meta.primaryArgument) ? rec[meta.primaryArgument] : undefined;
    return typeof v === 'string' ? { key: meta.primaryArgument, value: v } : undefined;
  }
  for (const key of PRIMARY_ARGUMENT_KEYS) {
    if (!Object.hasOwn(rec, key)) continue;
    const v = rec[key];
    if (typeof v === 'string') return { key, value: v };
  }
  return undefined;
}

/** The primary argument of one call, with the derived forms computed at most once per evaluation. */
class Subject {
  private allowForms: string[] | undefined;
  private restrictForms: string[] | undefined;
  private analysis: ShellAnalysis | undefined;

  constructor(
    readonly arg: PrimaryArgument | undefined,
    private readonly cwd: NormalisedPath | undefined,
  ) {}

  allowCandidates(value: string): string[] {
    this.allowForms ??= allowCandidates(value, this.cwd);
    return this.allowForms;
  }

  restrictCandidates(value: string): string[] {
    this.restrictForms ??= restrictCandidates(value, this.cwd);
    return this.restrictForms;
  }

  /** The shell analysis of a `command` argument, or `undefined` when the argument is not a command. */
  command(): ShellAnalysis | undefined {
    if (this.arg?.key !== 'command') return undefined;
    this.analysis ??= analyseShellCommand(this.arg.value);
    return this.analysis;
  }
}

function test(m: GlobMatcher, prefix: string, s: string): boolean {
  return s.startsWith(prefix) && m.test(s);
}

function ruleMatches(rule: CompiledRule, subject: Subject): boolean {
  if (rule.pattern === undefined) return true;
  const restrictive = rule.list !== 'allow';
  const arg = subject.arg;
  // Fail closed: a deny/ask pattern applies when the argument cannot be determined; an allow pattern never does.
  if (arg === undefined) return restrictive;
  const { value, key } = arg;
  if (TEXT_KEYS.has(key)) {
    const re = rule.free as GlobMatcher;
    if (!restrictive) {
      if (key === 'command') return false; // commands are allowed by allowCommand, one simple command at a time
      if (UNSAFE_URL.test(value)) return false;
      return test(re, rule.textPrefix, value);
    }
    if (test(re, rule.textPrefix, value)) return true;
    if (key !== 'command') return false;
    // A deny/ask rule also applies to every simple command in the line, unwrapped: `ls; sudo rm -rf /`.
    return (subject.command()?.forms ?? []).some((form) => test(re, rule.textPrefix, form));
  }
  const re = rule.path as GlobMatcher;
  const candidates = restrictive ? subject.restrictCandidates(value) : subject.allowCandidates(value);
  return candidates.some((c) => test(re, rule.pathPrefix, c));
}

/** The literal text a pattern starts with (before any glob syntax); a cheap pre-check before the matcher. */
function literalPrefix(pattern: string): string {
  const i = pattern.search(/[*?[{\\]/);
  return i === -1 ? pattern : pattern.slice(0, i);
}
