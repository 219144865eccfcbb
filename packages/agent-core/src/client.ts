import { setMaxListeners } from 'node:events';
import { getErrorMessage, type LanguageModelV3 } from '@ai-sdk/provider';
import {
  adaptToolResult,
  normalizeToolOutput,
  type ToolArtifact,
  type ToolResult,
  toolResult,
  toolResultArtifact,
} from '@codeagent/artifact-schema';
import {
  type AskCallback,
  installPermissionGate,
  isShellGrammarLoaded,
  type PermissionGate,
  type PermissionGateTarget,
  type PermissionMode,
  permissionDeniedMessage,
  type ToolMeta,
  type ToolMetaInput,
  type ToolPolicy,
} from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import {
  createToolPresenter,
  type PresenterIssue,
  type ToolCallView,
  type ToolPresentation,
  type ToolPresenter,
  type ToolResultView,
} from '@codeagent/render-intent';
import {
  buildSkillHint,
  loadSkillPrompt,
  parseSlashCommand,
  SkillError,
  useSkillTool,
} from '@codeagent/skills';
import {
  jsonSchema,
  type LanguageModel,
  type ModelMessage,
  type StepResult,
  stepCountIs,
  streamText,
  type TextStreamPart,
  type Tool,
  type ToolSet,
} from 'ai';
import {
  type CompactionDecision,
  type CompactionOptions,
  Compactor,
  resolveCompaction,
  transcriptOf,
} from './compaction.js';
import { SESSION_FORMAT, SESSION_VERSION, type SessionData, type ToolRecord } from './session.js';
import { AgentCoreError, classifyError, errorMessage, isAbortError } from './errors.js';
import type { AgentEvent, StreamResult, ToolRequestEvent, ToolResultEvent } from './events.js';
import { type StreamInput, toUserMessage } from './input.js';
import { abortError, type RetryOptions, resolveRetry, withRetry } from './retry.js';
import { mapStopReason, stopNote } from './stop-reason.js';
import { type AgentTool, defineTool, intentSchema, presentationMeta, splitIntent } from './tool.js';
import { globalToolMeta } from './tool-meta.js';
import {
  estimateRequestTokens,
  type TokenThresholds,
  tokenThresholds,
  type Usage,
  warningStateFor,
} from './usage.js';

/** Per-million-token prices used to compute `costLast`. */
export interface Pricing {
  /** Price of one million input tokens. */
  readonly inputPerMillion: number;
  /** Price of one million output tokens. */
  readonly outputPerMillion: number;
}

/** Skills settings of a client with `registerTools: true`. */
export interface SkillsOptions {
  /** Extra skill directories from the host (searched last). */
  readonly dirs?: readonly string[];
  /** Home directory for user-level skills (default: the OS home). */
  readonly homeDir?: string;
  /** Append the `<available_skills>` hint to the system prompt; default true. */
  readonly hint?: boolean;
  /** Expand `/name args` input into the skill's prompt when `name` is a discovered skill; default true. */
  readonly slashCommands?: boolean;
}

/** Where skills are discovered for one client. */
interface SkillDiscovery {
  readonly cwd: string;
  readonly dirs?: readonly string[];
  readonly homeDir?: string;
}

/** Host projection of a tool result into its toolkit's display data (the event's `display` field). */
export type DisplayFunction = (result: ToolResult, view: ToolResultView) => unknown;

/** Options of {@link createClient}. */
export interface CreateClientOptions {
  /** The AI SDK language model (a provider model object, specification v3). */
  readonly model: LanguageModel;
  /**
   * `true` (default): install a default permission gate (mode `permissionMode`) and the skills `use_skill`
   * tool. `false`: harness-only client, no tool and no gate until the host adds them.
   * The built-in coding tools come from `@codeagent/tools` (`builtinTools()`), passed in `tools`.
   */
  readonly registerTools?: boolean;
  /** Mode of the default gate; default `default`. */
  readonly permissionMode?: PermissionMode;
  /** Working directory of the session; default `process.cwd()`. */
  readonly cwd?: string;
  /** Tools to attach. */
  readonly tools?: readonly AgentTool<unknown>[];
  /** Policy of the default gate (`sets`, `capabilities`, `overrides`). */
  readonly toolPolicy?: ToolPolicy;
  /** Approval callback of the default gate. */
  readonly ask?: AskCallback;
  /** Model requests allowed in one turn; default 100. */
  readonly maxTurns?: number;
  /** Compaction settings, or `false` to turn automatic compaction off. */
  readonly compaction?: CompactionOptions | false;
  /** Projection of tool results into host display data. */
  readonly display?: DisplayFunction;
  /** System prompt. */
  readonly system?: string;
  /** The model's context window in tokens; default 200000. */
  readonly contextWindow?: number;
  /** The model's max output tokens (for the thresholds); default 32000. */
  readonly maxOutputTokens?: number;
  /** Prices for `costLast`; without them `costLast` is `null`. */
  readonly pricing?: Pricing;
  /** Retry policy for rate limits and network errors. */
  readonly retry?: RetryOptions;
  /** Skills settings (`registerTools: true` only), or `false` for no `use_skill` tool and no hint. */
  readonly skills?: SkillsOptions | false;
  /** Heartbeat period in ms; default 100. */
  readonly tickIntervalMs?: number;
}

