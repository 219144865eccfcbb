import type { ToolArtifact } from '@codeagent/artifact-schema';
import { type ToolCallView, type ToolResultView } from '@codeagent/render-intent';
import type { CompactionDecision } from './compaction.js';
import type { StopReason } from './stop-reason.js';
import type { ToolOutputStream } from './tool-output.js';
import type { Usage } from './usage.js';
/** The result of one turn; the promise of `stream` always resolves with it, also on errors. */
export interface StreamResult {
    /** Assistant text of the turn (partial when the turn failed or was interrupted). */
    readonly text: string;
    /** Usage at turn end, or `null` when the turn failed. */
    readonly usage: Usage | null;
    /** Why the turn ended, in the contract's vocabulary. */
    readonly stopReason: StopReason;
    /** The provider's raw finish reason of the last completed model request (e.g. `end_turn`), or `null`. */
    readonly finishReason: string | null;
}
/** Payload of `onToolRequest`: fired before the permission gate decides. */
export interface ToolRequestEvent {
    /** Tool call id. */
    readonly id: string;
    /** Tool name. */
    readonly name: string;
    /** Arguments as the model sent them (including `_intent`); the raw text when they were not valid JSON. */
    readonly arguments: unknown;
    /** The model-written `_intent`, or `null`. */
    readonly intent: string | null;
    /** The call's card. */
    readonly view: ToolCallView;
}
/** Payload of `onToolResult`: exactly these keys, in this order. */
export interface ToolResultEvent {
    /** Tool call id. */
    readonly id: string;
    /** Tool name. */
    readonly name: string;
    /** Host-toolkit display data (the `display` option's projection, else the result's `extra.display`, else `null`). */
    readonly display: unknown;
    /** The portable text: exactly what the model received. */
    readonly value: string;
    /** Whether the call failed (tool error, invalid input, denial). */
    readonly isError: boolean;
    /** The artifact of any valid version, or `null`; filter with `toolResultArtifact(event)`. */
    readonly artifact: ToolArtifact | null;
    /** The result's card. */
    readonly view: ToolResultView;
}
/** Payload of `onToolOutput`: live output of a running call, exactly these keys in this order. */
export interface ToolOutputEvent {
    /** Tool call id (the call's `tool-request` came before; its `tool-result` comes after). */
    readonly id: string;
    /** Tool name. */
    readonly name: string;
    /** The stream the text came from. */
    readonly stream: ToolOutputStream;
    /** The text (coalesced: one event may carry many of the tool's writes). Display only: the model never sees it. */
    readonly text: string;
}
/** An assistant text chunk. */
export interface DeltaEvent {
    /** Tag. */
    readonly type: 'delta';
    /** The chunk. */
    readonly text: string;
}
/** A reasoning chunk. */
export interface ThinkingEvent {
    /** Tag. */
    readonly type: 'thinking';
    /** The chunk. */
    readonly text: string;
}
/** A tool call, before the permission gate. */
export interface ToolRequestAgentEvent extends ToolRequestEvent {
    /** Tag. */
    readonly type: 'tool-request';
}
/** Live output of a running call, between its `tool-request` and its `tool-result`. */
export interface ToolOutputAgentEvent extends ToolOutputEvent {
    /** Tag. */
    readonly type: 'tool-output';
}
/** A tool result. */
export interface ToolResultAgentEvent extends ToolResultEvent {
    /** Tag. */
    readonly type: 'tool-result';
}
/** An error; `recovered` says whether the turn goes on (a retry) or ends. */
export interface ErrorEvent {
    /** Tag. */
    readonly type: 'error';
    /** One-line message. */
    readonly message: string;
    /** True when the loop recovered (retry, note); false when the turn ends with `stopReason: 'error'`. */
    readonly recovered: boolean;
}
/** Usage at turn end. */
export interface UsageEvent {
    /** Tag. */
    readonly type: 'usage';
    /** The usage record. */
    readonly usage: Usage;
}
/** Heartbeat, about every 100 ms while a turn runs. */
export interface TickEvent {
    /** Tag. */
    readonly type: 'tick';
}
/** A compaction decision. */
export interface CompactionEvent {
    /** Tag. */
    readonly type: 'compaction';
    /** What was decided and dropped. */
    readonly decision: CompactionDecision;
}
/** The last event of a turn. */
export interface EndEvent {
    /** Tag. */
    readonly type: 'end';
    /** The turn's result. */
    readonly result: StreamResult;
}
/** Every event of a turn, tagged by `type`; `end` always comes last. */
export type AgentEvent = DeltaEvent | ThinkingEvent | ToolRequestAgentEvent | ToolOutputAgentEvent | ToolResultAgentEvent | ErrorEvent | UsageEvent | TickEvent | CompactionEvent | EndEvent;
/** The `type` tags of {@link AgentEvent}, in a stable order. */
export declare const AGENT_EVENT_TYPES: readonly AgentEvent['type'][];
/** Typed callbacks of `stream`; all optional. A throwing callback ends the turn through the error path. */
export interface StreamCallbacks {
    /** Assistant text chunk. */
    readonly onDelta?: (text: string) => void;
    /** Reasoning chunk. */
    readonly onThinking?: (text: string) => void;
    /** A tool call, before the permission gate. */
    readonly onToolRequest?: (event: ToolRequestEvent) => void;
    /**
     * Live output of a running call: `{id, name, stream, text}`, coalesced (at most one per stream every 50 ms, or a
     * 64 Ki buffer), only between the call's request and its result. Without this callback tools are not asked for it.
     */
    readonly onToolOutput?: (event: ToolOutputEvent) => void;
    /** A tool result: `{id, name, display, value, isError, artifact, view}`. */
    readonly onToolResult?: (event: ToolResultEvent) => void;
    /** An error; `recovered` is true for retries and notes, false when the turn ends. */
    readonly onError?: (message: string, recovered: boolean) => void;
    /** Usage at turn end. */
    readonly onUsage?: (usage: Usage) => void;
    /** Heartbeat about every 100 ms while a turn runs; never after it ends. */
    readonly onTick?: () => void;
    /** A compaction decision. */
    readonly onCompaction?: (decision: CompactionDecision) => void;
}
/** Options of one turn. */
export interface StreamOptions {
    /** Aborting ends the turn with `stopReason: 'interrupted'`. */
    readonly signal?: AbortSignal;
}
/** Delivers one event to the matching callback (`end` has none: it is the promise's value). */
export declare function dispatchToCallbacks(callbacks: StreamCallbacks, event: AgentEvent): void;
//# sourceMappingURL=events.d.ts.map