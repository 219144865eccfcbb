import type { LanguageModelV3 } from '@ai-sdk/provider';
/** Sleeps `ms` milliseconds; rejects with an AbortError when `signal` aborts. */
export type SleepFunction = (ms: number, signal: AbortSignal | undefined) => Promise<void>;
/** Retry policy for failed model requests (rate limits, network and server errors; never auth errors). */
export interface RetryOptions {
    /** Retries after the first attempt; default 3. `0` disables retrying. */
    readonly maxRetries?: number;
    /** First backoff delay in ms; doubled each retry; default 1000. */
    readonly baseDelayMs?: number;
    /** Upper bound of one delay in ms (also caps `retry-after`); default 30000. */
    readonly maxDelayMs?: number;
    /** Injectable sleep, for tests and custom schedulers. */
    readonly sleep?: SleepFunction;
}
/** The resolved retry policy. */
interface ResolvedRetry {
    readonly maxRetries: number;
    readonly baseDelayMs: number;
    readonly maxDelayMs: number;
    readonly sleep: SleepFunction;
}
/** The default sleep: a timer that an abort signal cancels. */
export declare const defaultSleep: SleepFunction;
/** Creates a DOM-style AbortError. */
export declare function abortError(): Error;
/** Fills defaults and validates a retry policy. */
export declare function resolveRetry(options: RetryOptions | undefined): ResolvedRetry;
/** Called once per retry with a human message. */
export type RetryReporter = (message: string) => void;
/**
 * Wraps a model so that `doStream`/`doGenerate` retry rate-limit, network and server errors with
 * exponential backoff (honouring `retry-after`), reporting each retry. Errors that happen after a
 * stream has started are not retried here (the host has already seen its output).
 */
export declare function withRetry(model: LanguageModelV3, policy: ResolvedRetry, report: RetryReporter): LanguageModelV3;
export {};
//# sourceMappingURL=retry.d.ts.map