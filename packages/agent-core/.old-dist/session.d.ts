import type { ToolResult } from '@codeagent/artifact-schema';
import { type PermissionMode } from '@codeagent/permission-gate';
import type { ToolCallView, ToolResultView } from '@codeagent/render-intent';
import { type ModelMessage } from 'ai';
import { type CompactionDecision } from './compaction.js';
/** The `format` tag of a saved session. */
export declare const SESSION_FORMAT = "codeagent.session";
/** The session JSON version this package writes and reads. */
export declare const SESSION_VERSION = 1;
/** A stored tool result: the display copy (full result, cards) kept next to the provider-facing history. */
export interface ToolRecord {
    /** Tool call id. */
    readonly id: string;
    /** Tool name. */
    readonly name: string;
    /** Arguments as the model sent them. */
    readonly arguments: unknown;
    /** The three-channel result (the display copy; adapted on load). */
    readonly result: ToolResult;
    /** Whether the call failed. */
    readonly isError: boolean;
    /** The call's card when saved (recomputed on load). */
    readonly callView: ToolCallView;
    /** The result's card when saved (recomputed on load). */
    readonly view: ToolResultView;
}
/** A saved session (the JSON `client.save()` writes). Session-scoped permission grants are never saved. */
export interface SessionData {
    /** Always `codeagent.session`. */
    readonly format: typeof SESSION_FORMAT;
    /** Always 1 for this package. */
    readonly version: typeof SESSION_VERSION;
    /** ISO time of the save. */
    readonly savedAt: string;
    /** Working directory when saved; informational: `loadSession` takes the cwd from the host, never from here. */
    readonly cwd: string;
    /** Permission mode when saved; informational: `loadSession` takes the mode from the host, never from here. */
    readonly permissionMode: PermissionMode;
    /** Provider-facing history, exactly as sent to the model. */
    readonly messages: readonly ModelMessage[];
    /** Display copies of tool results. */
    readonly toolResults: readonly ToolRecord[];
    /** Every compaction decision, oldest first. */
    readonly compactions: readonly CompactionDecision[];
    /** Consecutive compaction failures (circuit breaker state). */
    readonly compactionFailures: number;
    /** Provider-reported tokens of the last request. */
    readonly lastReportedTokens: number;
}
/** Options of {@link parseSession}. */
export interface ParseSessionOptions {
    /** Largest accepted JSON text in characters; default 64 MiB. */
    readonly maxChars?: number;
    /** Deepest accepted nesting; default 256. */
    readonly maxDepth?: number;
}
/**
 * Parses and validates untrusted session JSON (a string or an already parsed value). Throws
 * {@link AgentCoreError} `invalid-session` with a message naming the first problem; never anything else.
 * The returned messages are the input's own objects, so the provider-facing history is byte-identical.
 */
export declare function parseSession(json: unknown, options?: ParseSessionOptions): SessionData;
//# sourceMappingURL=session.d.ts.map