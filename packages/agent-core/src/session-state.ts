import { adaptToolResult, toolResultArtifact } from '@codeagent/artifact-schema';
import type { PermissionMode } from '@codeagent/permission-gate';
import type { ModelMessage } from 'ai';
import type { CompactionDecision } from './compaction.js';
import { SESSION_FORMAT, SESSION_VERSION, type SessionData, type ToolRecord } from './session.js';
import { isErrorResult, type ToolRunner } from './tool-runner.js';
import { splitIntent } from './tool.js';
import { estimateRequestTokens, type TokenThresholds, type Usage, warningStateFor } from './usage.js';

/** Restorable state of a client (what `loadSession` hands over after validating the JSON). */
export interface RestoredState {
  /** Provider-facing history. */
  readonly messages: readonly ModelMessage[];
  /** Stored tool results (untrusted: adapted and re-presented on restore). */
  readonly records: readonly ToolRecord[];
  /** Compaction decisions, oldest first. */
  readonly compactions: readonly CompactionDecision[];
  /** Circuit breaker state. */
  readonly compactionFailures: number;
  /** Provider-reported tokens of the last request. */
  readonly lastReportedTokens: number;
}

/** Per-million-token prices used to compute `costLast`. */
export interface Pricing {
  /** Price of one million input tokens. */
  readonly inputPerMillion: number;
  /** Price of one million output tokens. */
  readonly outputPerMillion: number;
}

/**
 * The session room of a client: the provider-facing history, the tool records (display copies), the
 * compaction log, the token bookkeeping, and save/restore. Session-scoped permission grants live in the
 * gate and are never saved.
 */
export class SessionState {
  #messages: ModelMessage[] = [];
  #messagesView: readonly ModelMessage[] | null = null;
  #records = new Map<string, ToolRecord>();
  #compactions: CompactionDecision[] = [];
  /** Provider-reported tokens (input + output) of the last model request; 0 after a rewrite. */
  lastReported = 0;
  /** Tokens of summary requests not yet reported in a turn's usage. */
  readonly summaryUsage = { input: 0, output: 0 };
  readonly #overhead: () => { system: string | undefined; toolTokens: number };
  readonly #thresholds: TokenThresholds;
  readonly #contextWindow: number;
  readonly #pricing: Pricing | undefined;

  constructor(
    overhead: () => { system: string | undefined; toolTokens: number },
    thresholds: TokenThresholds,
    contextWindow: number,
    pricing: Pricing | undefined,
  ) {
    this.#overhead = overhead;
    this.#thresholds = thresholds;
    this.#contextWindow = contextWindow;
    this.#pricing = pricing;
  }

  /** The history (read-only snapshot, rebuilt only after a change). */
  get messages(): readonly ModelMessage[] {
    this.#messagesView ??= Object.freeze(this.#messages.slice());
    return this.#messagesView;
  }

  /** The live history array (never handed to a host). */
  get history(): readonly ModelMessage[] {
    return this.#messages;
  }

  /** Replaces the history (the loop never mutates a message, it replaces the list). */
  setMessages(messages: ModelMessage[]): void {
    this.#messages = messages;
    this.#messagesView = null;
  }

  /** Every compaction decision, oldest first (a copy). */
  get compactions(): readonly CompactionDecision[] {
    return this.#compactions.slice();
  }

  /** Records a compaction decision. */
  addCompaction(decision: CompactionDecision): void {
    this.#compactions.push(decision);
  }

  /** Stores the display copy of a finished tool call. */
  addRecord(record: ToolRecord): void {
    this.#records.set(record.id, record);
  }

  /** The stored tool records, in call order. */
  records(): readonly ToolRecord[] {
    return [...this.#records.values()];
  }

  /** Tokens a request with `messages` would take: system prompt, tool definitions and messages. */
  estimate(messages: readonly ModelMessage[]): number {
    const { system, toolTokens } = this.#overhead();
    return estimateRequestTokens(messages, system, toolTokens);
  }

  /** Tokens every request pays besides its messages (system prompt and tool definitions). */
  overheadTokens(): number {
    return this.estimate([]);
  }

  /** The estimate calibrated by the provider's last figure. */
  countTokens(messages: readonly ModelMessage[]): number {
    return Math.max(this.estimate(messages), this.lastReported);
  }

  /** The usage record of the current history with a turn's billed tokens. */
  usage(inputTokens: number, outputTokens: number): Usage {
    const nTokens = this.countTokens(this.#messages);
    const p = this.#pricing;
    return {
      nTokens,
      modelLimit: this.#contextWindow,
      warningState: warningStateFor(nTokens, this.#thresholds),
      costLast: p ? (inputTokens * p.inputPerMillion + outputTokens * p.outputPerMillion) / 1_000_000 : null,
      inputTokens,
      outputTokens,
    };
  }

  /** Forgets the conversation (history, records, compactions, token figures). */
  clear(): void {
    this.setMessages([]);
    this.#records = new Map();
    this.#compactions = [];
    this.lastReported = 0;
  }

  /** The saved form of the session. */
  data(cwd: string, permissionMode: PermissionMode, compactionFailures: number): SessionData {
    return {
      format: SESSION_FORMAT,
      version: SESSION_VERSION,
      savedAt: new Date().toISOString(),
      cwd,
      permissionMode,
      messages: this.#messages,
      toolResults: [...this.#records.values()],
      compactions: this.#compactions,
      compactionFailures,
      lastReportedTokens: this.lastReported,
    };
  }

  /** Restores validated state; tool results are adapted (display copy only) and their cards re-presented. */
  restore(state: RestoredState, tools: ToolRunner): void {
    this.setMessages(state.messages.slice());
    this.#compactions = state.compactions.slice();
    this.lastReported = state.lastReportedTokens;
    tools.resetPresenter();
    this.#records = new Map();
    for (const r of state.records) {
      const result = adaptToolResult(r.result);
      const isError = r.isError || isErrorResult(result, toolResultArtifact(result, { version: null }));
      const callView = tools.presentCall(r.id, r.name, splitIntent(r.arguments).args, false);
      this.#records.set(r.id, tools.presentResult(r.id, r.name, r.arguments, callView, result, isError));
    }
  }
}