/** Internal: what a tool execution hands to the stream consumer. */
interface ExecOutcome {
  readonly [OUTCOME]: true;
  readonly result: ToolResult;
  readonly artifact: ToolArtifact | null;
  readonly isError: boolean;
}

function outcome(result: ToolResult, forceError = false): ExecOutcome {
  const artifact = toolResultArtifact(result, { version: null });
  return { [OUTCOME]: true, result, artifact, isError: forceError || isErrorResult(result, artifact) };
}
const OUTCOME = Symbol('codeagent.outcome');

function isOutcome(x: unknown): x is ExecOutcome {
  return typeof x === 'object' && x !== null && OUTCOME in x;
}

/** Internal hook used by `stream` / `streamEvents`. */
export const RUN_TURN = Symbol('codeagent.runTurn');
/** Internal hook used by `loadSession`. */
export const RESTORE = Symbol('codeagent.restore');

/** Restorable state of a client (see session.ts). */
export interface ClientState {
  readonly messages: readonly ModelMessage[];
  readonly records: readonly ToolRecord[];
  readonly compactions: readonly CompactionDecision[];
  readonly compactionFailures: number;
  readonly lastReportedTokens: number;
}

/** Resolves when the tool-request of a call was delivered (the gate must not run before it). */
class Deferred {
  settled = false;
  readonly promise: Promise<void>;
  resolve!: () => void;
  constructor() {
    this.promise = new Promise((r) => {
      this.resolve = () => {
        this.settled = true;
        r();
      };
    });
  }
}

/** Per-turn state. */
interface Turn {
  readonly emit: (e: AgentEvent) => void;
  readonly signal: AbortSignal;
  readonly requested: Map<string, Deferred>;
  readonly args: Map<string, unknown>;
  readonly callViews: Map<string, ToolCallView>;
}

/** What a turn accumulates over its model requests. */
interface TurnTotals {
  text: string;
  finishReason: string | undefined;
  rawFinish: string | undefined;
  inputTokens: number;
  outputTokens: number;
}

/** State of one `streamText` attempt (a turn has two when a prompt-too-long error is retried). */
interface Attempt {
  /** Cumulative response messages of the completed steps. */
  responses: ModelMessage[];
  /** Compacted prefix replacing the first `covered` messages of `base + responses`, if any. */
  replacement: readonly ModelMessage[] | null;
  covered: number;
  stepsDone: number;
  /** Tool calls of the current step still waiting for a result. */
  pending: Set<string>;
  streamError: unknown;
  aborted: boolean;
  budgetExceeded: boolean;
}

function isPlainRecord(x: unknown): x is Record<string, unknown> {
  return typeof x === 'object' && x !== null && !Array.isArray(x);
}

function isErrorResult(result: ToolResult, artifact: ToolArtifact | null): boolean {
  const e = result.error;
  return (e !== undefined && e !== null && e !== false) || artifact?.status === 'error';
}

function positiveInt(name: string, v: number | undefined, dflt: number, min = 1): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < min) {
    throw new AgentCoreError('INVALID_OPTIONS', `${name} must be a whole number >= ${min}, got ${String(v)}`);
  }
  return v;
}

