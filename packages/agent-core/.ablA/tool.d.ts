import type { FlexibleSchema, Schema } from '@ai-sdk/provider-utils';
import type { ToolResult } from '@codeagent/artifact-schema';
import { type ToolMeta } from '@codeagent/permission-gate';
import type { PresentResultInput, ToolCallView, ToolResultView } from '@codeagent/render-intent';
import type { ToolOutputChunk } from './tool-output.js';
/** What a tool's `execute` receives besides its arguments. */
export interface ToolContext {
    /** The tool call id (the same id the events and the ask callback carry). */
    readonly callId: string;
    /** The tool name. */
    readonly name: string;
    /** Aborted when the turn is interrupted. */
    readonly signal: AbortSignal;
    /** The client's working directory. */
    readonly cwd: string;
    /** The model-written reason for the call (`_intent`), or `null`. */
    readonly intent: string | null;
    /**
     * Reports output while the call runs (`{stream: 'stdout' | 'stderr', text}`), shown live by hosts as
     * `tool-output` events; the model still sees only what `execute` returns. agent-core always passes it to
     * `execute` (a no-op when nobody listens, ignored after the call ended or was aborted); it is absent in
     * `precheck` and optional for hosts that call a tool directly, so call it as `ctx.output?.(chunk)`.
     */
    readonly output?: (chunk: ToolOutputChunk) => void;
}
/** Capability of a tool for the permission gate: a capability name or full metadata. */
export type ToolCapability = ToolMeta['capability'] | ToolMeta;
/** A tool the agent loop can call (see {@link defineTool}). */
export interface AgentTool<Args = unknown> {
    /** Name the model calls the tool by: 1-64 characters of letters, digits, `_` and `-`. */
    readonly name: string;
    /** What the tool does, for the model. */
    readonly description: string;
    /** Input schema: zod, any Standard Schema with JSON Schema support, or an AI SDK `jsonSchema()`. */
    readonly inputSchema: FlexibleSchema<Args>;
    /** What the tool can do, for the permission gate (`read`, `write`, `exec`, `net`). */
    readonly capability: ToolCapability;
    /** Runs the tool; may return anything `normalizeToolOutput` accepts (string, ToolResult, rows, JSON). */
    execute(args: Args, ctx: ToolContext): unknown;
    /**
     * Optional read-only check, run after the tool request when the permission gate would ask (or when there is no
     * gate): a value other than `undefined` ends the call with it (normalised like `execute`'s output and marked
     * as an error) and the user is never asked; `undefined` lets the gate decide. For a call known to fail (an
     * Edit whose `old_string` occurs twice), so the user is not asked to approve a change that cannot happen.
     * Not run for calls the gate denies or allows without asking.
     */
    precheck?(args: Args, ctx: ToolContext): unknown;
    /** Pure: maps validated args to the call's card. */
    presentCall?(args: Args): ToolCallView | undefined;
    /** Pure: maps args and the model-facing result to the result's card. */
    presentResult?(args: Args, result: PresentResultInput): ToolResultView | undefined;
}
/** The argument every tool accepts in addition to its own: a short model-written reason for the call. */
export declare const INTENT_ARGUMENT = "_intent";
/** Validates a tool definition and returns it frozen; throws {@link AgentCoreError} `invalid-tool`. */
export declare function defineTool<Args>(tool: AgentTool<Args>): AgentTool<Args>;
/** Splits `_intent` off a tool input: `{intent, args}` where `args` no longer has the key. */
export declare function splitIntent(input: unknown): {
    intent: string | null;
    args: unknown;
};
/**
 * Extends a tool's input schema with the optional `_intent` string: the JSON Schema sent to the model
 * gets the property, validation runs the tool's own schema on the input without `_intent` and puts a
 * string `_intent` back (so the history keeps what the model wrote); a non-string `_intent` is dropped.
 */
export declare function intentSchema(inputSchema: FlexibleSchema<unknown>): Schema<unknown>;
/** Key under `extra.codeagent` where a tool leaves presentation meta for its `presentResult`. */
export declare const PRESENTATION_META_KEY = "meta";
/** Returns a copy of `result` carrying presentation meta (persisted with the session, read by `presentResult`). */
export declare function withPresentationMeta(result: ToolResult, meta: unknown): ToolResult;
/** Reads the presentation meta of a result (untrusted: presenters narrow it). */
export declare function presentationMeta(result: ToolResult): unknown;
//# sourceMappingURL=tool.d.ts.map