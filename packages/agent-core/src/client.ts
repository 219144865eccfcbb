import {
  installPermissionGate,
  type PermissionGate,
  type PermissionGateTarget,
  type PermissionMode,
} from '@codeagent/permission-gate';
import type { PresenterIssue } from '@codeagent/render-intent';
import type { ModelMessage } from 'ai';
import { type CompactionDecision, Compactor, summaryPromptWith } from './compaction.js';
import { AgentCoreError } from './errors.js';
import type { ToolResultEvent } from './events.js';
import type { StreamInput } from './input.js';
import type { PendingStep } from './resume-types.js';
import { type CreateClientOptions, resolveClientOptions } from './options.js';
import type { ToolRecord } from './session.js';
import { type RestoredState, SessionState } from './session-state.js';
import { SkillWiring, type SlashExpansion } from './skill-wiring.js';
import type { AgentTool } from './tool.js';
import { ToolRunner } from './tool-runner.js';
import { TurnRunner } from './turn.js';
import type { TokenThresholds, Usage } from './usage.js';

/** The rooms of one client; `stream` / `streamEvents` reach the turn runner through {@link turnRunnerOf}. */
export interface ClientRooms {
  readonly session: SessionState;
  readonly tools: ToolRunner;
  readonly turns: TurnRunner;
  readonly compactor: Compactor;
}

const rooms = new WeakMap<CodeagentClient, ClientRooms>();

/** The turn runner of a client made by `createClient`, or `undefined` for anything else. */
export function turnRunnerOf(client: unknown): TurnRunner | undefined {
  return rooms.get(client as CodeagentClient)?.turns;
}

/** The rooms of a client made by `createClient` (the resume path, `resume.ts`), or `undefined` for anything else. */
export function roomsOf(client: unknown): ClientRooms | undefined {
  return rooms.get(client as CodeagentClient);
}

/** Restores validated session state into a fresh client (`loadSession`). */
export function restoreSession(client: CodeagentClient, state: RestoredState): void {
  const r = rooms.get(client);
  if (!r)
    throw new AgentCoreError('invalid-options', 'restoreSession: expected a client made by createClient');
  r.session.restore(state, r.tools);
  r.compactor.setFailures(state.compactionFailures);
}

/**
 * One user session of the agent. A facade over three rooms: the session (`session-state.ts`: history,
 * tool records, compaction log, save/restore), the tool runner (`tool-runner.ts`: gate, approvals, abort
 * race, three channels, cards) and the turn runner (`turn.ts`). Create with {@link createClient}; drive
 * turns with `stream` / `streamEvents`. Never share a client between users. Implements the permission
 * gate's target hook, so `installPermissionGate(client, ...)` works.
 */
export class CodeagentClient implements PermissionGateTarget {
  /** The session's working directory. */
  readonly cwd: string;
  /** Model requests allowed per turn (the contract's name; see {@link CodeagentClient.maxModelRequests}). */
  readonly maxTurns: number;
  /** Model requests allowed per turn. */
  readonly maxModelRequests: number;
  /** The context window in tokens. */
  readonly contextWindow: number;
  /** The token levels derived from the window and the max output. */
  readonly thresholds: TokenThresholds;

  readonly #session: SessionState;
  readonly #tools: ToolRunner;
  readonly #turns: TurnRunner;
  readonly #compactor: Compactor;
  readonly #skills: SkillWiring | null;
  /** The mode of the next default gate; once a gate is installed, its mode is the only one. */
  #permissionMode: PermissionMode;

