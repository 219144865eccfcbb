import type { ConfigIssue } from './errors.js';
import { compileGlob } from './glob.js';
import type { NormalisedPath } from './paths.js';
import { RuleIndex, safeParseRule } from './rules.js';
import type { PermissionRules, ToolMeta } from './types.js';

/** The built-in tools that read files by path; a deny or ask path rule for any of them covers all of them. */
export const READ_PATH_TOOLS: readonly string[] = Object.freeze(['Read', 'Grep', 'Glob']);

const READ_META: ToolMeta = { capability: 'read', primaryArgument: 'file_path' };

/** A deny or ask path rule that covers reading a path, as `gate.readRestriction(path)` reports it. */
export interface ReadRestriction {
  /** The rule as written in the settings (`Read(**\/.env)`). */
  readonly rule: string;
  /** The list it is in. */
  readonly list: 'deny' | 'ask';
}

/**
 * The deny and ask path rules of the read tools, re-keyed onto one tool so any read tool's path (and the files a
 * search walks) can be checked against all of them. Allow rules and whole-tool rules stay per tool.
 */
export class ReadPathRules {
  private readonly index: RuleIndex | undefined;
  /** Per read tool: only the rules of the other read tools (its own rules already apply to it). */
  private readonly others = new Map<string, RuleIndex | undefined>();
  private readonly original = new Map<string, string>();

  constructor(rules: PermissionRules | undefined) {
    const found: Array<{ list: 'deny' | 'ask'; text: string; covers: readonly string[] }> = [];
    for (const list of ['deny', 'ask'] as const) {
      const entries = rules?.[list];
      if (!Array.isArray(entries)) continue;
      for (const raw of entries as readonly unknown[]) {
        const r = safeParseRule(raw);
        if (!r.ok || r.rule.pattern === undefined) continue;
        const covers = coveredReadTools(r.rule.tool);
        if (covers.length === 0) continue;
        const text = `Read(${r.rule.pattern})`;
        if (!this.original.has(text)) this.original.set(text, r.rule.text);
        found.push({ list, text, covers });
      }
    }
    this.index = build(found);
    for (const tool of READ_PATH_TOOLS)
      this.others.set(tool, build(found.filter((f) => !f.covers.includes(tool))));
  }

  /** The strongest deny/ask path rule of any read tool that covers reading `path`, with its original text. */
  match(path: string, cwd: NormalisedPath | undefined): ReadRestriction | undefined {
    return this.matchIn(this.index, path, cwd);
  }

  /** Like {@link ReadPathRules.match}, leaving out the rules `tool` already has of its own. */
  matchForTool(tool: string, path: string, cwd: NormalisedPath | undefined): ReadRestriction | undefined {
    return this.matchIn(this.others.get(tool), path, cwd);
  }

  private matchIn(
    index: RuleIndex | undefined,
    path: string,
    cwd: NormalisedPath | undefined,
  ): ReadRestriction | undefined {
    if (index === undefined) return undefined;
    const m = index.match('Read', { file_path: path }, READ_META, cwd);
    if (m === undefined || m.decision === 'allow') return undefined;
    return { rule: this.original.get(m.rule) ?? m.rule, list: m.decision };
  }
}

function build(found: ReadonlyArray<{ list: 'deny' | 'ask'; text: string }>): RuleIndex | undefined {
  if (found.length === 0) return undefined;
  const lists = {
    deny: found.filter((f) => f.list === 'deny').map((f) => f.text),
    ask: found.filter((f) => f.list === 'ask').map((f) => f.text),
  };
  const issues: ConfigIssue[] = [];
  const index = new RuleIndex(lists, issues);
  // Every rule was already validated by the gate's own index; an issue here would be a bug: fail closed.
  if (issues.length > 0) throw new Error(`read-path rules failed to compile: ${issues[0]?.message}`);
  return index;
}

function coveredReadTools(tool: string): readonly string[] {
  if (!tool.includes('*')) return READ_PATH_TOOLS.includes(tool) ? [tool] : [];
  const m = compileGlob(tool, 'text');
  return READ_PATH_TOOLS.filter((t) => m.test(t));
}

/** The path a read tool call reads: Read's `file_path`; Grep's and Glob's `path`, else the working directory. */
export function readPathOf(name: string, input: unknown): string | undefined {
  if (!READ_PATH_TOOLS.includes(name)) return undefined;
  if (typeof input !== 'object' || input === null) return undefined;
  const rec = input as Record<string, unknown>;
  if (name === 'Read') return typeof rec.file_path === 'string' ? rec.file_path : undefined;
  const p = Object.hasOwn(rec, 'path') ? rec.path : undefined;
  return typeof p === 'string' && p !== '' ? p : '.';
}
