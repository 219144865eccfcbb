import type { PermissionConfig } from './config.js';
import { quote } from './errors.js';
import { MODE_TABLE } from './mode-table.js';
import { safeParseRule } from './rules.js';
import {
  CAPABILITIES,
  type Capability,
  type Decision,
  type PermissionMode,
  type PermissionRules,
  type ToolPolicy,
} from './types.js';

const RANK: Readonly<Record<Decision, number>> = { allow: 0, ask: 1, deny: 2 };

/** True when mode `a` decides every capability at least as strictly as mode `b`. */
export function isModeAtLeastAsStrict(a: PermissionMode, b: PermissionMode): boolean {
  return CAPABILITIES.every((c) => RANK[MODE_TABLE[a][c]] >= RANK[MODE_TABLE[b][c]]);
}

/** What `narrowPermissionConfig` kept and what it dropped. */
export interface NarrowedConfig {
  /** The settings with every widening entry removed. */
  readonly config: PermissionConfig;
  /** One line per dropped entry, naming its path and value (`rules.allow[0] "Bash"`). */
  readonly dropped: readonly string[];
}

/**
 * Keeps only what can narrow permissions: deny and ask rules, `deny` policy entries (an `ask` override becomes an
 * ask rule), tool sets, a mode at least as strict as `baseMode`, and the ask timeout. Allow rules, `allow` policy entries, tool reclassification
 * and `undeclaredCapability` are dropped and listed. Used for a project settings file of an untrusted workspace.
 */
export function narrowPermissionConfig(config: PermissionConfig, baseMode: PermissionMode): NarrowedConfig {
  const dropped: string[] = [];
  const out: {
    -readonly [K in keyof PermissionConfig]: PermissionConfig[K];
  } = {};
  if (config.mode !== undefined) {
    if (isModeAtLeastAsStrict(config.mode, baseMode)) out.mode = config.mode;
    else dropped.push(`mode ${quote(config.mode)} (less strict than ${baseMode})`);
  }
  const ask: string[] = [...(config.rules?.ask ?? [])];
  if (config.rules !== undefined) {
    config.rules.allow?.forEach((r, i) => {
      dropped.push(`rules.allow[${i}] ${quote(r)}`);
    });
  }
  const deny = config.rules?.deny;
  if (config.policy !== undefined) {
    const policy: { -readonly [K in keyof ToolPolicy]: ToolPolicy[K] } = {};
    if (config.policy.sets !== undefined) policy.sets = config.policy.sets;
    // Policy outranks rules and the mode: only its `deny` entries are sure to narrow. An `ask` override
    // becomes an ask rule (which never lifts a mode deny); an `ask` capability has no rule form.
    const caps: Partial<Record<Capability, Decision>> = {};
    for (const [k, v] of Object.entries(config.policy.capabilities ?? {})) {
      if (v === 'deny') caps[k as Capability] = v;
      else if (v === 'ask')
        dropped.push(
          `policy.capabilities.${k} "ask" (a policy ask outranks a mode deny; write an ask rule instead)`,
        );
      else if (v !== undefined) dropped.push(`policy.capabilities.${k} "${v}"`);
    }
    if (Object.keys(caps).length > 0) policy.capabilities = caps;
    const overrides: Record<string, Decision> = {};
    for (const [k, v] of Object.entries(config.policy.overrides ?? {})) {
      if (v === 'deny') overrides[k] = v;
      else if (v === 'ask') ask.push(k);
      else dropped.push(`policy.overrides[${quote(k)}] "${v}"`);
    }
    if (Object.keys(overrides).length > 0) policy.overrides = overrides;
    out.policy = policy;
  }
  if (config.rules !== undefined || ask.length > 0) {
    out.rules = { ...(deny !== undefined ? { deny } : {}), ...(ask.length > 0 ? { ask } : {}) };
  }
  for (const name of Object.keys(config.toolMeta ?? {})) dropped.push(`toolMeta[${quote(name)}]`);
  if (config.undeclaredCapability !== undefined) {
    dropped.push(`undeclaredCapability ${quote(config.undeclaredCapability)}`);
  }
  if (config.askTimeoutMs !== undefined) out.askTimeoutMs = config.askTimeoutMs;
  return { config: out, dropped };
}

/**
 * Merges settings layers, earliest first (user, then project): rule lists are concatenated, policy entries keep
 * the strictest decision per key, tool sets intersect, a later `mode` / scalar replaces an earlier one.
 */
