/** Stable codes of {@link AgentCoreError}. */
export type AgentCoreErrorCode = 'invalid-options' | 'invalid-tool' | 'duplicate-tool' | 'invalid-session' | 'turn-in-progress' | 'callback-failed' | 'compaction-failed';
/** The package's one error class, with a stable string `code`. */
export declare class AgentCoreError extends Error {
    /** Stable machine-readable code. */
    readonly code: AgentCoreErrorCode;
    /** Creates an error with a code and a message. */
    constructor(code: AgentCoreErrorCode, message: string, options?: {
        cause?: unknown;
    });
}
/** How the loop classifies a failed model request. */
export type ErrorClass = 'rate-limit' | 'network' | 'server' | 'auth' | 'prompt-too-long' | 'abort' | 'other';
/** True for an abort error of any origin (DOM AbortError, AI SDK abort). */
export declare function isAbortError(e: unknown): boolean;
/** Classifies an error thrown by a model request. */
export declare function classifyError(e: unknown): ErrorClass;
/** Reads the retry delay a provider asked for (`retry-after-ms`, `retry-after` seconds or HTTP date), in ms. */
export declare function retryAfterMs(e: unknown, now?: number): number | undefined;
/** A short, single-line message for any thrown value (never the whole response body); never throws. */
export declare function errorMessage(e: unknown): string;
//# sourceMappingURL=errors.d.ts.map