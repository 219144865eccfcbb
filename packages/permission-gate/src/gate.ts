import { configError, type ConfigIssue, describeValue, PermissionGateError } from './errors.js';
import { isPermissionMode, toolPolicyIssues } from './config.js';
import { MODE_TABLE } from './mode-table.js';
import { normalisePath, type NormalisedPath } from './paths.js';
import { RuleIndex } from './rules.js';
import {
  createToolMetaRegistry,
  isCapability,
  type ToolMetaInput,
  type ToolMetaRegistry,
} from './tool-meta.js';
import type {
  AskCallback,
  AskOutcome,
  Capability,
  CheckRequest,
  CheckResult,
  CheckSource,
  Decision,
  Evaluation,
  PermissionMode,
  PermissionRules,
  ToolPolicy,
} from './types.js';

/** Options of `createPermissionGate` (and of `installPermissionGate`). */
export interface PermissionGateOptions {
  /** The permission mode; default `default`. */
  readonly mode?: PermissionMode;
  /** The seed's tool policy: sets, capabilities, overrides. */
  readonly policy?: ToolPolicy;
  /** Allow / ask / deny rule lists; an unparsable rule throws at creation. */
  readonly rules?: PermissionRules;
  /** Host tool classification, as a record or a registry to use (and share) as this gate's own. */
  readonly toolMeta?: Readonly<Record<string, ToolMetaInput>> | ToolMetaRegistry;
  /** The host's approval callback; without one every `ask` denies. */
  readonly ask?: AskCallback | null;
  /** Capability of tools nobody declared; default `exec` (see ADR 0030). */
  readonly undeclaredCapability?: Capability;
  /** Milliseconds after which a pending ask denies; default: no timeout. */
  readonly askTimeoutMs?: number;
  /** Working directory used to relate absolute paths to relative path rules. */
  readonly cwd?: string;
}

/** A live update of a gate: present keys replace the current value, `toolMeta` entries are added. */
export type PermissionGateUpdate = PermissionGateOptions;

/** A permission gate: decides tool calls synchronously (`evaluate`) and asynchronously with approval (`check`). */
export interface PermissionGate {
  /** The current permission mode. */
  readonly mode: PermissionMode;
  /** This gate's tool-metadata registry. */
  readonly toolMeta: ToolMetaRegistry;
  /** Decides a call without asking anyone; never throws (an internal error denies). */
  evaluate(name: string, input: unknown): Evaluation;
  /** Decides a call, asking the host when the decision is `ask`; never rejects (failures deny). */
  check(request: CheckRequest): Promise<CheckResult>;
  /** Classifies a host tool on this gate; built-in tools cannot be reclassified. */
  registerToolMeta(name: string, meta: ToolMetaInput): void;
  /** Updates mode, policy, rules, ask callback and other options in place; validates before applying. */
  configure(update: PermissionGateUpdate): void;
  /** Names of tools granted for the rest of the session on this gate. */
  sessionGrants(): readonly string[];
  /** Forgets session grants: one tool's, or all when no name is given. */
  revokeSessionGrants(name?: string): void;
}

interface State {
  mode: PermissionMode;
  sets: ReadonlySet<string> | undefined;
  capabilities: ReadonlyMap<Capability, Decision>;
  overrides: ReadonlyMap<string, Decision>;
  rules: RuleIndex;
  ask: AskCallback | null;
  undeclared: Capability;
  askTimeoutMs: number | undefined;
  cwd: NormalisedPath | undefined;
}

const gates = new WeakSet<object>();

/** True when `value` is a gate made by `createPermissionGate` of this package copy. */
export function isPermissionGate(value: unknown): value is PermissionGate {
  return typeof value === 'object' && value !== null && gates.has(value);
}

function isRegistry(v: unknown): v is ToolMetaRegistry {
  return (
    typeof v === 'object' &&
    v !== null &&
    typeof (v as ToolMetaRegistry).register === 'function' &&
    typeof (v as ToolMetaRegistry).get === 'function'
  );
}

function buildPolicy(policy: ToolPolicy | undefined): Pick<State, 'sets' | 'capabilities' | 'overrides'> {
  const capabilities = new Map<Capability, Decision>();
  const overrides = new Map<string, Decision>();
  for (const [k, v] of Object.entries(policy?.capabilities ?? {})) {
    if (isCapability(k) && v !== undefined) capabilities.set(k, v);
  }
  for (const [k, v] of Object.entries(policy?.overrides ?? {})) overrides.set(k, v);
  return { sets: policy?.sets === undefined ? undefined : new Set(policy.sets), capabilities, overrides };
}

