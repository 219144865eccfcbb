/** Every stop reason, in a stable order. */
export const STOP_REASONS = Object.freeze([
    'completed',
    'truncated',
    'filtered',
    'incomplete_tool_use',
    'error',
    'interrupted',
    'max_turns',
    'budget_exceeded',
]);
/**
 * Maps the AI SDK's finish reason and the loop's own facts to a {@link StopReason}:
 * stop -> completed; length -> truncated; content-filter -> filtered; tool calls left
 * unresolved -> incomplete_tool_use; error -> error; abort -> interrupted; other/unknown -> completed.
 */
export function mapStopReason(f) {
    if (f.aborted)
        return 'interrupted';
    if (f.failed)
        return 'error';
    if (f.budgetExceeded)
        return 'budget_exceeded';
    switch (f.finishReason) {
        case 'length':
            return 'truncated';
        case 'content-filter':
            return 'filtered';
        case 'error':
            return 'error';
        case 'tool-calls':
            if (f.unresolvedToolCalls > 0)
                return 'incomplete_tool_use';
            return f.hitMaxTurns ? 'max_turns' : 'completed';
        default:
            if (f.unresolvedToolCalls > 0)
                return 'incomplete_tool_use';
            return 'completed';
    }
}
/** A one-line note for stop reasons a user should hear about, or `null`. */
export function stopNote(reason) {
    switch (reason) {
        case 'truncated':
            return 'The response was truncated: the model reached its output token limit.';
        case 'filtered':
            return 'The response was stopped by the provider content filter.';
        case 'incomplete_tool_use':
            return 'The model requested tool calls that were left unresolved.';
        case 'max_turns':
            return 'The turn stopped after reaching maxTurns model requests.';
        case 'budget_exceeded':
            return 'The context is at the blocking limit and compaction could not reduce it.';
        default:
            return null;
    }
}
//# sourceMappingURL=stop-reason.js.map