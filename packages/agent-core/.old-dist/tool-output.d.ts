import type { AgentEvent } from './events.js';
/** Which stream of a running tool a chunk of live output came from. */
export type ToolOutputStream = 'stdout' | 'stderr';
/** One chunk a running tool reports through `ctx.output` (see {@link ToolContext}). */
export interface ToolOutputChunk {
    /** The stream the text came from. */
    readonly stream: ToolOutputStream;
    /** The text, already decoded (a tool decodes bytes with a streaming decoder so characters are never split). */
    readonly text: string;
}
/** At most one `tool-output` event per stream of a call in this many milliseconds (the first chunk goes at once). */
export declare const TOOL_OUTPUT_INTERVAL_MS = 50;
/** A stream's buffer is delivered at once when it holds this many UTF-16 code units (64 Ki). */
export declare const TOOL_OUTPUT_MAX_CHUNK: number;
/** The `ctx.output` of a call whose turn has nobody listening to live output. */
export declare const silentOutput: (chunk: ToolOutputChunk) => void;
/**
 * The live output of one running call: coalesces the tool's writes into `tool-output` events (the first chunk at
 * once, then at most one event per stream every {@link TOOL_OUTPUT_INTERVAL_MS}, or as soon as a buffer reaches
 * {@link TOOL_OUTPUT_MAX_CHUNK}), delivers what is buffered when the call ends (before its `tool-result`) and drops
 * everything written after that or after an abort.
 */
export declare class ToolOutputSink {
    #private;
    constructor(id: string, name: string, emit: (e: AgentEvent) => void, signal: AbortSignal);
    /** `ctx.output`: buffers a chunk; anything but `{stream: 'stdout' | 'stderr', text: string}` is ignored. */
    readonly write: (chunk: ToolOutputChunk) => void;
    /** The call ended: delivers what is buffered (nothing when `discard`, e.g. after an abort) and ignores later writes. */
    close(discard: boolean): void;
}
//# sourceMappingURL=tool-output.d.ts.map