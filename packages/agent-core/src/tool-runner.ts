import {
  normalizeToolOutput,
  type ToolArtifact,
  type ToolResult,
  toolResult,
  toolResultArtifact,
} from '@codeagent/artifact-schema';
import {
  type AskResult,
  isPermissionGate,
  isShellGrammarLoaded,
  type PermissionGate,
  permissionDeniedMessage,
  type ToolMeta,
  type ToolMetaInput,
} from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import { isErrorSet } from '@codeagent/artifact-schema/internal';
import {
  createToolPresenter,
  type PresenterIssue,
  type ToolCallView,
  type ToolPresentation,
  type ToolPresenter,
  type ToolResultView,
} from '@codeagent/render-intent';
import { asSchema, type Tool, type ToolSet } from 'ai';
import { AgentCoreError, errorMessage, isAbortError } from './errors.js';
import type { ToolResultEvent } from './events.js';
import { abortError } from './retry.js';
import type { ToolRecord } from './session.js';
import { type AgentTool, defineTool, intentSchema, presentationMeta, splitIntent } from './tool.js';
import { globalToolMeta } from './tool-meta.js';
import { silentOutput, type ToolOutputSink } from './tool-output.js';
import type { Turn } from './turn.js';

/** Host projection of a tool result into its toolkit's display data (the event's `display` field). */
export type DisplayFunction = (result: ToolResult, view: ToolResultView) => unknown;

/** `toolResultArtifact` options accepting any valid version (one object for every call). */
const ANY_VERSION = { version: null } as const;

/** A tool call's outcome in the three channels: what the SDK hands back to the stream consumer. */
export class ToolOutcome {
  /** The normalised result (`value` is all the model sees). */
  readonly result: ToolResult;
  /** The artifact of any valid version, or `null`. */
  readonly artifact: ToolArtifact | null;
  /** Whether the call failed (tool error, invalid input, denial). */
  readonly isError: boolean;

  constructor(result: ToolResult, forceError = false) {
    this.result = result;
    this.artifact = toolResultArtifact(result, ANY_VERSION);
    this.isError = forceError || isErrorResult(result, this.artifact);
  }

  /** An error outcome whose model-facing text is `message` (with an error artifact). */
  static failure(message: string, error: string, payloadMessage = message): ToolOutcome {
    const failed = toolResult(message, { kind: 'error', payload: { message: payloadMessage } });
    return new ToolOutcome({ ...failed, error }, true);
  }
}

/** True when a result reports an error through its `error` field or an error artifact. */
export function isErrorResult(result: ToolResult, artifact: ToolArtifact | null): boolean {
  return isErrorSet(result.error) || artifact?.status === 'error';
}

function isThenable(x: unknown): x is PromiseLike<unknown> {
  return (
    (typeof x === 'object' || typeof x === 'function') &&
    x !== null &&
    typeof (x as { then?: unknown }).then === 'function'
  );
}

/** Tokens the tool definitions add to every request (name, description, input JSON Schema). */
function toolDefinitionTokens(tool: AgentTool<unknown>, schema: unknown): number {
  let chars = tool.name.length + tool.description.length;
  try {
    chars += JSON.stringify(schema)?.length ?? 0;
  } catch {
    // A schema we cannot measure adds nothing to the estimate.
  }
  return Math.ceil(chars / 4);
}

/** The two presentations of one tool: for arguments the SDK already validated, and for untrusted ones. */
interface Presentations {
  readonly validated: ToolPresentation;
  readonly untrusted: ToolPresentation;
}

function presentationsOf(tool: AgentTool<unknown>): Presentations {
  const validated: { -readonly [K in keyof ToolPresentation]: ToolPresentation[K] } = {};
  if (tool.presentCall)
    validated.presentCall = tool.presentCall as NonNullable<ToolPresentation['presentCall']>;
  if (tool.presentResult) {
    validated.presentResult = tool.presentResult as NonNullable<ToolPresentation['presentResult']>;
  }
  const schema: unknown = tool.inputSchema;
  const standard = typeof schema === 'object' && schema !== null && '~standard' in schema;
  const untrusted = standard
    ? { ...validated, inputSchema: schema as NonNullable<ToolPresentation['inputSchema']> }
    : validated;
  return { validated, untrusted };
}

