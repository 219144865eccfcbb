import { isRecord } from '@codeagent/artifact-schema/internal';
import { parseDocument } from 'yaml';
import {
  type ConfigIssue,
  configError,
  describeValue,
  PermissionGateError,
  pathKey,
  quote,
} from './errors.js';
import { RuleIndex } from './rules.js';
import { isCapability, safeToolMeta, type ToolMetaInput } from './tool-meta.js';
import {
  type Capability,
  DECISIONS,
  type Decision,
  PERMISSION_MODES,
  type PermissionMode,
  type PermissionRules,
  type ToolPolicy,
} from './types.js';

/** A permission settings document (JSON or YAML): everything a gate is configured with except the ask callback. */
export interface PermissionConfig {
  /** The permission mode. */
  readonly mode?: PermissionMode;
  /** The seed's tool policy: sets, capabilities, overrides. */
  readonly policy?: ToolPolicy;
  /** Allow / ask / deny rule lists. */
  readonly rules?: PermissionRules;
  /** Host tool classification by name. */
  readonly toolMeta?: Readonly<Record<string, ToolMetaInput>>;
  /** Capability of tools nobody declared; default `exec`. */
  readonly undeclaredCapability?: Capability;
  /** Milliseconds after which a pending ask denies. */
  readonly askTimeoutMs?: number;
}

/** Options of `parsePermissionConfig`. */
export interface ParsePermissionConfigOptions {
  /** The text's format; default: JSON when the text starts with `{`, YAML otherwise. */
  readonly format?: 'json' | 'yaml';
}

const CONFIG_KEYS = new Set(['mode', 'policy', 'rules', 'toolMeta', 'undeclaredCapability', 'askTimeoutMs']);
const POLICY_KEYS = new Set(['sets', 'capabilities', 'overrides']);

function isDecision(v: unknown): v is Decision {
  return typeof v === 'string' && (DECISIONS as readonly string[]).includes(v);
}

/** True when `value` is one of the five permission modes. */
export function isPermissionMode(value: unknown): value is PermissionMode {
  return typeof value === 'string' && (PERMISSION_MODES as readonly string[]).includes(value);
}

function key(path: string, k: string): string {
  return `${path}${pathKey(k)}`;
}

/** Collects the issues of a tool policy value under `path`. */
export function toolPolicyIssues(value: unknown, path: string, issues: ConfigIssue[]): void {
  if (!isRecord(value)) {
    issues.push({ path, message: `expected an object, got ${describeValue(value)}` });
    return;
  }
  for (const k of Object.keys(value)) {
    if (!POLICY_KEYS.has(k))
      issues.push({ path: key(path, k), message: 'unknown key (expected sets, capabilities or overrides)' });
  }
  const { sets, capabilities, overrides } = value;
  if (sets !== undefined) {
    if (!Array.isArray(sets))
      issues.push({
        path: `${path}.sets`,
        message: `expected an array of set names, got ${describeValue(sets)}`,
      });
    else
      sets.forEach((s: unknown, i: number) => {
        if (typeof s !== 'string' || s === '')
          issues.push({
            path: `${path}.sets[${i}]`,
            message: `expected a set name, got ${describeValue(s)}`,
          });
      });
  }
  if (capabilities !== undefined) {
    if (!isRecord(capabilities))
      issues.push({
        path: `${path}.capabilities`,
        message: `expected an object, got ${describeValue(capabilities)}`,
      });
    else
      for (const [k, v] of Object.entries(capabilities)) {
        const p = key(`${path}.capabilities`, k);
        if (!isCapability(k))
          issues.push({
            path: p,
            message: `unknown capability ${quote(k)} (expected read, write, exec or net)`,
          });
        else if (!isDecision(v))
          issues.push({
            path: p,
            message: `invalid decision ${describeValue(v)} (expected allow, ask or deny)`,
          });
      }
  }
  if (overrides !== undefined) {
    if (!isRecord(overrides))
      issues.push({
        path: `${path}.overrides`,
        message: `expected an object, got ${describeValue(overrides)}`,
      });
    else
      for (const [k, v] of Object.entries(overrides)) {
        if (!isDecision(v))
          issues.push({
            path: key(`${path}.overrides`, k),
            message: `invalid decision ${describeValue(v)} (expected allow, ask or deny)`,
          });
      }
  }
}

/** Validates a parsed settings value; throws a `PermissionGateError` listing every issue with its path. */
export function validatePermissionConfig(value: unknown): PermissionConfig {
  const issues: ConfigIssue[] = [];
  if (!isRecord(value))
    throw configError([{ path: '(root)', message: `expected an object, got ${describeValue(value)}` }]);
  for (const k of Object.keys(value)) {
    if (!CONFIG_KEYS.has(k)) issues.push({ path: key('', k).replace(/^\./, ''), message: 'unknown key' });
  }
  const { mode, policy, rules, toolMeta, undeclaredCapability, askTimeoutMs } = value;
  if (mode !== undefined && !isPermissionMode(mode)) {
    issues.push({
      path: 'mode',
      message: `unknown mode ${describeValue(mode)} (expected ${PERMISSION_MODES.join(', ')})`,
    });
  }
  if (policy !== undefined) toolPolicyIssues(policy, 'policy', issues);
  if (rules !== undefined) new RuleIndex(rules, issues);
  if (toolMeta !== undefined) {
    if (!isRecord(toolMeta))
      issues.push({ path: 'toolMeta', message: `expected an object, got ${describeValue(toolMeta)}` });
    else
      for (const [k, v] of Object.entries(toolMeta)) {
        const r = safeToolMeta(v);
        if (!r.ok) issues.push({ path: key('toolMeta', k), message: r.error });
      }
  }
  if (undeclaredCapability !== undefined && !isCapability(undeclaredCapability)) {
    issues.push({
      path: 'undeclaredCapability',
      message: `unknown capability ${describeValue(undeclaredCapability)}`,
    });
  }
  if (
    askTimeoutMs !== undefined &&
    !(typeof askTimeoutMs === 'number' && Number.isFinite(askTimeoutMs) && askTimeoutMs > 0)
  ) {
    issues.push({
      path: 'askTimeoutMs',
      message: `expected a positive number of milliseconds, got ${describeValue(askTimeoutMs)}`,
    });
  }
  if (issues.length > 0) throw configError(issues);
  return value as PermissionConfig;
}

/** Parses and validates a JSON or YAML settings text; errors name the offending path (`rules.deny[2]: ...`). */
export function parsePermissionConfig(
  text: string,
  options: ParsePermissionConfigOptions = {},
): PermissionConfig {
  if (typeof text !== 'string') {
    throw configError([{ path: '(root)', message: `expected settings text, got ${describeValue(text)}` }]);
  }
  const format = options.format ?? (text.trimStart().startsWith('{') ? 'json' : 'yaml');
  let value: unknown;
  try {
    if (format === 'json') value = JSON.parse(text);
    else {
      const doc = parseDocument(text, { prettyErrors: true, uniqueKeys: true });
      const first = doc.errors[0];
      if (first) throw new Error(first.message);
      value = doc.toJS({ maxAliasCount: 100 });
    }
  } catch (e) {
    if (e instanceof PermissionGateError) throw e;
    const why = e instanceof Error ? e.message.split('\n')[0] : String(e);
    throw configError([{ path: '(root)', message: `invalid ${format.toUpperCase()}: ${why}` }]);
  }
  if (value === null || value === undefined) value = {};
  return validatePermissionConfig(value);
}