  /** Use {@link createClient}. */
  constructor(options: CreateClientOptions) {
    const o = resolveClientOptions(options);
    this.cwd = o.cwd;
    this.maxModelRequests = o.maxModelRequests;
    this.maxTurns = o.maxModelRequests;
    this.contextWindow = o.contextWindow;
    this.thresholds = o.thresholds;
    this.#permissionMode = o.permissionMode;

    const skills =
      o.registerTools && options.skills !== false ? new SkillWiring(o.cwd, options.skills) : null;
    this.#skills = skills;
    const system = o.system;
    const systemPrompt = (): string | undefined => {
      const hint = skills?.hintText;
      if (!hint) return system;
      return system ? `${system}\n\n${hint}` : hint;
    };
    this.#tools = new ToolRunner(o.cwd, o.display);
    this.#session = new SessionState(
      () => ({ system: systemPrompt(), toolTokens: this.#tools.definitionTokens }),
      o.thresholds,
      o.contextWindow,
      o.pricing,
    );
    const summaryPrompt = o.compaction.summaryPrompt;
    const compactor: Compactor = new Compactor(
      o.compaction,
      o.thresholds.threshold,
      (m, signal, instructions) =>
        this.#turns.summarize(m, signal, summaryPromptWith(summaryPrompt, instructions)),
    );
    this.#compactor = compactor;
    this.#turns = new TurnRunner({
      model: o.model,
      retry: o.retry,
      maxTurns: o.maxModelRequests,
      tickMs: o.tickMs,
      thresholds: o.thresholds,
      session: this.#session,
      tools: this.#tools,
      skills,
      systemPrompt,
      compactor: () => compactor,
    });
    rooms.set(this, { session: this.#session, tools: this.#tools, turns: this.#turns, compactor });

    for (const tool of options.tools ?? []) this.registerTool(tool);
    if (o.registerTools) this.#installDefaults(options, skills);
  }

  /** `registerTools: true`: the `use_skill` tool (unless the host brought one) and the default gate. */
  #installDefaults(options: CreateClientOptions, skills: SkillWiring | null): void {
    if (skills && !this.#tools.has('use_skill')) this.registerTool(skills.useSkillTool());
    installPermissionGate(this, {
      mode: this.#permissionMode,
      ...(options.toolPolicy ? { policy: options.toolPolicy } : {}),
      ...(options.ask ? { ask: options.ask } : {}),
    });
  }

  // ---------------------------------------------------------------- session

  /** The provider-facing history (a frozen snapshot; treat its message objects as read-only). */
  get messages(): readonly ModelMessage[] {
    return this.#session.messages;
  }

  /** @deprecated Use {@link CodeagentClient.messages}; the same snapshot. */
  get history(): readonly ModelMessage[] {
    return this.#session.messages;
  }

  /** True while a turn runs. */
  get busy(): boolean {
    return this.#turns.busy;
  }

  /**
   * The model step the running turn is in while some of its tool calls wait for a result (a turn parked on
   * approvals): its text, calls, the results that came and the turn's model requests so far, as plain JSON; `null`
   * when no turn runs or no call waits. A host stores it with the history before the step, so that `resumeTurn`
   * continues the turn from storage after a restart (ADR 0210).
   */
  pendingStep(): PendingStep | null {
    return this.#turns.pendingStep();
  }

  /** Every compaction decision of this session, oldest first (a fresh copy, like {@link CodeagentClient.toolResults}). */
  compactionDecisions(): readonly CompactionDecision[] {
    return this.#session.compactions;
  }

  /** @deprecated Use {@link CodeagentClient.compactionDecisions}; the same copy. */
  get compactions(): readonly CompactionDecision[] {
    return this.#session.compactions;
  }

  /** The stored tool results (display copies), in call order (a fresh array). */
  toolResults(): readonly ToolResultEvent[] {
    return this.#session.records().map((r) => this.#tools.resultEvent(r));
  }

  /** The stored tool records (arguments, full result, both cards), in call order (a fresh array). */
  toolRecords(): readonly ToolRecord[] {
    return this.#session.records();
  }

  /** The usage record of the current history (what `onUsage` would report now, with no turn cost). */
  usage(): Usage {
    return this.#session.usage(0, 0);
  }

  /** Forgets the conversation (history, tool records, compactions); tools, gate and grants stay. */
  clear(): void {
    this.#idle('clear');
    this.#session.clear();
    this.#compactor.setFailures(0);
    this.#tools.resetPresenter();
  }

  /**
   * Manual compaction (`/compact [instructions]`): summarises older turns now, whatever the token count; `instructions`
   * bias the summary (what to keep, what to focus on), as in Claude Code.
   */
  async compact(options: { signal?: AbortSignal; instructions?: string } = {}): Promise<CompactionDecision> {
    this.#idle('compact');
    const instructions = typeof options.instructions === 'string' ? options.instructions.trim() : '';
    const session = this.#session;
    const history = session.history;
    const out = await this.#compactor.compact({
      messages: history,
      beforeTokens: session.countTokens(history),
      estimate: (m) => session.estimate(m),
      reason: instructions ? `manual compaction: ${instructions.slice(0, 200)}` : 'manual compaction',
      force: true,
      signal: options.signal,
      ...(instructions ? { instructions } : {}),
    });
    if (out.messages !== history) {
      session.setMessages(out.messages.slice());
      session.lastReported = 0;
    }
    session.addCompaction(out.decision);
    return out.decision;
  }

  /** Serialises the session to versioned JSON (see `loadSession`); session-scoped grants are not saved. */
  save(): string {
    this.#idle('save');
    return JSON.stringify(
      this.#session.data(this.cwd, this.permissionMode, this.#compactor.consecutiveFailures),
    );
  }

  #idle(what: string): void {
    if (this.#turns.busy) throw new AgentCoreError('turn-in-progress', `cannot ${what} while a turn runs`);
  }

  // ---------------------------------------------------------------- tools and gate

  /** Names of the attached tools, in registration order. */
  get toolNames(): readonly string[] {
    return this.#tools.names;
  }

  /** Presenter failures that were contained (for diagnostics; at most 100 kept). */
  get presenterIssues(): readonly PresenterIssue[] {
    return this.#tools.presenterIssues;
  }

  /** Attaches a tool (the gate learns its capability); throws on a duplicate name or while a turn runs. */
  registerTool<Args>(tool: AgentTool<Args>): void {
    if (this.#turns.busy)
      throw new AgentCoreError('turn-in-progress', 'cannot register a tool while a turn runs');
    this.#tools.register(tool as unknown as AgentTool<unknown>);
  }

  /** Installs or removes the permission gate (the hook `installPermissionGate` uses). */
  setPermissionGate(gate: PermissionGate | null): void {
    this.#tools.setGate(gate);
  }

  /** The installed permission gate, or `null`. */
  getPermissionGate(): PermissionGate | null {
    return this.#tools.gate;
  }

  /**
   * Resolves when call `id` of the running turn is through its precheck (the tool's read-only check before the
   * gate asks): `true` when it goes on to the permission gate, `false` when the precheck refused it (its result is
   * the refusal) or the turn ended first. Prechecks start as soon as a call's `tool-request` is delivered, while the
   * gate asks one call at a time; a host that shows approvals ahead of the gate's `ask` waits for this, so a call
   * known to fail is never put to the user.
   */
  prechecked(id: string): Promise<boolean> {
    return this.#tools.prechecked(id);
  }

  /** The permission mode: the installed gate's, else the one the next default gate gets. */
  get permissionMode(): PermissionMode {
    return this.#tools.gate?.mode ?? this.#permissionMode;
  }

  /**
   * Switches the permission mode: of the installed gate (the one place it is kept), else of the next
   * gate. A host calls only this; it need not also reconfigure the gate.
   */
  setPermissionMode(mode: PermissionMode): void {
    const gate = this.#tools.gate;
    if (gate) gate.configure({ mode });
    this.#permissionMode = mode;
  }

  // ---------------------------------------------------------------- input

  /**
   * The slash-command expansion every turn applies to its input (`registerTools: true` with slash commands
   * on): `/name args` naming a discovered skill becomes the command plus the skill's prompt. Hosts call it
   * to tell a skill from an unknown command before running the turn with the unexpanded input.
   */
  async expandSlashCommand(input: StreamInput): Promise<SlashExpansion> {
    return this.#skills ? this.#skills.expandSlashCommand(input) : { kind: 'none', input };
  }
}

/** Creates a client (one per user session). See {@link CreateClientOptions}. */
export function createClient(options: CreateClientOptions): CodeagentClient {
  return new CodeagentClient(options);
}