/** The precheck outcome of a call that had none to run. */
const PASSED = { done: Promise.resolve(true), settle: (_ok: boolean): void => undefined };

/** Gate checks run one after another, so asks reach the user in the order of the calls. */
interface ApprovalQueue {
  tail: Promise<unknown>;
  size: number;
}

/** What agent-core itself registered on each gate, so a host's own classification is never overwritten. */
const registeredByUs = new WeakMap<PermissionGate, Map<string, ToolMeta>>();

const sameMeta = (a: ToolMeta | undefined, b: ToolMeta | undefined) =>
  a !== undefined && b !== undefined && a.capability === b.capability && a.set === b.set;

/**
 * Makes sure the gate classifies the tool. Precedence: metadata the host gave this gate (`toolMeta`,
 * `gate.registerToolMeta`, built-ins) > process-wide `registerToolMeta` > the capability the tool declared.
 */
function syncMeta(gate: PermissionGate, tool: AgentTool<unknown>): void {
  let ours = registeredByUs.get(gate);
  if (!ours) {
    ours = new Map();
    registeredByUs.set(gate, ours);
  }
  const have = gate.toolMeta.get(tool.name);
  const mine = ours.get(tool.name);
  // Present but not ours (or changed since): the host classified it on this gate.
  if (have !== undefined && !sameMeta(have, mine)) return;
  const declared: ToolMeta =
    typeof tool.capability === 'string' ? { capability: tool.capability } : tool.capability;
  const want = globalToolMeta.get(tool.name) ?? declared;
  if (sameMeta(have, want)) return;
  try {
    gate.registerToolMeta(tool.name, want as ToolMetaInput);
    ours.set(tool.name, gate.toolMeta.get(tool.name) ?? want);
  } catch {
    // Built-in metadata is authoritative.
  }
}

/**
 * The tool room of a client: the attached tools as AI SDK tools, the gate check with serial approvals,
 * the abort race, normalisation of what a tool returns into the three channels, and the cards.
 * A call goes `execute` (gate, then the tool) -> the turn's stream consumer -> {@link ToolRunner.present}.
 */
export class ToolRunner {
  readonly #cwd: string;
  readonly #display: DisplayFunction | undefined;
  readonly #tools = new Map<string, AgentTool<unknown>>();
  // Null prototype: a model calling `toString` or a tool named `__proto__` must not reach Object.prototype.
  readonly #sdkTools: Record<string, Tool> = Object.create(null);
  readonly #presentations = new Map<string, Presentations>();
  readonly #toolTokens = new Map<string, number>();
  #toolTokenTotal = 0;
  #gate: PermissionGate | null = null;
  #presenter: ToolPresenter;
  /** Which presentation the presenter's lookup hands out for the call being presented. */
  #argsValidated = false;
  readonly #presenterIssues: PresenterIssue[] = [];
  /** The turn's approval queue: its tail and how many calls are in it (0 lets an outright allow skip it). */
  #approvals: ApprovalQueue = { tail: Promise.resolve(), size: 0 };
  #turn: Turn | null = null;
  /** The precheck outcome of each call of the turn (created by whichever comes first: the call or a host asking). */
  readonly #prechecks = new Map<string, { readonly done: Promise<boolean>; settle: (ok: boolean) => void }>();

  constructor(cwd: string, display: DisplayFunction | undefined) {
    this.#cwd = cwd;
    this.#display = display;
    this.#presenter = this.#newPresenter();
  }

