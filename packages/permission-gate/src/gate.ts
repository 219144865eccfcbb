import { assertNever, isRecord } from '@codeagent/artifact-schema/internal';
import { configError, type ConfigIssue, describeValue, PermissionGateError } from './errors.js';
import { isPermissionMode, toolPolicyIssues } from './config.js';
import { MODE_TABLE } from './mode-table.js';
import { normalisePath, type NormalisedPath } from './paths.js';
import {
  describeGrantScope,
  type GrantScope,
  grantCovers,
  grantScopeFor,
  type SessionGrant,
  sameScope,
} from './grants.js';
import { ProtectedPaths } from './protected.js';
import { type ReadRestriction, ReadPathRules, readPathOf } from './read-paths.js';
import { RuleIndex, type RuleMatch } from './rules.js';
import {
  createToolMetaRegistry,
  isCapability,
  type ToolMetaInput,
  type ToolMetaRegistry,
} from './tool-meta.js';
import type {
  AskCallback,
  AskContext,
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
  /**
   * Paths or globs added to {@link DEFAULT_PROTECTED_PATHS} (the host's session store, user settings, trust
   * file...): writes there ask in `default` / `accept_edits`, deny in `plan` / `dont_ask`; only `bypass` skips.
   */
  readonly protectedPaths?: readonly string[];
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
  /** Names of tools with at least one session grant on this gate (see {@link PermissionGate.grants}). */
  sessionGrants(): readonly string[];
  /** Forgets session grants: every grant of one tool, or all when no name is given. */
  revokeSessionGrants(name?: string): void;
  /** The session grants in force, oldest first, each with its id, tool and scope. */
  grants(): readonly SessionGrant[];
  /** Forgets one grant by id; true when it existed. */
  revokeGrant(id: string): boolean;
  /** Forgets every grant (a new conversation, `/clear`). */
  clearGrants(): void;
  /**
   * The scope a session approval of this call would grant now, or `null` when none would be remembered (the
   * call does not ask, an ask rule / policy / protected path asks every time, or the input cannot be scoped).
   */
  grantScope(name: string, input: unknown): GrantScope | null;
  /**
   * The deny or ask path rule of a read tool (Read, Grep, Glob) that covers reading `path`, or `null`. Search
   * tools pass each file they walk through this, so `Read(**\/.env)` also hides `.env` from Grep and Glob.
   */
  readRestriction(path: string): ReadRestriction | null;
  /** The protected-path entries in force (defaults first). */
  protectedPaths(): readonly string[];
  /**
   * True when writing `path` counts as writing the agent's own configuration (whatever the mode). Tools call it
   * with a symbolic link's real target, which the gate cannot see in the call's input.
   */
  isProtectedPath(path: string): boolean;
}

interface State {
  mode: PermissionMode;
  sets: ReadonlySet<string> | undefined;
  capabilities: ReadonlyMap<Capability, Decision>;
  overrides: ReadonlyMap<string, Decision>;
  rules: RuleIndex;
  readPaths: ReadPathRules;
  protect: ProtectedPaths;
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

const WRITE_PATH_KEYS = ['file_path', 'path'];

/** The shell command of an exec call (its `command` argument), if it has one. */
function commandOf(input: unknown, meta: { primaryArgument?: string } | undefined): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const key = meta?.primaryArgument ?? 'command';
  const v = Object.hasOwn(input, key) ? (input as Record<string, unknown>)[key] : undefined;
  return typeof v === 'string' ? v : undefined;
}