export function mergePermissionConfigs(...layers: readonly PermissionConfig[]): PermissionConfig {
  const rules: { allow: string[]; ask: string[]; deny: string[] } = { allow: [], ask: [], deny: [] };
  const caps: Partial<Record<Capability, Decision>> = {};
  const overrides: Record<string, Decision> = {};
  let sets: string[] | undefined;
  const out: { -readonly [K in keyof PermissionConfig]: PermissionConfig[K] } = {};
  let anyRules = false;
  let anyPolicy = false;
  for (const layer of layers) {
    if (layer.mode !== undefined) out.mode = layer.mode;
    if (layer.undeclaredCapability !== undefined) out.undeclaredCapability = layer.undeclaredCapability;
    if (layer.askTimeoutMs !== undefined) out.askTimeoutMs = layer.askTimeoutMs;
    if (layer.toolMeta !== undefined) out.toolMeta = { ...out.toolMeta, ...layer.toolMeta };
    if (layer.rules !== undefined) {
      anyRules = true;
      for (const list of ['allow', 'ask', 'deny'] as const) rules[list].push(...(layer.rules[list] ?? []));
    }
    const p = layer.policy;
    if (p !== undefined) {
      anyPolicy = true;
      if (p.sets !== undefined)
        sets = sets === undefined ? [...p.sets] : sets.filter((s) => p.sets?.includes(s));
      for (const [k, v] of Object.entries(p.capabilities ?? {})) {
        const cur = caps[k as Capability];
        if (v !== undefined && (cur === undefined || RANK[v] > RANK[cur])) caps[k as Capability] = v;
      }
      for (const [k, v] of Object.entries(p.overrides ?? {})) {
        const cur = overrides[k];
        if (cur === undefined || RANK[v] > RANK[cur]) overrides[k] = v;
      }
    }
  }
  if (anyRules) out.rules = rules;
  if (anyPolicy) {
    out.policy = {
      ...(sets !== undefined ? { sets } : {}),
      ...(Object.keys(caps).length > 0 ? { capabilities: caps } : {}),
      ...(Object.keys(overrides).length > 0 ? { overrides } : {}),
    };
  }
  return out;
}

/** A rule that names a tool nobody registered: it matches nothing. */
export interface UnknownRuleTool {
  /** Where the rule is, e.g. `rules.deny[0]`. */
  readonly path: string;
  /** The rule as written. */
  readonly rule: string;
  /** The tool name it uses. */
  readonly tool: string;
  /** A known name it probably meant (same letters in another case, or one edit away), if any. */
  readonly suggestion?: string;
}

/**
 * Rules whose tool name matches none of `knownTools` (exact names; a tool glob such as `mcp__*` counts as known
 * when it matches one, and `mcp__` names are never reported since MCP tools arrive later). Unparsable rules are
 * skipped: the gate reports those itself.
 */
export function findUnknownRuleTools(
  rules: PermissionRules | undefined,
  knownTools: readonly string[],
): UnknownRuleTool[] {
  const out: UnknownRuleTool[] = [];
  const known = new Set(knownTools);
  for (const list of ['deny', 'ask', 'allow'] as const) {
    (rules?.[list] ?? []).forEach((raw, i) => {
      const r = safeParseRule(raw);
      if (!r.ok) return;
      const tool = r.rule.tool;
      if (known.has(tool) || tool.startsWith('mcp__') || tool.includes('*')) return;
      const suggestion = nearMiss(tool, knownTools);
      out.push({
        path: `rules.${list}[${i}]`,
        rule: r.rule.text,
        tool,
        ...(suggestion !== undefined ? { suggestion } : {}),
      });
    });
  }
  return out;
}

/** A one-line warning for an unknown rule tool, listing the known names. */
export function describeUnknownRuleTool(u: UnknownRuleTool, knownTools: readonly string[]): string {
  const hint = u.suggestion !== undefined ? `; did you mean ${quote(u.suggestion)}?` : '';
  return `${u.path}: rule ${quote(u.rule)} names unknown tool ${quote(u.tool)} and matches nothing${hint} (known tools: ${[...knownTools].sort().join(', ')})`;
}

function nearMiss(name: string, known: readonly string[]): string | undefined {
  const lower = name.toLowerCase();
  const sameCase = known.find((k) => k.toLowerCase() === lower);
  if (sameCase !== undefined) return sameCase;
  return known.find((k) => editDistanceAtMostOne(k.toLowerCase(), lower));
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (a.length === b.length && a.length > 1) {
    // One swap of neighbours (`Grpe` for `Grep`) counts as one edit.
    const diff = [...a].flatMap((c, i) => (c === b[i] ? [] : [i]));
    const [i, j] = diff;
    if (diff.length === 2 && i !== undefined && j === i + 1 && a[i] === b[j] && a[j] === b[i]) return true;
  }
  if (Math.abs(a.length - b.length) > 1 || a === b) return a === b;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}
