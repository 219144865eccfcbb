import type { ModelMessage } from 'ai';
/** What a compaction did. */
export type CompactionAction = 'snip' | 'summary' | 'full-summary' | 'drop-oldest' | 'failed' | 'skipped';
/** Every compaction action, in a stable order. */
export declare const COMPACTION_ACTIONS: readonly CompactionAction[];
/** One thing a compaction removed from the provider-facing history. */
export type DroppedItem = {
    /** A tool result whose content was replaced by `[Old tool result content cleared]`. */
    readonly kind: 'tool-result';
    /** Index of the tool message in the history before the compaction. */
    readonly index: number;
    /** The tool call id (kept: only the content is cleared). */
    readonly toolCallId: string;
    /** The tool name. */
    readonly toolName: string;
    /** Estimated tokens removed. */
    readonly tokens: number;
} | {
    /** A whole message, replaced by a summary or dropped. */
    readonly kind: 'message';
    /** Index of the message in the history before the compaction. */
    readonly index: number;
    /** Its role. */
    readonly role: ModelMessage['role'];
    /** Estimated tokens removed. */
    readonly tokens: number;
    /** The first characters of its text, for the record. */
    readonly preview: string;
    /** Tool call ids the message carried (calls or results). */
    readonly toolCallIds: readonly string[];
};
/** A compaction decision, emitted as an event and kept in the session. */
export interface CompactionDecision {
    /** What was done. */
    readonly action: CompactionAction;
    /** Why (threshold crossed, manual, prompt too long, circuit open...). */
    readonly reason: string;
    /** Token count before. */
    readonly beforeTokens: number;
    /** Token count after (equal to before when nothing changed). */
    readonly afterTokens: number;
    /** The auto-compaction threshold in force. */
    readonly threshold: number;
    /** What was removed, item by item. */
    readonly dropped: readonly DroppedItem[];
}
/** Compaction settings of a client. */
export interface CompactionOptions {
    /** Turn automatic compaction on or off (manual `client.compact()` always works); default true. */
    readonly enabled?: boolean;
    /** Rounds (a user message and what follows) never snipped or summarised; default 2. */
    readonly keepRecentTurns?: number;
    /** Tool results longer than this many characters are cleared by a snip; default 2000. */
    readonly clearToolResultsOver?: number;
    /** Consecutive failures that open the circuit breaker; default 3. */
    readonly maxConsecutiveFailures?: number;
    /** System prompt for the summary request. */
    readonly summaryPrompt?: string;
}
/** The placeholder that replaces a cleared tool result. */
export declare const CLEARED_TOOL_RESULT = "[Old tool result content cleared]";
/** Adds the user's own instructions (`/compact <instructions>`) to the summary request's system prompt. */
export declare function summaryPromptWith(prompt: string, instructions: string | undefined): string;
/** The default instructions of the summary request. */
export declare const DEFAULT_SUMMARY_PROMPT: string;
/** A problem found by {@link validateToolPairs}. */
export interface PairProblem {
    /** Index of the offending message. */
    readonly index: number;
    /** What is wrong. */
    readonly message: string;
}
/**
 * Checks that every tool call is answered by exactly one tool result in the tool message(s) that follow
 * it, and that every tool result answers an earlier call. Returns the problems found (empty when valid).
 */
export declare function validateToolPairs(messages: readonly ModelMessage[]): PairProblem[];
/** Throws when the tool call/result pairs of `messages` are not valid. */
export declare function assertToolPairs(messages: readonly ModelMessage[], context: string): void;
/** Start indices of the rounds: each user message starts one (index 0 also starts one). */
export declare function roundStarts(messages: readonly ModelMessage[]): number[];
/** The dropped record of a whole message. */
export declare function droppedMessage(m: ModelMessage, index: number, tokens?: number): DroppedItem;
/** Clears large tool results before the last `keepRecentTurns` rounds. */
export declare function snipToolResults(messages: readonly ModelMessage[], keepRecentTurns: number, overChars: number): {
    messages: ModelMessage[];
    dropped: DroppedItem[];
};
/** Renders messages as a plain transcript for the summary request (tool results capped). */
export declare function transcriptOf(messages: readonly ModelMessage[], maxResultChars?: number): string;
/** The user message that carries a summary. */
export declare function summaryMessage(summary: string): ModelMessage;
/** Summarises messages through a model; supplied by the client. */
export type Summarizer = (messages: readonly ModelMessage[], signal: AbortSignal | undefined, instructions?: string) => Promise<string>;
/** Inputs of one compaction run. */
export interface CompactionRun {
    /** The history to compact (provider-facing, including the pending turn). */
    readonly messages: readonly ModelMessage[];
    /** Token count before (estimate calibrated by the provider's figure). */
    readonly beforeTokens: number;
    /** Estimates the tokens of a candidate history with the same calibration. */
    readonly estimate: (messages: readonly ModelMessage[]) => number;
    /** Why this run happens. */
    readonly reason: string;
    /** Skip the snip and go straight to a summary (manual /compact). */
    readonly force?: boolean;
    /** Abort signal of the turn. */
    readonly signal?: AbortSignal | undefined;
    /** The user's instructions for the summary (`/compact <instructions>`): what to keep, what to focus on. */
    readonly instructions?: string | undefined;
}
/** Result of one compaction run. */
export interface CompactionOutcome {
    /** The new history (the input itself when nothing changed). */
    readonly messages: readonly ModelMessage[];
    /** The decision to emit. */
    readonly decision: CompactionDecision;
}
/** Resolved compaction settings. */
interface ResolvedCompaction {
    readonly enabled: boolean;
    readonly keepRecentTurns: number;
    readonly clearToolResultsOver: number;
    readonly maxConsecutiveFailures: number;
    readonly summaryPrompt: string;
}
/** Fills defaults and validates compaction settings (`false` disables automatic compaction). */
export declare function resolveCompaction(options: CompactionOptions | false | undefined): ResolvedCompaction;
/**
 * The compaction engine of one client: snip, summary, full summary, prompt-too-long recovery and a
 * circuit breaker that stops automatic attempts after repeated failures.
 */
export declare class Compactor {
    /** Consecutive failed automatic runs. */
    private failures;
    /** Resolved settings. */
    readonly settings: ResolvedCompaction;
    /** The auto-compaction threshold. */
    readonly threshold: number;
    private readonly summarize;
    /** Creates the engine for one client. */
    constructor(settings: ResolvedCompaction, threshold: number, summarize: Summarizer);
    /** True when the breaker is open (too many consecutive failures). */
    get circuitOpen(): boolean;
    /** Consecutive failures so far. */
    get consecutiveFailures(): number;
    /** Restores the breaker state (sessions). */
    setFailures(n: number): void;
    private decision;
    /** Runs snip -> summary -> full summary until the history fits under the threshold. */
    compact(run: CompactionRun): Promise<CompactionOutcome>;
    private success;
    private summarizeBefore;
    /**
     * Prompt-too-long recovery: drops whole oldest rounds (never the last one): at least half of the
     * older rounds, then more until the estimate is under the threshold (and under the provider's own
     * figures when its message has them). One pass: suffix sums over the cached message estimates, so
     * the cost is linear in the history. `overheadTokens` is what every request pays besides its messages
     * (system prompt, tool definitions). Returns `null` when nothing can be dropped.
     */
    dropOldest(messages: readonly ModelMessage[], overheadTokens: number, beforeTokens: number, providerMessage?: string): CompactionOutcome | null;
}
export {};
//# sourceMappingURL=compaction.d.ts.map