  /** Names of the attached tools, in registration order. */
  get names(): readonly string[] {
    return [...this.#tools.keys()];
  }

  /** True when a tool of that name is attached. */
  has(name: string): boolean {
    return this.#tools.has(name);
  }

  /** The tools in the shape `streamText` takes. */
  get sdkTools(): ToolSet {
    return this.#sdkTools as ToolSet;
  }

  /** Tokens all tool definitions add to a request. */
  get definitionTokens(): number {
    return this.#toolTokenTotal;
  }

  /** Contained presenter failures (at most 100 kept). */
  get presenterIssues(): readonly PresenterIssue[] {
    return this.#presenterIssues.slice();
  }

  /** The installed gate, or `null`. */
  get gate(): PermissionGate | null {
    return this.#gate;
  }

  /** Installs or removes the gate; it learns every attached tool's capability. */
  setGate(gate: PermissionGate | null): void {
    this.#gate = gate;
    if (gate) for (const t of this.#tools.values()) syncMeta(gate, t);
  }

  /** Attaches a tool; throws on a duplicate name. */
  register(tool: AgentTool<unknown>): void {
    const t = defineTool(tool);
    if (this.#tools.has(t.name))
      throw new AgentCoreError('duplicate-tool', `a tool named ${t.name} is already registered`);
    const schema = intentSchema(t.inputSchema as never);
    this.#tools.set(t.name, t);
    this.#presentations.set(t.name, presentationsOf(t));
    this.#sdkTools[t.name] = this.#sdkTool(t, schema);
    this.#setTokens(t.name, toolDefinitionTokens(t, undefined));
    Promise.resolve(schema.jsonSchema).then(
      (js) => this.#setTokens(t.name, toolDefinitionTokens(t, js)),
      () => undefined,
    );
    if (this.#gate) syncMeta(this.#gate, t);
  }

  #setTokens(name: string, n: number): void {
    this.#toolTokenTotal += n - (this.#toolTokens.get(name) ?? 0);
    this.#toolTokens.set(name, n);
  }

  /** Starts serving the calls of `turn` (approvals start a new queue: never wait on an older turn's prompt). */
  begin(turn: Turn): void {
    this.#settlePrechecks();
    this.#turn = turn;
    this.#approvals = { tail: Promise.resolve(), size: 0 };
  }

  /** Stops serving calls. */
  end(): void {
    this.#turn = null;
    this.#settlePrechecks();
  }

  /** Calls that never got through their precheck (the turn ended first) will not reach the gate. */
  #settlePrechecks(): void {
    for (const p of this.#prechecks.values()) p.settle(false);
    this.#prechecks.clear();
  }

  #precheckOf(id: string): { readonly done: Promise<boolean>; settle: (ok: boolean) => void } {
    let p = this.#prechecks.get(id);
    if (!p) {
      let settle: (ok: boolean) => void = () => undefined;
      const done = new Promise<boolean>((resolve) => {
        settle = resolve;
      });
      p = { done, settle };
      this.#prechecks.set(id, p);
    }
    return p;
  }

  /**
   * Resolves when call `id` of the running turn is through its precheck: `true` when it goes on to the gate,
   * `false` when the precheck refused it or the turn ended first (no turn: `false` at once).
   */
  prechecked(id: string): Promise<boolean> {
    if (!this.#turn) return Promise.resolve(false);
    return this.#precheckOf(id).done;
  }

  /** Forgets every remembered call (a cleared or restored session presents from scratch). */
  resetPresenter(): void {
    this.#presenter = this.#newPresenter();
  }

  #newPresenter(): ToolPresenter {
    return createToolPresenter(
      (name) => {
        const p = this.#presentations.get(name);
        return p && (this.#argsValidated ? p.validated : p.untrusted);
      },
      {
        onError: (issue) => {
          if (this.#presenterIssues.length < 100) this.#presenterIssues.push(issue);
        },
      },
    );
  }

  /**
   * The call's card. `validated`: the AI SDK already checked `args` against the tool's schema, so the
   * presenter does not validate again; otherwise (invalid calls, restored sessions) it does.
   */
  presentCall(id: string, name: string, args: unknown, validated: boolean): ToolCallView {
    this.#argsValidated = validated;
    try {
      return this.#presenter.call(id, name, args);
    } finally {
      this.#argsValidated = false;
    }
  }

  /** The result's card and the stored record of a finished call. */
  presentResult(
    id: string,
    name: string,
    input: unknown,
    callView: ToolCallView | undefined,
    result: ToolResult,
    isError: boolean,
  ): ToolRecord {
    const view = this.#presenter.result(id, {
      content: result.value,
      isError,
      meta: presentationMeta(result),
    });
    return {
      id,
      name,
      arguments: input,
      result,
      isError,
      callView: callView ?? {
        card: 'generic',
        title: name,
        kind: 'other',
        rawInput: splitIntent(input).args,
      },
      view,
    };
  }

  /** The host's display data of a result. */
  displayOf(result: ToolResult, view: ToolResultView): unknown {
    if (this.#display) return this.#display(result, view);
    const d = result.extra?.display;
    return d === undefined ? null : d;
  }

  /** The `tool-result` payload of a stored record. */
  resultEvent(r: ToolRecord, artifact = toolResultArtifact(r.result, { version: null })): ToolResultEvent {
    return {
      id: r.id,
      name: r.name,
      display: this.displayOf(r.result, r.view),
      value: r.result.value,
      isError: r.isError,
      artifact,
      view: r.view,
    };
  }

  #sdkTool(tool: AgentTool<unknown>, schema: ReturnType<typeof intentSchema>): Tool {
    return {
      description: tool.description,
      inputSchema: schema,
      execute: (input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }) =>
        this.#execute(tool, input, options.toolCallId, options.abortSignal),
      toModelOutput: ({ output }: { output: unknown }) => {
        if (output instanceof ToolOutcome) {
          return output.isError
            ? { type: 'error-text' as const, value: output.result.value }
            : { type: 'text' as const, value: output.result.value };
        }
        return { type: 'text' as const, value: normalizeToolOutput(output).value };
      },
    } as Tool;
  }

  /**
   * Whether the gate would ask about this call (no gate: nothing decides, so a precheck runs). A precheck only
   * spares the user a doomed question: a denied call must not run one, an allowed call fails by itself.
   */
  #wouldAsk(tool: AgentTool<unknown>, args: unknown): boolean {
    const gate = this.#gate;
    if (!gate) return true;
    syncMeta(gate, tool);
    return gate.evaluate(tool.name, args).decision === 'ask' && !gate.sessionGrants().includes(tool.name);
  }

