import { type ToolArtifact, type ToolResult } from '@codeagent/artifact-schema';
import { type PermissionGate } from '@codeagent/permission-gate';
import { type PresenterIssue, type ToolCallView, type ToolResultView } from '@codeagent/render-intent';
import type { ToolSet } from 'ai';
import type { ToolResultEvent } from './events.js';
import type { ToolRecord } from './session.js';
import { type AgentTool } from './tool.js';
import type { Turn } from './turn.js';
/** Host projection of a tool result into its toolkit's display data (the event's `display` field). */
export type DisplayFunction = (result: ToolResult, view: ToolResultView) => unknown;
/** A tool call's outcome in the three channels: what the SDK hands back to the stream consumer. */
export declare class ToolOutcome {
    /** The normalised result (`value` is all the model sees). */
    readonly result: ToolResult;
    /** The artifact of any valid version, or `null`. */
    readonly artifact: ToolArtifact | null;
    /** Whether the call failed (tool error, invalid input, denial). */
    readonly isError: boolean;
    constructor(result: ToolResult, forceError?: boolean);
    /** An error outcome whose model-facing text is `message` (with an error artifact). */
    static failure(message: string, error: string, payloadMessage?: string): ToolOutcome;
}
/** True when a result reports an error through its `error` field or an error artifact. */
export declare function isErrorResult(result: ToolResult, artifact: ToolArtifact | null): boolean;
/**
 * The tool room of a client: the attached tools as AI SDK tools, the gate check with serial approvals,
 * the abort race, normalisation of what a tool returns into the three channels, and the cards.
 * A call goes `execute` (gate, then the tool) -> the turn's stream consumer -> {@link ToolRunner.present}.
 */
export declare class ToolRunner {
    #private;
    constructor(cwd: string, display: DisplayFunction | undefined);
    /** Names of the attached tools, in registration order. */
    get names(): readonly string[];
    /** True when a tool of that name is attached. */
    has(name: string): boolean;
    /** The tools in the shape `streamText` takes. */
    get sdkTools(): ToolSet;
    /** Tokens all tool definitions add to a request. */
    get definitionTokens(): number;
    /** Contained presenter failures (at most 100 kept). */
    get presenterIssues(): readonly PresenterIssue[];
    /** The installed gate, or `null`. */
    get gate(): PermissionGate | null;
    /** Installs or removes the gate; it learns every attached tool's capability. */
    setGate(gate: PermissionGate | null): void;
    /** Attaches a tool; throws on a duplicate name. */
    register(tool: AgentTool<unknown>): void;
    /** Starts serving the calls of `turn` (approvals start a new queue: never wait on an older turn's prompt). */
    begin(turn: Turn): void;
    /** Stops serving calls. */
    end(): void;
    /**
     * Resolves when call `id` of the running turn is through its precheck: `true` when it goes on to the gate,
     * `false` when the precheck refused it or the turn ended first (no turn: `false` at once).
     */
    prechecked(id: string): Promise<boolean>;
    /** Forgets every remembered call (a cleared or restored session presents from scratch). */
    resetPresenter(): void;
    /**
     * The call's card. `validated`: the AI SDK already checked `args` against the tool's schema, so the
     * presenter does not validate again; otherwise (invalid calls, restored sessions) it does.
     */
    presentCall(id: string, name: string, args: unknown, validated: boolean): ToolCallView;
    /** The result's card and the stored record of a finished call. */
    presentResult(id: string, name: string, input: unknown, callView: ToolCallView | undefined, result: ToolResult, isError: boolean): ToolRecord;
    /** The host's display data of a result. */
    displayOf(result: ToolResult, view: ToolResultView): unknown;
    /** The `tool-result` payload of a stored record. */
    resultEvent(r: ToolRecord, artifact?: ToolArtifact | null): ToolResultEvent;
}
//# sourceMappingURL=tool-runner.d.ts.map