function optionIssues(o: PermissionGateOptions, issues: ConfigIssue[]): void {
  if (typeof o !== 'object' || o === null) {
    issues.push({ path: '(options)', message: `expected an options object, got ${describeValue(o)}` });
    return;
  }
  if (o.mode !== undefined && !isPermissionMode(o.mode))
    issues.push({ path: 'mode', message: `unknown mode ${describeValue(o.mode)}` });
  if (o.policy !== undefined) toolPolicyIssues(o.policy, 'policy', issues);
  const tm: unknown = o.toolMeta;
  if (tm !== undefined && !isRegistry(tm) && (typeof tm !== 'object' || tm === null || Array.isArray(tm))) {
    issues.push({ path: 'toolMeta', message: `expected a record or a registry, got ${describeValue(tm)}` });
  }
  if (o.undeclaredCapability !== undefined && !isCapability(o.undeclaredCapability)) {
    issues.push({
      path: 'undeclaredCapability',
      message: `unknown capability ${describeValue(o.undeclaredCapability)}`,
    });
  }
  if (o.ask !== undefined && o.ask !== null && typeof o.ask !== 'function') {
    issues.push({ path: 'ask', message: `expected a function or null, got ${describeValue(o.ask)}` });
  }
  const t = o.askTimeoutMs;
  if (t !== undefined && !(typeof t === 'number' && Number.isFinite(t) && t > 0)) {
    issues.push({
      path: 'askTimeoutMs',
      message: `expected a positive number of milliseconds, got ${describeValue(t)}`,
    });
  }
  if (o.cwd !== undefined && (typeof o.cwd !== 'string' || !normalisePath(o.cwd).absolute)) {
    issues.push({ path: 'cwd', message: `expected an absolute path, got ${describeValue(o.cwd)}` });
  }
}

/** A one-line reason for an evaluation, as used in check results and denial messages. */
export function describeEvaluation(e: Evaluation): string {
  const s = e.source;
  switch (s.kind) {
    case 'set':
      return `tool set "${s.set}" is not enabled`;
    case 'override':
      return `policy override for ${s.tool}: ${e.decision}`;
    case 'capability':
      return `policy for ${s.capability} tools: ${e.decision}`;
    case 'rule':
      return s.unanalysable === undefined
        ? `${s.list} rule ${s.rule}`
        : `${s.list} rule ${s.rule} may apply: ${s.unanalysable}`;
    case 'mode':
      return `${s.mode} mode: ${e.decision} for ${e.capability}`;
    case 'error':
      return `internal error while deciding: ${s.message}`;
    default:
      return assertNever(s);
  }
}

/** Marks unreachable code in exhaustive switches. */
export function assertNever(value: never): never {
  throw new Error(`unexpected value: ${JSON.stringify(value)}`);
}

function errorMessage(e: unknown): string {
  try {
    return e instanceof Error ? e.message : String(e);
  } catch {
    return 'unprintable error';
  }
}

/** Interprets an ask callback's value: only literal `true` or `{allow: true, scope}` allows. */
function readAskResult(
  v: unknown,
):
  | { allowed: true; scope: 'once' | 'session' }
  | { allowed: false; outcome: Exclude<AskOutcome, 'approved'> } {
  if (v === true) return { allowed: true, scope: 'once' };
  if (v === false) return { allowed: false, outcome: 'declined' };
  if (typeof v === 'object' && v !== null && !Array.isArray(v)) {
    const rec = v as Record<string, unknown>;
    const allow = rec.allow;
    const scope = rec.scope;
    if (allow === true && (scope === 'once' || scope === 'session')) return { allowed: true, scope };
    if (allow === false) return { allowed: false, outcome: 'declined' };
  }
  return { allowed: false, outcome: 'invalid' };
}

const ASK_REASONS: Record<Exclude<AskOutcome, 'approved'>, string> = {
  declined: 'declined by the user',
  invalid: 'approval callback returned an invalid value; only true or {allow: true, scope} allow',
  threw: 'approval callback failed',
  timeout: 'approval timed out',
  aborted: 'approval aborted',
  'no-callback': 'approval required but no ask callback is installed',
};

