import type { PermissionMode } from '@codeagent/permission-gate';
import type { ModelMessage } from 'ai';
import type { CompactionDecision } from './compaction.js';
import { type SessionData, type ToolRecord } from './session.js';
import { type ToolRunner } from './tool-runner.js';
import { type TokenThresholds, type Usage } from './usage.js';
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
export declare class SessionState {
    #private;
    /** Provider-reported tokens (input + output) of the last model request; 0 after a rewrite. */
    lastReported: number;
    /** Tokens of summary requests not yet reported in a turn's usage. */
    readonly summaryUsage: {
        input: number;
        output: number;
    };
    constructor(overhead: () => {
        system: string | undefined;
        toolTokens: number;
    }, thresholds: TokenThresholds, contextWindow: number, pricing: Pricing | undefined);
    /** The history (read-only snapshot, rebuilt only after a change). */
    get messages(): readonly ModelMessage[];
    /** The live history array (never handed to a host). */
    get history(): readonly ModelMessage[];
    /** Replaces the history (the loop never mutates a message, it replaces the list). */
    setMessages(messages: ModelMessage[]): void;
    /** Every compaction decision, oldest first (a copy). */
    get compactions(): readonly CompactionDecision[];
    /** Records a compaction decision. */
    addCompaction(decision: CompactionDecision): void;
    /** Stores the display copy of a finished tool call. */
    addRecord(record: ToolRecord): void;
    /** The stored tool records, in call order. */
    records(): readonly ToolRecord[];
    /** Tokens a request with `messages` would take: system prompt, tool definitions and messages. */
    estimate(messages: readonly ModelMessage[]): number;
    /** Tokens every request pays besides its messages (system prompt and tool definitions). */
    overheadTokens(): number;
    /** The estimate calibrated by the provider's last figure. */
    countTokens(messages: readonly ModelMessage[]): number;
    /** The usage record of the current history with a turn's billed tokens. */
    usage(inputTokens: number, outputTokens: number): Usage;
    /** Forgets the conversation (history, records, compactions, token figures). */
    clear(): void;
    /** The saved form of the session. */
    data(cwd: string, permissionMode: PermissionMode, compactionFailures: number): SessionData;
    /** Restores validated state; tool results are adapted (display copy only) and their cards re-presented. */
    restore(state: RestoredState, tools: ToolRunner): void;
}
//# sourceMappingURL=session-state.d.ts.map