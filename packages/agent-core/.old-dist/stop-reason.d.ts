/** Why a turn ended: the contract's vocabulary, independent of any provider. */
export type StopReason = 'completed' | 'truncated' | 'filtered' | 'incomplete_tool_use' | 'error' | 'interrupted' | 'max_turns' | 'budget_exceeded';
/** Every stop reason, in a stable order. */
export declare const STOP_REASONS: readonly StopReason[];
/** What the loop knows at the end of a turn, used to choose its stop reason. */
export interface StopFacts {
    /** The AI SDK's unified finish reason of the last step (`stop`, `length`, `tool-calls`, ...), if any. */
    readonly finishReason: string | undefined;
    /** The turn failed (provider error, throwing callback...). */
    readonly failed: boolean;
    /** The turn was aborted. */
    readonly aborted: boolean;
    /** The loop stopped because the step budget (`maxTurns`) was used up. */
    readonly hitMaxTurns: boolean;
    /** The turn was refused because the context stayed at the blocking level. */
    readonly budgetExceeded: boolean;
    /** Tool calls of the last step that got no result. */
    readonly unresolvedToolCalls: number;
}
/**
 * Maps the AI SDK's finish reason and the loop's own facts to a {@link StopReason}:
 * stop -> completed; length -> truncated; content-filter -> filtered; tool calls left
 * unresolved -> incomplete_tool_use; error -> error; abort -> interrupted; other/unknown -> completed.
 */
export declare function mapStopReason(f: StopFacts): StopReason;
/** A one-line note for stop reasons a user should hear about, or `null`. */
export declare function stopNote(reason: StopReason): string | null;
//# sourceMappingURL=stop-reason.d.ts.map