import { type LanguageModelV3 } from '@ai-sdk/provider';
import type { ToolCallView } from '@codeagent/render-intent';
import { type ModelMessage } from 'ai';
import { type Compactor } from './compaction.js';
import type { AgentEvent, StreamResult } from './events.js';
import { type StreamInput } from './input.js';
import { type resolveRetry } from './retry.js';
import type { SessionState } from './session-state.js';
import type { SkillWiring } from './skill-wiring.js';
import { ToolOutputSink } from './tool-output.js';
import { type ToolRunner } from './tool-runner.js';
import { type TokenThresholds } from './usage.js';
/**
 * One running turn: the event sink (a throwing callback aborts the turn instead of escaping), the turn's
 * abort signal with a single listener every wait races against, and the state of its tool calls.
 */
export declare class Turn {
    #private;
    /** Aborted by the user's signal or a failing callback. */
    readonly signal: AbortSignal;
    /** The first error a callback threw, if one did. */
    callbackFailure: {
        error: unknown;
    } | null;
    constructor(deliver: (e: AgentEvent) => void, liveOutput?: boolean);
    /** Delivers an event; a throwing callback ends the turn through the error path. */
    readonly emit: (e: AgentEvent) => void;
    /** The live output of a call about to execute, or `null` when nobody listens to `tool-output`. */
    outputSink(id: string, name: string, signal: AbortSignal): ToolOutputSink | null;
    /** Aborts the turn (user abort). */
    abort(reason: unknown): void;
    /** No event goes out through {@link Turn.emit} any more (the closing events are delivered directly). */
    close(): void;
    /** Delivers a closing event; a throwing callback can no longer change the result. */
    deliverFinal(e: AgentEvent): void;
    /** Resolves like `p`, or rejects with an AbortError as soon as `signal` (or the turn) aborts. */
    race<T>(p: Promise<T>, signal?: AbortSignal): Promise<T>;
    /** Records a call the stream consumer saw and its card. */
    callSeen(id: string, input: unknown, view: ToolCallView): void;
    /** The `tool-request` of the call went out: an `execute` waiting for it may go on. */
    requestDone(id: string): void;
    /** Waits until the call's `tool-request` was delivered (the gate must not run before it). */
    requestDelivered(id: string, signal: AbortSignal): Promise<void> | undefined;
    /** The call's input and card, forgotten once its result is presented. */
    takeCall(id: string): {
        input: unknown;
        view: ToolCallView | undefined;
    };
}
/** The settings and rooms a turn runner works with. */
export interface TurnRunnerParts {
    readonly model: LanguageModelV3;
    readonly retry: ReturnType<typeof resolveRetry>;
    readonly maxTurns: number;
    readonly tickMs: number;
    readonly thresholds: TokenThresholds;
    readonly session: SessionState;
    readonly tools: ToolRunner;
    readonly skills: SkillWiring | null;
    /** The system prompt of the next request (the host's, plus the skills hint once loaded). */
    readonly systemPrompt: () => string | undefined;
    /** Created after the runner (its summaries go through the runner's model). */
    readonly compactor: () => Compactor;
}
/**
 * The turn room of a client. {@link TurnRunner.run} is the path of one turn: expand a slash command,
 * append the user message, run `streamText` (compaction in `prepareStep`, events from `fullStream`), retry
 * once after a prompt-too-long error with the oldest rounds dropped, commit the history, then the closing
 * `usage` / `error` and `end` events.
 */
export declare class TurnRunner {
    #private;
    constructor(parts: TurnRunnerParts);
    /** True while a turn runs. */
    get busy(): boolean;
    /**
     * Runs one turn, delivering its events to `deliver`; always resolves. `liveOutput: false` (nobody listens to
     * `tool-output`) hands tools a no-op `ctx.output`.
     */
    run(input: StreamInput, deliver: (e: AgentEvent) => void, userSignal?: AbortSignal, liveOutput?: boolean): Promise<StreamResult>;
    /** Summarises older messages through the client's model (compaction); billed with the turn. */
    summarize(messages: readonly ModelMessage[], signal: AbortSignal | undefined, prompt: string): Promise<string>;
}
//# sourceMappingURL=turn.d.ts.map