/** Creates a permission gate; throws a `PermissionGateError` naming every invalid option (e.g. `rules.deny[2]`). */
export function createPermissionGate(options: PermissionGateOptions = {}): PermissionGate {
  const issues: ConfigIssue[] = [];
  optionIssues(options, issues);
  const rules = new RuleIndex(options?.rules, issues);
  if (issues.length > 0) throw configError(issues);

  let registry: ToolMetaRegistry;
  if (isRegistry(options.toolMeta)) registry = options.toolMeta;
  else
    registry = createToolMetaRegistry(
      options.toolMeta as Readonly<Record<string, ToolMetaInput>> | undefined,
    );

  const state: State = {
    mode: options.mode ?? 'default',
    ...buildPolicy(options.policy),
    rules,
    ask: options.ask ?? null,
    undeclared: options.undeclaredCapability ?? 'exec',
    askTimeoutMs: options.askTimeoutMs,
    cwd: options.cwd === undefined ? undefined : normalisePath(options.cwd),
  };
  const granted = new Set<string>();

  function decide(name: string, input: unknown): Evaluation {
    const meta = registry.get(name);
    const capability = meta?.capability ?? state.undeclared;
    if (state.sets !== undefined && meta?.set !== undefined && !state.sets.has(meta.set)) {
      return { decision: 'deny', capability, source: { kind: 'set', set: meta.set } };
    }
    const override = state.overrides.get(name);
    if (override !== undefined)
      return { decision: override, capability, source: { kind: 'override', tool: name } };
    const byCapability = state.capabilities.get(capability);
    if (byCapability !== undefined) {
      return { decision: byCapability, capability, source: { kind: 'capability', capability } };
    }
    const fromMode = MODE_TABLE[state.mode][capability];
    const match = state.rules.match(name, input, meta, state.cwd);
    // Rules tighten the mode, and allow rules lift an `ask`, but no rule lifts the mode's `deny` (ADR 0031).
    if (match !== undefined && (match.decision === 'deny' || fromMode !== 'deny')) {
      const why = match.unanalysable;
      return {
        decision: match.decision,
        capability,
        source: {
          kind: 'rule',
          rule: match.rule,
          list: match.list,
          ...(why !== undefined ? { unanalysable: why } : {}),
        },
        rule: match.rule,
      };
    }
    return { decision: fromMode, capability, source: { kind: 'mode', mode: state.mode } };
  }

  function evaluate(name: string, input: unknown): Evaluation {
    try {
      if (typeof name !== 'string' || name === '') {
        return {
          decision: 'deny',
          capability: state.undeclared,
          source: {
            kind: 'error',
            message: `tool name must be a non-empty string, got ${describeValue(name)}`,
          },
        };
      }
      return decide(name, input);
    } catch (e) {
      return {
        decision: 'deny',
        capability: state.undeclared,
        source: { kind: 'error', message: errorMessage(e) },
      };
    }
  }

  async function askHost(request: CheckRequest, ask: AskCallback): Promise<CheckResult> {
    const { name, input, id, signal } = request;
    const deny = (outcome: Exclude<AskOutcome, 'approved'>, detail?: string): CheckResult => ({
      allowed: false,
      reason: detail === undefined ? ASK_REASONS[outcome] : `${ASK_REASONS[outcome]}: ${detail}`,
      source: { kind: 'ask', outcome },
    });
    if (signal?.aborted) return deny('aborted');
    let timer: unknown;
    let onAbort: (() => void) | undefined;
    const timeoutMs = state.askTimeoutMs;
    try {
      const pending: Promise<unknown>[] = [Promise.resolve().then(() => ask(name, input, id))];
      if (timeoutMs !== undefined) {
        pending.push(
          new Promise((resolve) => {
            timer = timers.setTimeout(() => resolve(TIMEOUT), timeoutMs);
          }),
        );
      }
      if (signal) {
        pending.push(
          new Promise((resolve) => {
            onAbort = () => resolve(ABORTED);
            signal.addEventListener('abort', onAbort, { once: true });
          }),
        );
      }
      const value = await Promise.race(pending);
      if (value === TIMEOUT) return deny('timeout', `no answer within ${timeoutMs} ms`);
      if (value === ABORTED) return deny('aborted');
      const r = readAskResult(value);
      if (!r.allowed) return deny(r.outcome);
      if (r.scope === 'session') granted.add(name);
      return {
        allowed: true,
        reason: r.scope === 'session' ? 'approved by the user for this session' : 'approved by the user once',
        source: { kind: 'ask', outcome: 'approved', scope: r.scope },
      };
    } catch (e) {
      return deny('threw', errorMessage(e));
    } finally {
      if (timer !== undefined) timers.clearTimeout(timer);
      if (signal && onAbort) signal.removeEventListener('abort', onAbort);
    }
  }

  async function check(request: CheckRequest): Promise<CheckResult> {
    try {
      if (typeof request !== 'object' || request === null) {
        return {
          allowed: false,
          reason: 'internal error while deciding: invalid check request',
          source: { kind: 'error', message: 'invalid check request' },
        };
      }
      const { name, input } = request;
      const e = evaluate(name, input);
      const reason = describeEvaluation(e);
      switch (e.decision) {
        case 'allow':
          return { allowed: true, reason, source: e.source };
        case 'deny':
          return { allowed: false, reason, source: e.source };
        case 'ask': {
          if (granted.has(name)) {
            return {
              allowed: true,
              reason: 'granted for this session',
              source: { kind: 'grant', scope: 'session' },
            };
          }
          const ask = state.ask;
          if (ask === null) {
            return {
              allowed: false,
              reason: ASK_REASONS['no-callback'],
              source: { kind: 'ask', outcome: 'no-callback' },
            };
          }
          return await askHost(request, ask);
        }
        default:
          return assertNever(e.decision);
      }
    } catch (e) {
      const message = errorMessage(e);
      const source: CheckSource = { kind: 'error', message };
      return { allowed: false, reason: `internal error while deciding: ${message}`, source };
    }
  }

  function configure(update: PermissionGateUpdate): void {
    const found: ConfigIssue[] = [];
    optionIssues(update, found);
    // Build everything first so a bad update leaves the gate unchanged.
    const rules = update?.rules !== undefined ? new RuleIndex(update.rules, found) : state.rules;
    if (found.length > 0) throw configError(found);
    const policy = update.policy !== undefined ? buildPolicy(update.policy) : undefined;
    const metaEntries =
      update.toolMeta === undefined
        ? []
        : isRegistry(update.toolMeta)
          ? update.toolMeta.entries()
          : Object.entries(update.toolMeta as Readonly<Record<string, ToolMetaInput>>);
    // Dry run on a scratch registry: throws before anything changes.
    const scratch = createToolMetaRegistry();
    for (const [name, meta] of metaEntries) scratch.register(name, meta);
    for (const [name, meta] of metaEntries) registry.register(name, meta);
    if (update.mode !== undefined) state.mode = update.mode;
    if (policy !== undefined) Object.assign(state, policy);
    state.rules = rules;
    if (update.ask !== undefined) state.ask = update.ask;
    if (update.undeclaredCapability !== undefined) state.undeclared = update.undeclaredCapability;
    if (update.askTimeoutMs !== undefined) state.askTimeoutMs = update.askTimeoutMs;
    if (update.cwd !== undefined) state.cwd = normalisePath(update.cwd);
  }

  const gate: PermissionGate = {
    get mode() {
      return state.mode;
    },
    toolMeta: registry,
    evaluate,
    check,
    registerToolMeta(name, meta) {
      registry.register(name, meta);
    },
    configure,
    sessionGrants() {
      return [...granted];
    },
    revokeSessionGrants(name) {
      if (name === undefined) granted.clear();
      else granted.delete(name);
    },
  };
  gates.add(gate);
  return Object.freeze(gate);
}

