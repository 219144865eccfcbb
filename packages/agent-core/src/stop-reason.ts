/** Why a turn ended: the contract's vocabulary, independent of any provider. */
export type StopReason =
  | 'completed'
  | 'truncated'
  | 'filtered'
  | 'incomplete_tool_use'
  | 'error'
  | 'interrupted'
  | 'max_turns'
  | 'budget_exceeded';

/** Every stop reason, in a stable order. */
export const STOP_REASONS: readonly StopReason[] = Object.freeze([
  'completed',
  'truncated',
  'filtered',
  'incomplete_tool_use',
  'error',
  'interrupted',
  'max_turns',
  'budget_exceeded',
] as const);

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
export function mapStopReason(f: StopFacts): StopReason {
  if (f.aborted) return 'interrupted';
  if (f.failed) return 'error';
  if (f.budgetExceeded) return 'budget_exceeded';
  switch (f.finishReason) {
    case 'length':
      return 'truncated';
    case 'content-filter':
      return 'filtered';
    case 'error':
      return 'error';
    case 'tool-calls':
      if (f.unresolvedToolCalls > 0) return 'incomplete_tool_use';
      return f.hitMaxTurns ? 'max_turns' : 'completed';
    default:
      if (f.unresolvedToolCalls > 0) return 'incomplete_tool_use';
      return 'completed';
  }
}

/** A one-line note for stop reasons a user should hear about, or `null`. */
export function stopNote(reason: StopReason): string | null {
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
