import type { ToolArtifact } from '@codeagent/artifact-schema';
import type { ToolCallView, ToolResultView } from '@codeagent/render-intent';

/** The key under a tool part's `toolMetadata` that holds the codeagent data. */
export const TOOL_METADATA_KEY = 'codeagent';

/**
 * The `reason` of an approval response (`addToolApprovalResponse({id, approved: true, reason})`) that grants the
 * tool for the rest of the session instead of once.
 */
export const ALLOW_ALWAYS_REASON = 'codeagent:allow-always';

/** Why a tool call was denied: the user, the permission gate's rules or mode, or an approval that never came. */
export type DenialSource = 'user' | 'rule' | 'timeout' | 'unknown-approval' | 'aborted';

/**
 * What the adapter puts under `toolMetadata.codeagent` of a tool part: the call's card when the call arrives,
 * then (replacing it, as the AI SDK does) the call's card plus the result's card, artifact and error flag.
 */
export interface CodeagentToolMetadata {
  /** The call's render-intent card. */
  readonly call: ToolCallView;
  /** The model-written `_intent`, or `null`. */
  readonly intent: string | null;
  /** The result's card, once the result came. */
  readonly result?: ToolResultView;
  /** The result's artifact (any valid version) or `null`, once the result came. */
  readonly artifact?: ToolArtifact | null;
  /** Whether the result is an error, once the result came. */
  readonly isError?: boolean;
  /** Set when the call was denied, saying by whom. */
  readonly denied?: DenialSource;
  /**
   * While the call runs: the end of its raw output so far (SGR and other escapes untouched: render it as terminal
   * output, which keeps SGR and removes the rest). Only on preliminary outputs (`preliminary: true`).
   */
  readonly live?: string;
}

/** Token usage in the message metadata (the agent-core `Usage` fields a UI shows). */
export interface CodeagentUsageMetadata {
  /** Tokens in the context after the turn. */
  readonly nTokens: number;
  /** The model's context window. */
  readonly modelLimit: number;
  /** Percent of the context left. */
  readonly percentLeft: number;
  /** Input tokens of the turn. */
  readonly inputTokens: number;
  /** Output tokens of the turn. */
  readonly outputTokens: number;
  /** Cost of the last request in USD, when pricing is known. */
  readonly costLast: number | null;
}

/** The assistant message's metadata (`message.metadata`) the adapter writes. */
export interface CodeagentMessageMetadata {
  /** Why the turn ended (agent-core vocabulary), once it ended. */
  readonly stopReason?: string;
  /** The provider's raw finish reason, once the turn ended. */
  readonly finishReason?: string | null;
  /** Usage at turn end (`null` when the turn failed). */
  readonly usage?: CodeagentUsageMetadata | null;
  /** True while the turn waits for an approval (the stream ended at the request). */
  readonly awaitingApproval?: boolean;
}
