/** At most one `tool-output` event per stream of a call in this many milliseconds (the first chunk goes at once). */
export const TOOL_OUTPUT_INTERVAL_MS = 50;
/** A stream's buffer is delivered at once when it holds this many UTF-16 code units (64 Ki). */
export const TOOL_OUTPUT_MAX_CHUNK = 64 * 1024;
const noop = () => undefined;
/** The `ctx.output` of a call whose turn has nobody listening to live output. */
export const silentOutput = noop;
/**
 * The live output of one running call: coalesces the tool's writes into `tool-output` events (the first chunk at
 * once, then at most one event per stream every {@link TOOL_OUTPUT_INTERVAL_MS}, or as soon as a buffer reaches
 * {@link TOOL_OUTPUT_MAX_CHUNK}), delivers what is buffered when the call ends (before its `tool-result`) and drops
 * everything written after that or after an abort.
 */
export class ToolOutputSink {
    #id;
    #name;
    #emit;
    #signal;
    /** Buffered text per stream, in the order the streams first wrote since the last delivery. */
    #buffers = new Map();
    #sizes = new Map();
    #timer = null;
    #lastFlush = Number.NEGATIVE_INFINITY;
    #closed = false;
    constructor(id, name, emit, signal) {
        this.#id = id;
        this.#name = name;
        this.#emit = emit;
        this.#signal = signal;
    }
    /** `ctx.output`: buffers a chunk; anything but `{stream: 'stdout' | 'stderr', text: string}` is ignored. */
    write = (chunk) => {
        if (this.#closed || this.#signal.aborted || typeof chunk !== 'object' || chunk === null)
            return;
        const { stream, text } = chunk;
        if ((stream !== 'stdout' && stream !== 'stderr') || typeof text !== 'string' || text === '')
            return;
        let parts = this.#buffers.get(stream);
        if (!parts) {
            parts = [];
            this.#buffers.set(stream, parts);
        }
        parts.push(text);
        const size = (this.#sizes.get(stream) ?? 0) + text.length;
        this.#sizes.set(stream, size);
        if (size >= TOOL_OUTPUT_MAX_CHUNK || performance.now() - this.#lastFlush >= TOOL_OUTPUT_INTERVAL_MS) {
            this.#flush();
        }
        else if (this.#timer === null) {
            const wait = Math.max(0, this.#lastFlush + TOOL_OUTPUT_INTERVAL_MS - performance.now());
            this.#timer = setTimeout(this.#onTimer, wait);
            this.#timer.unref?.();
        }
    };
    #onTimer = () => {
        this.#timer = null;
        if (!this.#closed && !this.#signal.aborted)
            this.#flush();
    };
    #flush() {
        if (this.#timer !== null) {
            clearTimeout(this.#timer);
            this.#timer = null;
        }
        this.#lastFlush = performance.now();
        if (this.#buffers.size === 0)
            return;
        const buffers = [...this.#buffers];
        this.#buffers.clear();
        this.#sizes.clear();
        for (const [stream, parts] of buffers) {
            const text = parts.length === 1 ? parts[0] : parts.join('');
            this.#emit({ type: 'tool-output', id: this.#id, name: this.#name, stream, text });
        }
    }
    /** The call ended: delivers what is buffered (nothing when `discard`, e.g. after an abort) and ignores later writes. */
    close(discard) {
        if (this.#closed)
            return;
        if (discard) {
            this.#buffers.clear();
            if (this.#timer !== null)
                clearTimeout(this.#timer);
            this.#timer = null;
        }
        else {
            this.#flush();
        }
        this.#closed = true;
    }
}
//# sourceMappingURL=tool-output.js.map