  /** A call through its precheck without one running (a host asking {@link ToolRunner.prechecked} gets `true`). */
  #precheckPassed(id: string): void {
    const p = this.#prechecks.get(id);
    if (p) p.settle(true);
    else this.#prechecks.set(id, PASSED);
  }

  /**
   * The slow path of a call: its precheck, then its place in the approval queue and the gate's answer. Returns the
   * outcome of a refused or denied call, `undefined` when the call may run.
   */
  async #approve(
    tool: AgentTool<unknown>,
    gate: PermissionGate | null,
    args: unknown,
    intent: string | null,
    callId: string,
    signal: AbortSignal,
    turn: Turn,
    answer: AskResult | undefined,
  ): Promise<ToolOutcome | undefined> {
    // A call known to fail ends before anyone is asked to approve it. Every call's precheck starts at once (a host
    // showing approvals ahead of the serial asks waits for it), while its place in the approval queue is taken now,
    // so asks keep the order of the calls whatever each precheck costs.
    let refused: ToolOutcome | undefined;
    const precheck = async (): Promise<void> => {
      if (!tool.precheck || !this.#wouldAsk(tool, args)) return;
      let answer: unknown;
      try {
        answer = await turn.race(
          Promise.resolve().then(() =>
            tool.precheck?.(args, { callId, name: tool.name, signal, cwd: this.#cwd, intent }),
          ),
          signal,
        );
      } catch (e) {
        if (signal.aborted || isAbortError(e)) throw e;
        answer = `Error: ${errorMessage(e)}`;
      }
      if (answer !== undefined) refused = new ToolOutcome(normalizeToolOutput(answer), true);
    };
    const prechecked = precheck();
    const outcome = this.#precheckOf(callId);
    prechecked.then(
      () => outcome.settle(refused === undefined),
      () => outcome.settle(false),
    );
    if (gate) {
      // Nothing is waiting in the approval queue and this package's own gate allows the call outright: no ask.
      const allowedNow =
        this.#approvals.size === 0 &&
        isPermissionGate(gate) &&
        gate.evaluate(tool.name, args).decision === 'allow';
      if (!allowedNow) {
        const check = async () => {
          try {
            await prechecked;
          } catch {
            return null;
          }
          return refused
            ? null
            : gate.check({
                id: callId,
                name: tool.name,
                input: args,
                signal,
                ...(answer !== undefined ? { answer } : {}),
              });
        };
        const queue = this.#approvals;
        const leave = () => {
          queue.size--;
        };
        queue.size++;
        const run = queue.tail.then(check, check);
        queue.tail = run.then(leave, leave);
        // A refused call ends now, without waiting for the calls ahead of it in the queue.
        await turn.race(prechecked, signal);
        if (refused) return refused;
        const decision = await turn.race(run, signal);
        if (signal.aborted) throw abortError();
        if (!decision?.allowed) {
          return ToolOutcome.failure(
            permissionDeniedMessage(tool.name, decision?.reason ?? 'denied'),
            'permission-denied',
          );
        }
        return undefined;
      }
    }
    await turn.race(prechecked, signal);
    return refused;
  }

  /**
   * Runs a stored call of a resumed step (`resume.ts`) down the path of a live one: its arguments are checked
   * against the tool's schema (they come from storage), then precheck, gate and tool as in {@link ToolRunner}'s
   * `execute`, the gate reading `answer` instead of asking when the call still asks. An unknown tool or invalid
   * arguments are an error result and nothing runs. The call's `tool-request` must have been delivered.
   */
  async runCall(name: string, input: unknown, callId: string, answer: AskResult): Promise<ToolOutcome> {
    const tool = this.#tools.get(name);
    const sdk = Object.hasOwn(this.#sdkTools, name) ? this.#sdkTools[name] : undefined;
    if (!tool || !sdk) {
      const message = `Model tried to call unavailable tool '${name}'. Available tools: ${this.names.join(', ')}.`;
      return ToolOutcome.failure(message, message);
    }
    const schema = asSchema(sdk.inputSchema);
    const checked = schema.validate ? await schema.validate(input) : { success: true as const, value: input };
    if (!checked.success) {
      const message = `Invalid input for tool ${name}: ${errorMessage(checked.error)}`;
      return ToolOutcome.failure(message, message);
    }
    return this.#execute(tool, checked.value, callId, undefined, answer);
  }

  /**
   * Gate, then the tool; every wait is raced against the turn's abort. Synchronous on the common path (the request
   * already delivered, the grammar loaded, nothing to ask, a synchronous tool): the SDK awaits whatever it gets, and
   * a promise per call that nothing waits on is measurable in a tool-heavy turn. Failures always come back as a
   * rejected promise, as from an async function.
   */
  #execute(
    tool: AgentTool<unknown>,
    input: unknown,
    callId: string,
    sdkSignal: AbortSignal | undefined,
    answer?: AskResult,
  ): ToolOutcome | Promise<ToolOutcome> {
    const turn = this.#turn;
    if (!turn) {
      return Promise.reject(new AgentCoreError('turn-in-progress', 'tool executed outside of a turn'));
    }
    // The turn's own signal aborts on user aborts and failed callbacks alike; the SDK's is a merge of it.
    const signal = sdkSignal?.aborted ? sdkSignal : turn.signal;
    // The host sees the request before the gate decides (usually it already has: no wait then).
    const delivered = turn.requestDelivered(callId, signal);
    const gate = this.#gate;
    // The gate parses Bash commands with the bash grammar, loaded once; if it cannot load, the gate fails closed.
    if (delivered || (gate && !isShellGrammarLoaded())) {
      return (async () => {
        if (delivered) await delivered;
        if (gate && !isShellGrammarLoaded()) {
          await turn.race(
            loadInstalledShellGrammar().catch(() => undefined),
            signal,
          );
        }
        return this.#decideAndRun(tool, input, callId, signal, turn, gate, answer);
      })();
    }
    try {
      return this.#decideAndRun(tool, input, callId, signal, turn, gate, answer);
    } catch (e) {
      return Promise.reject(e);
    }
  }

  /** The gate's decision (and precheck), then the tool. */
  #decideAndRun(
    tool: AgentTool<unknown>,
    input: unknown,
    callId: string,
    signal: AbortSignal,
    turn: Turn,
    gate: PermissionGate | null,
    answer: AskResult | undefined,
  ): ToolOutcome | Promise<ToolOutcome> {
    const { intent, args } = splitIntent(input);
    if (gate) syncMeta(gate, tool);
    // Fast path: no precheck to run, and either no gate or nothing waiting in the approval queue while this
    // package's own gate allows the call outright (`gate.check` would answer "allowed" at once; no ask is pending,
    // so the order of asks is unchanged). The call is through its precheck now.
    if (
      tool.precheck === undefined &&
      (gate === null ||
        (this.#approvals.size === 0 &&
          isPermissionGate(gate) &&
          gate.evaluate(tool.name, args).decision === 'allow'))
    ) {
      this.#precheckPassed(callId);
      return this.#run(tool, args, intent, callId, signal, turn);
    }
    return this.#approve(tool, gate, args, intent, callId, signal, turn, answer).then(
      (refused) => refused ?? this.#run(tool, args, intent, callId, signal, turn),
    );
  }

  /** Runs the tool itself (through its live output sink); a synchronous tool's outcome is returned as it is. */
  #run(
    tool: AgentTool<unknown>,
    args: unknown,
    intent: string | null,
    callId: string,
    signal: AbortSignal,
    turn: Turn,
  ): ToolOutcome | Promise<ToolOutcome> {
    // Live output goes out between the call's request (delivered above) and its result: the sink delivers what it
    // buffered before this function returns (the SDK reports the result after that) and drops later writes.
    const sink = turn.outputSink(callId, tool.name, signal);
    let output: unknown;
    try {
      if (signal.aborted) throw abortError();
      output = tool.execute(args, {
        callId,
        name: tool.name,
        signal,
        cwd: this.#cwd,
        intent,
        output: sink ? sink.write : silentOutput,
      });
    } catch (e) {
      sink?.close(signal.aborted);
      if (signal.aborted || isAbortError(e)) return Promise.reject(e);
      return ToolOutcome.failure(`Error: ${errorMessage(e)}`, errorMessage(e), errorMessage(e));
    }
    // A tool that ignores its signal must not hold an interrupted turn open; a synchronous one is done.
    if (isThenable(output)) return this.#settle(turn.race(Promise.resolve(output), signal), signal, sink);
    sink?.close(signal.aborted);
    if (signal.aborted) return Promise.reject(abortError());
    return new ToolOutcome(normalizeToolOutput(output));
  }

  /** The outcome of an asynchronous tool. */
  async #settle(
    pending: Promise<unknown>,
    signal: AbortSignal,
    sink: ToolOutputSink | null,
  ): Promise<ToolOutcome> {
    let output: unknown;
    try {
      output = await pending;
    } catch (e) {
      if (signal.aborted || isAbortError(e)) throw e;
      return ToolOutcome.failure(`Error: ${errorMessage(e)}`, errorMessage(e), errorMessage(e));
    } finally {
      sink?.close(signal.aborted);
    }
    return new ToolOutcome(normalizeToolOutput(output));
  }
}