/** The timer functions every JS runtime has; typed here so the package needs no DOM or Node types. */
interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
const timers = globalThis as unknown as Timers;

const TIMEOUT = Symbol('timeout');
const ABORTED = Symbol('aborted');

/** Thrown by `installPermissionGate` for a target without the approval hook. */
function invalidTarget(target: unknown): PermissionGateError {
  return new PermissionGateError(
    'INVALID_CONFIG',
    `installPermissionGate: target must expose setPermissionGate() and getPermissionGate(), got ${describeValue(target)}`,
  );
}

/** The tool-approval hook a client exposes so a gate can be installed on it (agent-core implements it). */
export interface PermissionGateTarget {
  /** Installs a gate (or removes it with `null`); the client consults it before every tool call. */
  setPermissionGate(gate: PermissionGate | null): void;
  /** The installed gate, or `null`. */
  getPermissionGate(): PermissionGate | null;
}

/** Installs a gate on a target; a second call refreshes the existing gate in place and never stacks another. */
export function installPermissionGate(
  target: PermissionGateTarget,
  options: PermissionGateOptions = {},
): PermissionGate {
  if (
    typeof target !== 'object' ||
    target === null ||
    typeof target.setPermissionGate !== 'function' ||
    typeof target.getPermissionGate !== 'function'
  ) {
    throw invalidTarget(target);
  }
  const existing = target.getPermissionGate();
  if (existing !== null && existing !== undefined) {
    existing.configure(options);
    return existing;
  }
  const gate = createPermissionGate(options);
  target.setPermissionGate(gate);
  return gate;
}

/** Removes the gate from a target (tool calls then follow the target's own no-gate behaviour). */
export function uninstallPermissionGate(target: PermissionGateTarget): void {
  target.setPermissionGate(null);
}