function resolveModel(model: LanguageModel): LanguageModelV3 {
  if (typeof model === 'object' && model !== null && model.specificationVersion === 'v3') return model;
  throw new AgentCoreError(
    'INVALID_OPTIONS',
    'model must be an AI SDK 6 provider model object (LanguageModelV3), e.g. from @ai-sdk/openai-compatible',
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

/**
 * One user session of the agent: history, tools, permission gate, presenter, compaction state.
 * Create with {@link createClient}; drive turns with `stream` / `streamEvents`. Never share a client
 * between users. Implements the permission gate's target hook, so `installPermissionGate(client, ...)` works.
 */
export class CodeagentClient implements PermissionGateTarget {
  /** The session's working directory. */
  readonly cwd: string;
  /** The model requests allowed per turn. */
  readonly maxTurns: number;
  /** The context window in tokens. */
  readonly contextWindow: number;
  /** The token levels derived from the window and the max output. */
  readonly thresholds: TokenThresholds;

  readonly #model: LanguageModelV3;
  readonly #system: string | undefined;
  readonly #display: DisplayFunction | undefined;
  readonly #pricing: Pricing | undefined;
  readonly #retry: ReturnType<typeof resolveRetry>;
  readonly #compactor: Compactor;
  readonly #tickMs: number;
  readonly #skillHint: SkillDiscovery | null;
  readonly #slashSkills: SkillDiscovery | null;
  #hintText: string | undefined;
  #permissionMode: PermissionMode;

  #messages: ModelMessage[] = [];
  #messagesView: readonly ModelMessage[] | null = null;
  readonly #tools = new Map<string, AgentTool<unknown>>();
  // Null prototype: a model calling `toString` or a tool named `__proto__` must not reach Object.prototype.
  readonly #sdkTools: Record<string, Tool> = Object.create(null);
  readonly #toolTokens = new Map<string, number>();
  #gate: PermissionGate | null = null;
  #presenter: ToolPresenter;
  readonly #presenterIssues: PresenterIssue[] = [];
  #records = new Map<string, ToolRecord>();
  #compactions: CompactionDecision[] = [];
  #turn: Turn | null = null;
  #lastReported = 0;
  #approvals: Promise<unknown> = Promise.resolve();
  /** Tokens of summary requests not yet reported in a turn's usage. */
  readonly #summaryUsage = { input: 0, output: 0 };

  /** Use {@link createClient}. */
  constructor(options: CreateClientOptions) {
    if (typeof options !== 'object' || options === null) {
      throw new AgentCoreError('INVALID_OPTIONS', 'createClient: expected an options object');
    }
    this.#model = resolveModel(options.model);
    this.cwd = options.cwd ?? process.cwd();
    if (typeof this.cwd !== 'string' || this.cwd === '') {
      throw new AgentCoreError('INVALID_OPTIONS', 'cwd must be a non-empty string');
    }
    this.maxTurns = positiveInt('maxTurns', options.maxTurns, 100);
    this.contextWindow = positiveInt('contextWindow', options.contextWindow, 200_000, 1000);
    const maxOutput = positiveInt('maxOutputTokens', options.maxOutputTokens, 32_000);
    this.thresholds = tokenThresholds(this.contextWindow, maxOutput);
    this.#tickMs = positiveInt('tickIntervalMs', options.tickIntervalMs, 100);
    this.#system = options.system;
    this.#display = options.display;
    if (options.pricing !== undefined) {
      const { inputPerMillion, outputPerMillion } = options.pricing;
      if (!(Number.isFinite(inputPerMillion) && Number.isFinite(outputPerMillion))) {
        throw new AgentCoreError(
          'INVALID_OPTIONS',
          'pricing needs finite inputPerMillion and outputPerMillion',
        );
      }
    }
    this.#pricing = options.pricing;
    this.#retry = resolveRetry(options.retry);
    this.#compactor = new Compactor(
      resolveCompaction(options.compaction),
      this.thresholds.threshold,
      (m, s) => this.#summarize(m, s),
    );
    this.#permissionMode = options.permissionMode ?? 'default';
    this.#presenter = this.#newPresenter();

    const registerTools = options.registerTools ?? true;
    for (const tool of options.tools ?? []) this.registerTool(tool);
    const skills = options.skills;
    this.#skillHint = null;
    this.#slashSkills = null;
    if (registerTools) {
      if (skills !== false) {
        const discovery = {
          cwd: this.cwd,
          ...(skills?.dirs ? { dirs: skills.dirs } : {}),
          ...(skills?.homeDir ? { homeDir: skills.homeDir } : {}),
        };
        if (!this.#tools.has('use_skill')) {
          const skill = useSkillTool(discovery);
          this.registerTool(
            defineTool<unknown>({
              name: skill.name,
              description: skill.description,
              inputSchema: jsonSchema(skill.inputSchema as never),
              capability: skill.capability,
              execute: (args) => skill.execute(args),
            }) as AgentTool<unknown>,
          );
        }
        if (skills?.hint !== false) this.#skillHint = discovery;
        if (skills?.slashCommands !== false) this.#slashSkills = discovery;
      }
      installPermissionGate(this, {
        mode: this.#permissionMode,
        ...(options.toolPolicy ? { policy: options.toolPolicy } : {}),
        ...(options.ask ? { ask: options.ask } : {}),
      });
    } else if (options.toolPolicy !== undefined || options.ask !== undefined) {
      throw new AgentCoreError(
        'INVALID_OPTIONS',
        'toolPolicy and ask configure the default gate of registerTools: true; a harness-only client gets its gate from installPermissionGate(client, ...)',
      );
    }
  }

  #newPresenter(): ToolPresenter {
    return createToolPresenter((name) => this.#presentation(name), {
      onError: (issue) => {
        if (this.#presenterIssues.length < 100) this.#presenterIssues.push(issue);
      },
    });
  }

  #presentation(name: string): ToolPresentation | undefined {
    const tool = this.#tools.get(name);
    if (!tool) return undefined;
    const schema: unknown = tool.inputSchema;
    const entry: { -readonly [K in keyof ToolPresentation]: ToolPresentation[K] } = {};
    if (tool.presentCall)
      entry.presentCall = tool.presentCall as NonNullable<ToolPresentation['presentCall']>;
    if (tool.presentResult) {
      entry.presentResult = tool.presentResult as NonNullable<ToolPresentation['presentResult']>;
    }
    if (isPlainRecord(schema) && '~standard' in schema) {
      entry.inputSchema = schema as unknown as NonNullable<ToolPresentation['inputSchema']>;
    }
    return entry;
  }

  // ---------------------------------------------------------------- public surface

  /** The provider-facing history (read-only snapshot; `client.history` is the same). */
  get messages(): readonly ModelMessage[] {
    this.#messagesView ??= Object.freeze(this.#messages.slice());
    return this.#messagesView;
  }

  /** Alias of {@link CodeagentClient.messages}. */
  get history(): readonly ModelMessage[] {
    return this.messages;
  }

  /** Names of the attached tools, in registration order. */
  get toolNames(): readonly string[] {
    return [...this.#tools.keys()];
  }

  /** The current permission mode (of the installed gate, else the configured one). */
  get permissionMode(): PermissionMode {
    return this.#gate?.mode ?? this.#permissionMode;
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.#turn !== null;
  }

  /** Every compaction decision of this session, oldest first. */
  get compactions(): readonly CompactionDecision[] {
    return this.#compactions.slice();
  }

  /** Presenter failures that were contained (for diagnostics; at most 100 kept). */
  get presenterIssues(): readonly PresenterIssue[] {
    return this.#presenterIssues.slice();
  }

  /** The stored tool results (display copies), in call order. */
  toolResults(): readonly ToolResultEvent[] {
    return [...this.#records.values()].map((r) => this.#resultEvent(r));
  }

  /** The stored tool records (arguments, full result, both cards), in call order. */
  toolRecords(): readonly ToolRecord[] {
    return [...this.#records.values()];
  }

  /** Attaches a tool (the gate learns its capability); throws on a duplicate name or while a turn runs. */
  registerTool<Args>(tool: AgentTool<Args>): void {
    if (this.#turn) throw new AgentCoreError('TURN_IN_PROGRESS', 'cannot register a tool while a turn runs');
    const t = defineTool(tool) as unknown as AgentTool<unknown>;
    if (this.#tools.has(t.name))
      throw new AgentCoreError('DUPLICATE_TOOL', `a tool named ${t.name} is already registered`);
    const schema = intentSchema(t.inputSchema as never);
    this.#tools.set(t.name, t);
    this.#sdkTools[t.name] = this.#sdkTool(t, schema);
    this.#toolTokens.set(t.name, toolDefinitionTokens(t, undefined));
    Promise.resolve(schema.jsonSchema).then(
      (js) => this.#toolTokens.set(t.name, toolDefinitionTokens(t, js)),
      () => undefined,
    );
    if (this.#gate) syncMeta(this.#gate, t);
  }

  /** Installs or removes the permission gate (the hook `installPermissionGate` uses). */
  setPermissionGate(gate: PermissionGate | null): void {
    this.#gate = gate;
    if (!gate) return;
    for (const t of this.#tools.values()) syncMeta(gate, t);
  }

  /** The installed permission gate, or `null`. */
  getPermissionGate(): PermissionGate | null {
    return this.#gate;
  }

  /** Switches the permission mode of the installed gate (no gate: remembered for the next default gate). */
  setPermissionMode(mode: PermissionMode): void {
    if (this.#gate) this.#gate.configure({ mode });
    this.#permissionMode = mode;
  }

  /** The usage record of the current history (what `onUsage` would report now, with no turn cost). */
  usage(): Usage {
    return this.#usage(0, 0);
  }

  /** Forgets the conversation (history, tool records, compactions); tools, gate and grants stay. */
  clear(): void {
    if (this.#turn) throw new AgentCoreError('TURN_IN_PROGRESS', 'cannot clear while a turn runs');
    this.#setMessages([]);
    this.#records = new Map();
    this.#compactions = [];
    this.#lastReported = 0;
    this.#compactor.setFailures(0);
    this.#presenter = this.#newPresenter();
  }

  /** Manual compaction (`/compact`): summarises older turns now, whatever the token count. */
  async compact(options: { signal?: AbortSignal } = {}): Promise<CompactionDecision> {
    if (this.#turn) throw new AgentCoreError('TURN_IN_PROGRESS', 'cannot compact while a turn runs');
    const before = this.#countTokens(this.#messages);
    const out = await this.#compactor.compact({
      messages: this.#messages,
      beforeTokens: before,
      estimate: (m) => this.#estimate(m),
      reason: 'manual compaction',
      force: true,
      signal: options.signal,
    });
    if (out.messages !== this.#messages) {
      this.#setMessages(out.messages.slice());
      this.#lastReported = 0;
    }
    this.#compactions.push(out.decision);
    return out.decision;
  }

  /** Serialises the session to versioned JSON (see `loadSession`); session-scoped grants are not saved. */
  save(): string {
    if (this.#turn) throw new AgentCoreError('TURN_IN_PROGRESS', 'cannot save while a turn runs');
    const data: SessionData = {
      format: SESSION_FORMAT,
      version: SESSION_VERSION,
      savedAt: new Date().toISOString(),
      cwd: this.cwd,
      permissionMode: this.permissionMode,
      messages: this.#messages,
      toolResults: [...this.#records.values()],
      compactions: this.#compactions,
      compactionFailures: this.#compactor.consecutiveFailures,
      lastReportedTokens: this.#lastReported,
    };
    return JSON.stringify(data);
  }

  // ---------------------------------------------------------------- internals

  /** @internal Restores state; tool results are adapted (display copy only) and cards re-presented. */
  [RESTORE](state: ClientState): void {
    this.#setMessages(state.messages.slice());
    this.#compactions = state.compactions.slice();
    this.#compactor.setFailures(state.compactionFailures);
    this.#lastReported = state.lastReportedTokens;
    this.#presenter = this.#newPresenter();
    this.#records = new Map();
    for (const r of state.records) {
      const result = adaptToolResult(r.result);
      const artifact = toolResultArtifact(result, { version: null });
      const isError = r.isError || isErrorResult(result, artifact);
      const { args } = splitIntent(r.arguments);
      const callView = this.#presenter.call(r.id, r.name, args);
      const view = this.#presenter.result(r.id, {
        content: result.value,
        isError,
        meta: presentationMeta(result),
      });
      this.#records.set(r.id, {
        id: r.id,
        name: r.name,
        arguments: r.arguments,
        result,
        isError,
        callView,
        view,
      });
    }
  }

  #setMessages(m: ModelMessage[]): void {
    this.#messages = m;
    this.#messagesView = null;
  }

  #toolTokenTotal(): number {
    let n = 0;
    for (const v of this.#toolTokens.values()) n += v;
    return n;
  }

  #systemPrompt(): string | undefined {
    const hint = this.#hintText;
    if (!hint) return this.#system;
    return this.#system ? `${this.#system}\n\n${hint}` : hint;
  }

  #estimate(messages: readonly ModelMessage[]): number {
    return estimateRequestTokens(messages, this.#systemPrompt(), this.#toolTokenTotal());
  }

  #countTokens(messages: readonly ModelMessage[]): number {
    return Math.max(this.#estimate(messages), this.#lastReported);
  }

  #usage(inputTokens: number, outputTokens: number): Usage {
    const nTokens = this.#countTokens(this.#messages);
    const p = this.#pricing;
    return {
      nTokens,
      modelLimit: this.contextWindow,
      warningState: warningStateFor(nTokens, this.thresholds),
      costLast: p ? (inputTokens * p.inputPerMillion + outputTokens * p.outputPerMillion) / 1_000_000 : null,
      inputTokens,
      outputTokens,
    };
  }

  #resultEvent(r: ToolRecord): ToolResultEvent {
    const artifact = toolResultArtifact(r.result, { version: null });
    return {
      id: r.id,
      name: r.name,
      display: this.#displayOf(r.result, r.view),
      value: r.result.value,
      isError: r.isError,
      artifact,
      view: r.view,
    };
  }

  #displayOf(result: ToolResult, view: ToolResultView): unknown {
    if (this.#display) return this.#display(result, view);
    const d = result.extra?.display;
    return d === undefined ? null : d;
  }

  async #summarize(messages: readonly ModelMessage[], signal: AbortSignal | undefined): Promise<string> {
    const turn = this.#turn;
    const model = withRetry(this.#model, this.#retry, (message) =>
      turn?.emit({ type: 'error', message, recovered: true }),
    );
    let failure: unknown;
    const result = streamText({
      model,
      system: this.#compactor.settings.summaryPrompt,
      prompt: `Summarise this conversation:\n\n${transcriptOf(messages)}`,
      maxRetries: 0,
      ...(signal ? { abortSignal: signal } : {}),
      onError: () => undefined,
    });
    let text = '';
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      else if (part.type === 'error') failure = part.error;
      else if (part.type === 'abort') throw abortError();
      else if (part.type === 'finish') {
        // Billed like any other request of the turn.
        this.#summaryUsage.input += part.totalUsage.inputTokens ?? 0;
        this.#summaryUsage.output += part.totalUsage.outputTokens ?? 0;
      }
    }
    if (failure !== undefined) throw failure;
    return text;
  }

  #sdkTool(tool: AgentTool<unknown>, schema: ReturnType<typeof intentSchema>): Tool {
    return {
      description: tool.description,
      inputSchema: schema,
      execute: (input: unknown, options: { toolCallId: string; abortSignal?: AbortSignal }) =>
        this.#execute(tool, input, options.toolCallId, options.abortSignal),
      toModelOutput: ({ output }: { output: unknown }) => {
        if (isOutcome(output)) {
          return output.isError
            ? { type: 'error-text' as const, value: output.result.value }
            : { type: 'text' as const, value: output.result.value };
        }
        return { type: 'text' as const, value: normalizeToolOutput(output).value };
      },
    } as Tool;
  }

  async #execute(
    tool: AgentTool<unknown>,
    input: unknown,
    callId: string,
    sdkSignal: AbortSignal | undefined,
  ): Promise<ExecOutcome> {
    const turn = this.#turn;
    if (!turn) throw new AgentCoreError('TURN_IN_PROGRESS', 'tool executed outside of a turn');
    // The turn's own signal aborts on user aborts and failed callbacks alike; the SDK's is a merge of it.
    const signal = sdkSignal?.aborted ? sdkSignal : turn.signal;
    // The host sees the request before the gate decides.
    let d = turn.requested.get(callId);
    if (!d) {
      d = new Deferred();
      turn.requested.set(callId, d);
    }
    if (!d.settled) await raceAbort(d.promise, signal);
    const { intent, args } = splitIntent(input);
    const gate = this.#gate;
    if (gate) {
      // The gate parses Bash commands with the bash grammar, loaded once; if it cannot load, the gate fails closed.
      if (!isShellGrammarLoaded())
        await raceAbort(
          loadInstalledShellGrammar().catch(() => undefined),
          signal,
        );
      syncMeta(gate, tool);
      const check = () => gate.check({ id: callId, name: tool.name, input: args, signal });
      const run = this.#approvals.then(check, check);
      this.#approvals = run.catch(() => undefined);
      const decision = await raceAbort(run, signal);
      if (signal.aborted) throw abortError();
      if (!decision.allowed) {
        const message = permissionDeniedMessage(tool.name, decision.reason);
        const denied = toolResult(message, { kind: 'error', payload: { message } });
        return outcome({ ...denied, error: 'permission_denied' }, true);
      }
    }
    let output: unknown;
    try {
      // A tool that ignores its signal must not hold an interrupted turn open.
      const running = Promise.resolve().then(() =>
        tool.execute(args as unknown, { callId, name: tool.name, signal, cwd: this.cwd, intent }),
      );
      output = await raceAbort(running, signal);
    } catch (e) {
      if (signal.aborted || isAbortError(e)) throw e;
      const message = `Error: ${errorMessage(e)}`;
      const failed = toolResult(message, { kind: 'error', payload: { message: errorMessage(e) } });
      return outcome({ ...failed, error: errorMessage(e) }, true);
    }
    return outcome(normalizeToolOutput(output));
  }

  /** `/name args` naming a discovered skill becomes the command plus the skill's prompt; anything else is kept. */
  async #expandSlashCommand(input: StreamInput, emit: (e: AgentEvent) => void): Promise<StreamInput> {
    if (!this.#slashSkills || typeof input !== 'string') return input;
    const command = parseSlashCommand(input);
    if (!command) return input;
    try {
      const prompt = await loadSkillPrompt(command.name, { ...this.#slashSkills, args: command.args });
      return `${input.trim()}\n\n<skill name="${command.name}">\n${prompt.trimEnd()}\n</skill>`;
    } catch (e) {
      // Not a skill (host commands such as /compact pass through); other failures are reported.
      if (!(e instanceof SkillError && e.code === 'SKILL_NOT_FOUND')) {
        emit({
          type: 'error',
          message: `Skill /${command.name} not loaded: ${errorMessage(e)}`,
          recovered: true,
        });
      }
      return input;
    }
  }

  #onToolCall(turn: Turn, id: string, name: string, input: unknown): void {
    const { intent, args } = splitIntent(input);
    turn.args.set(id, input);
    const view = this.#presenter.call(id, name, args);
    turn.callViews.set(id, view);
    const event: ToolRequestEvent = { id, name, arguments: input, intent, view };
    turn.emit({ type: 'tool-request', ...event });
    const d = turn.requested.get(id);
    if (d) d.resolve();
    else {
      const nd = new Deferred();
      nd.resolve();
      turn.requested.set(id, nd);
    }
  }

  #onToolResult(turn: Turn, id: string, name: string, out: ExecOutcome): void {
    const { result, artifact, isError } = out;
    const view = this.#presenter.result(id, {
      content: result.value,
      isError,
      meta: presentationMeta(result),
    });
    const input = turn.args.get(id);
    const callView: ToolCallView = turn.callViews.get(id) ?? {
      card: 'generic',
      title: name,
      kind: 'other',
      rawInput: splitIntent(input).args,
    };
    const record: ToolRecord = { id, name, arguments: input, result, isError, callView, view };
    this.#records.set(id, record);
    const display = this.#displayOf(result, view);
    turn.emit({ type: 'tool-result', id, name, display, value: result.value, isError, artifact, view });
  }

  /** Before every model request: compaction over the threshold, refusal at the blocking level. */
  async #prepareStep(
    turn: Turn,
    attempt: Attempt,
    stepInput: ModelMessage[],
  ): Promise<{ messages?: ModelMessage[] }> {
    // streamText rebuilds each step's input from the original messages: re-apply this turn's compaction.
    let msgs: readonly ModelMessage[] = attempt.replacement
      ? [...attempt.replacement, ...stepInput.slice(attempt.covered)]
      : stepInput;
    const before = Math.max(this.#estimate(msgs), this.#lastReported);
    if (before >= this.thresholds.threshold && this.#compactor.settings.enabled) {
      const out = await this.#compactor.compact({
        messages: msgs,
        beforeTokens: before,
        estimate: (m) => this.#estimate(m),
        reason: `context at ${before} tokens, over the ${this.thresholds.threshold}-token threshold`,
        signal: turn.signal,
      });
      this.#compactions.push(out.decision);
      turn.emit({ type: 'compaction', decision: out.decision });
      if (out.messages !== msgs) {
        attempt.replacement = out.messages;
        attempt.covered = stepInput.length;
        msgs = out.messages;
        this.#lastReported = 0;
      }
    }
    if (this.#countTokens(msgs) >= this.thresholds.blocking) {
      attempt.budgetExceeded = true;
      throw new AgentCoreError('COMPACTION_FAILED', 'context at the blocking limit');
    }
    return attempt.replacement ? { messages: msgs as ModelMessage[] } : {};
  }

  /** Turns one `fullStream` part into events and bookkeeping. */
  #consume(turn: Turn, attempt: Attempt, totals: TurnTotals, part: TextStreamPart<ToolSet>): void {
    switch (part.type) {
      case 'text-delta':
        totals.text += part.text;
        turn.emit({ type: 'delta', text: part.text });
        return;
      case 'reasoning-delta':
        turn.emit({ type: 'thinking', text: part.text });
        return;
      case 'start-step':
        attempt.pending = new Set();
        return;
      case 'tool-call':
        attempt.pending.add(part.toolCallId);
        this.#onToolCall(turn, part.toolCallId, part.toolName, part.input);
        return;
      case 'tool-result': {
        attempt.pending.delete(part.toolCallId);
        const out: unknown = part.output;
        this.#onToolResult(
          turn,
          part.toolCallId,
          part.toolName,
          isOutcome(out) ? out : outcome(normalizeToolOutput(out)),
        );
        return;
      }
      case 'tool-error': {
        attempt.pending.delete(part.toolCallId);
        if (turn.signal.aborted) return;
        // Exactly the text the SDK sends the model for this error.
        const message = getErrorMessage(part.error);
        const failed = toolResult(message, { kind: 'error', payload: { message } });
        this.#onToolResult(
          turn,
          part.toolCallId,
          part.toolName,
          outcome({ ...failed, error: message }, true),
        );
        return;
      }
      case 'finish-step': {
        attempt.stepsDone++;
        totals.finishReason = part.finishReason;
        totals.rawFinish = part.rawFinishReason ?? part.finishReason;
        const { inputTokens, outputTokens } = part.usage;
        totals.inputTokens += inputTokens ?? 0;
        totals.outputTokens += outputTokens ?? 0;
        if (inputTokens !== undefined || outputTokens !== undefined) {
          this.#lastReported = (inputTokens ?? 0) + (outputTokens ?? 0);
        }
        return;
      }
      case 'error':
        attempt.streamError ??= part.error;
        return;
      case 'abort':
        attempt.aborted = true;
        return;
      default:
        // Lifecycle parts (start, text-start/end, tool-input-*, sources, files...) carry nothing for the host.
        return;
    }
  }

  /** @internal Runs one turn, delivering events to `emit`; always resolves. */
  async [RUN_TURN](
    input: StreamInput,
    emit: (e: AgentEvent) => void,
    userSignal?: AbortSignal,
  ): Promise<StreamResult> {
    const refusal =
      this.#turn !== null
        ? 'a turn is already running on this client'
        : userSignal !== undefined && !(userSignal instanceof AbortSignal)
          ? 'options.signal must be an AbortSignal'
          : null;
    if (refusal !== null) {
      const message = refusal;
      const result: StreamResult = { text: '', usage: null, stopReason: 'error', finishReason: null };
      try {
        emit({ type: 'error', message, recovered: false });
        emit({ type: 'end', result });
      } catch {
        // The error path already applies.
      }
      return result;
    }
    const controller = new AbortController();
    // Every parallel tool call listens on it (approval race); that is not a leak.
    setMaxListeners(0, controller.signal);
    let closed = false;
    let callbackFailure: unknown;
    let callbackFailed = false;
    const safeEmit = (e: AgentEvent): void => {
      if (closed) return;
      try {
        emit(e);
      } catch (err) {
        if (!callbackFailed) {
          callbackFailed = true;
          callbackFailure = err;
        }
        controller.abort(err);
      }
    };
    const onUserAbort = () => controller.abort(userSignal?.reason);
    if (userSignal?.aborted) controller.abort(userSignal.reason);
    else userSignal?.addEventListener('abort', onUserAbort, { once: true });
    // Approvals are serial within a turn; a new turn never waits on an older turn's prompt.
    this.#approvals = Promise.resolve();
    const turn: Turn = {
      emit: safeEmit,
      signal: controller.signal,
      requested: new Map(),
      args: new Map(),
      callViews: new Map(),
    };
    this.#turn = turn;
    const tick = setInterval(() => safeEmit({ type: 'tick' }), this.#tickMs);
    tick.unref?.();

    const totals: TurnTotals = {
      text: '',
      finishReason: undefined,
      rawFinish: undefined,
      inputTokens: 0,
      outputTokens: 0,
    };
    let failure: unknown;
    let failed = false;
    let budgetExceeded = false;
    let hitMaxTurns = false;
    let unresolved = 0;
    try {
      if (this.#skillHint && this.#hintText === undefined) {
        try {
          this.#hintText = await buildSkillHint(this.#skillHint);
        } catch {
          this.#hintText = '';
        }
      }
      const expanded = await this.#expandSlashCommand(input, safeEmit);
      let base: ModelMessage[] = [...this.#messages, toUserMessage(expanded)];
      let stepsLeft = this.maxTurns;
      let promptTooLongRetried = false;
      for (;;) {
        const attempt: Attempt = {
          responses: [],
          replacement: null,
          covered: 0,
          stepsDone: 0,
          pending: new Set(),
          streamError: undefined,
          aborted: false,
          budgetExceeded: false,
        };
        const model = withRetry(this.#model, this.#retry, (message) =>
          safeEmit({ type: 'error', message, recovered: true }),
        );
        const system = this.#systemPrompt();
        const result = streamText({
          model,
          ...(system !== undefined ? { system } : {}),
          messages: base,
          tools: this.#sdkTools as ToolSet,
          stopWhen: stepCountIs(stepsLeft),
          maxRetries: 0,
          abortSignal: controller.signal,
          onError: () => undefined,
          onStepFinish: (step: StepResult<ToolSet>) => {
            attempt.responses = step.response.messages as ModelMessage[];
          },
          prepareStep: ({ messages: stepInput }) => this.#prepareStep(turn, attempt, stepInput),
        });
        try {
          for await (const part of result.fullStream) this.#consume(turn, attempt, totals, part);
        } catch (e) {
          if (controller.signal.aborted) attempt.aborted = true;
          else attempt.streamError ??= e;
        }
        const all = [...base, ...attempt.responses];
        const { replacement, covered, stepsDone, streamError, aborted } = attempt;
        budgetExceeded = attempt.budgetExceeded;
        const history = replacement ? [...replacement, ...all.slice(covered)] : all;
        unresolved = attempt.pending.size;
        if (streamError !== undefined && !budgetExceeded && !controller.signal.aborted) {
          const cls = classifyError(streamError);
          if (cls === 'prompt_too_long' && !promptTooLongRetried) {
            promptTooLongRetried = true;
            const before = Math.max(this.#estimate(history), this.#lastReported);
            const dropped = this.#compactor.dropOldest(
              history,
              (m) => this.#estimate(m),
              before,
              errorMessage(streamError),
            );
            if (dropped) {
              this.#compactions.push(dropped.decision);
              safeEmit({ type: 'compaction', decision: dropped.decision });
              safeEmit({
                type: 'error',
                message: `Prompt too long: dropped ${dropped.decision.dropped.length} oldest messages, retrying once`,
                recovered: true,
              });
              base = dropped.messages.slice();
              this.#lastReported = 0;
              stepsLeft -= stepsDone;
              if (stepsLeft > 0) continue;
            }
          }
          failed = true;
          failure = streamError;
        }
        if (budgetExceeded) unresolved = 0;
        hitMaxTurns = stepsDone >= stepsLeft && totals.finishReason === 'tool-calls' && unresolved === 0;
        if (aborted && !callbackFailed && !userSignal?.aborted) failed = true;
        this.#setMessages(history);
        break;
      }
    } catch (e) {
      failed = true;
      failure = e;
    } finally {
      clearInterval(tick);
      userSignal?.removeEventListener('abort', onUserAbort);
      this.#turn = null;
    }

    if (callbackFailed) {
      failed = true;
      failure = new AgentCoreError('CALLBACK_FAILED', `a callback threw: ${errorMessage(callbackFailure)}`, {
        cause: callbackFailure,
      });
    }
    const userAborted = !callbackFailed && userSignal?.aborted === true;
    const stopReason = mapStopReason({
      finishReason: userAborted || failed ? undefined : totals.finishReason,
      failed: failed && !userAborted,
      aborted: userAborted,
      hitMaxTurns,
      budgetExceeded,
      unresolvedToolCalls: unresolved,
    });
    const note = stopNote(stopReason);
    const inputTokens = totals.inputTokens + this.#summaryUsage.input;
    const outputTokens = totals.outputTokens + this.#summaryUsage.output;
    this.#summaryUsage.input = 0;
    this.#summaryUsage.output = 0;
    const usage = stopReason === 'error' ? null : this.#usage(inputTokens, outputTokens);
    const result: StreamResult = {
      text: totals.text,
      usage,
      stopReason,
      finishReason: totals.rawFinish ?? null,
    };
    closed = true;
    const deliver = (e: AgentEvent) => {
      try {
        emit(e);
      } catch {
        // The turn is over; a failing callback here cannot change the result.
      }
    };
    if (stopReason === 'error') {
      deliver({ type: 'error', message: errorMessage(failure ?? 'unknown error'), recovered: false });
    } else {
      if (note) deliver({ type: 'error', message: note, recovered: true });
      if (usage) deliver({ type: 'usage', usage });
    }
    deliver({ type: 'end', result });
    return result;
  }
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

/** Races a promise against an abort signal (rejecting with an AbortError). */
function raceAbort<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(abortError());
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(abortError());
    signal.addEventListener('abort', onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener('abort', onAbort);
        resolve(v);
      },
      (e) => {
        signal.removeEventListener('abort', onAbort);
        reject(e);
      },
    );
  });
}

/** Creates a client (one per user session). See {@link CreateClientOptions}. */
export function createClient(options: CreateClientOptions): CodeagentClient {
  return new CodeagentClient(options);
}