/** Words of a command that may name a path: split on blanks, quotes, `=` and redirections; at most 256. */
function pathLikeWords(command: string): string[] {
  return command
    .slice(0, 65_536)
    .split(/[\s'"`=<>|;&()]+/)
    .filter((w) => w.includes('/') || w.startsWith('.'))
    .slice(0, 256);
}

/** The path argument of a write call, or `undefined` when the tool takes none. */
function writePathOf(input: unknown, meta: { primaryArgument?: string } | undefined): string | undefined {
  if (typeof input !== 'object' || input === null) return undefined;
  const rec = input as Record<string, unknown>;
  const keys =
    meta?.primaryArgument !== undefined ? [meta.primaryArgument, ...WRITE_PATH_KEYS] : WRITE_PATH_KEYS;
  for (const k of keys) {
    const v = Object.hasOwn(rec, k) ? rec[k] : undefined;
    if (typeof v === 'string') return v;
  }
  return undefined;
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
    case 'protected':
      return `${s.path} is protected agent configuration (${s.entry}): writes ${e.decision === 'deny' ? 'are denied in this mode' : 'always ask'}`;
    case 'error':
      return `internal error while deciding: ${s.message}`;
    default:
      return assertNever(s, 'describeEvaluation');
  }
}

/** The stronger of two rule matches (deny beats ask beats allow); the first wins a tie. */
function strongest(a: RuleMatch | undefined, b: RuleMatch | undefined): RuleMatch | undefined {
  if (a === undefined) return b;
  if (b === undefined) return a;
  const rank = { deny: 2, ask: 1, allow: 0 } as const;
  return rank[b.decision] > rank[a.decision] ? b : a;
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
  if (isRecord(v)) {
    const rec = v;
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
  const protect = new ProtectedPaths(options?.protectedPaths, issues);
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
    readPaths: new ReadPathRules(options.rules),
    protect,
    ask: options.ask ?? null,
    undeclared: options.undeclaredCapability ?? 'exec',
    askTimeoutMs: options.askTimeoutMs,
    cwd: options.cwd === undefined ? undefined : normalisePath(options.cwd),
  };
  let grantList: SessionGrant[] = [];
  let nextGrant = 1;

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
    const match = strongest(state.rules.match(name, input, meta, state.cwd), readRule(name, input));
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

  /** A deny/ask path rule of any read tool covering this read tool call's path. */
  function readRule(name: string, input: unknown): RuleMatch | undefined {
    const p = readPathOf(name, input);
    const r = p === undefined ? undefined : state.readPaths.matchForTool(name, p, state.cwd);
    return r === undefined ? undefined : { rule: r.rule, list: r.list, decision: r.list };
  }

  /** Writes to protected paths ask (or deny in plan / dont_ask) whatever rules, policy or grants say. */
  function protectWrites(name: string, input: unknown, e: Evaluation): Evaluation {
    if (e.decision === 'deny' || state.mode === 'bypass') return e;
    let path: string | undefined;
    let hit: { entry: string } | undefined;
    if (e.capability === 'write') {
      path = writePathOf(input, registry.get(name));
      if (path !== undefined) hit = state.protect.match(path, state.cwd);
    } else if (e.capability === 'exec') {
      // A command naming a protected path asks every time (`sed -i .. .git/hooks/x`): no allow rule or grant lifts it.
      const command = commandOf(input, registry.get(name));
      for (const word of command === undefined ? [] : pathLikeWords(command)) {
        hit = state.protect.match(word, state.cwd);
        if (hit !== undefined) {
          path = word;
          break;
        }
      }
    }
    if (path === undefined || hit === undefined) return e;
    const decision = state.mode === 'plan' || state.mode === 'dont_ask' ? 'deny' : 'ask';
    return { decision, capability: e.capability, source: { kind: 'protected', path, entry: hit.entry } };
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
      return protectWrites(name, input, decide(name, input));
    } catch (e) {
      return {
        decision: 'deny',
        capability: state.undeclared,
        source: { kind: 'error', message: errorMessage(e) },
      };
    }
  }

  /** The scope a session approval would record for this evaluated call (only mode asks are grantable). */
  function scopeFor(name: string, input: unknown, e: Evaluation): GrantScope | null {
    if (e.decision !== 'ask' || e.source.kind !== 'mode') return null;
    return grantScopeFor(name, input, registry.get(name), state.cwd);
  }

  function findGrant(name: string, input: unknown): SessionGrant | undefined {
    const meta = registry.get(name);
    return grantList.find((g) => grantCovers(g, name, input, meta, state.cwd));
  }

  function addGrant(name: string, scope: GrantScope): SessionGrant {
    const existing = grantList.find((g) => g.tool === name && sameScope(g, scope));
    if (existing) return existing;
    const grant: SessionGrant = Object.freeze({ ...scope, id: `g${nextGrant++}`, tool: name });
    grantList = [...grantList, grant];
    return grant;
  }

  async function askHost(request: CheckRequest, ask: AskCallback, e: Evaluation): Promise<CheckResult> {
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
      const scope = scopeFor(name, input, e);
      const context: AskContext = { reason: describeEvaluation(e), source: e.source, grantScope: scope };
      const pending: Promise<unknown>[] = [Promise.resolve().then(() => ask(name, input, id, context))];
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
      if (r.scope === 'session' && scope !== null) {
        const grant = addGrant(name, scope);
        return {
          allowed: true,
          reason: `approved by the user for this session: ${describeGrantScope(name, grant)}`,
          source: { kind: 'ask', outcome: 'approved', scope: 'session' },
        };
      }
      return {
        allowed: true,
        reason:
          r.scope === 'session'
            ? 'approved by the user once (this call asks every time, so no session grant was kept)'
            : 'approved by the user once',
        source: { kind: 'ask', outcome: 'approved', scope: 'once' },
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
          // A grant only lifts the mode's ask: never an ask rule, an ask policy or a protected path.
          const grant = e.source.kind === 'mode' ? findGrant(name, input) : undefined;
          if (grant !== undefined) {
            return {
              allowed: true,
              reason: `granted for this session: ${describeGrantScope(name, grant)}`,
              source: { kind: 'grant', scope: 'session', id: grant.id },
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
          return await askHost(request, ask, e);
        }
        default:
          return assertNever(e.decision, 'check');
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
    const protect =
      update?.protectedPaths !== undefined ? new ProtectedPaths(update.protectedPaths, found) : state.protect;
    if (found.length > 0) throw configError(found);
    const readPaths = update.rules !== undefined ? new ReadPathRules(update.rules) : state.readPaths;
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
    state.readPaths = readPaths;
    state.protect = protect;
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
      return [...new Set(grantList.map((g) => g.tool))];
    },
    revokeSessionGrants(name) {
      grantList = name === undefined ? [] : grantList.filter((g) => g.tool !== name);
    },
    grants() {
      return [...grantList];
    },
    revokeGrant(id) {
      const before = grantList.length;
      grantList = grantList.filter((g) => g.id !== id);
      return grantList.length !== before;
    },
    clearGrants() {
      grantList = [];
    },
    grantScope(name, input) {
      try {
        return scopeFor(name, input, evaluate(name, input));
      } catch {
        return null;
      }
    },
    readRestriction(path) {
      try {
        if (typeof path !== 'string') return { rule: '(invalid path)', list: 'deny' };
        return state.readPaths.match(path, state.cwd) ?? null;
      } catch (err) {
        return { rule: `(internal error: ${errorMessage(err)})`, list: 'deny' };
      }
    },
    protectedPaths() {
      return state.protect.list();
    },
    isProtectedPath(path) {
      try {
        return typeof path !== 'string' || state.protect.match(path, state.cwd) !== undefined;
      } catch {
        return true;
      }
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
    'invalid-config',
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
