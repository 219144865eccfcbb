import { classifyError, errorMessage, retryAfterMs } from './errors.js';
/** The default sleep: a timer that an abort signal cancels. */
export const defaultSleep = (ms, signal) => new Promise((resolve, reject) => {
    if (signal?.aborted) {
        reject(abortError());
        return;
    }
    const onAbort = () => {
        clearTimeout(timer);
        reject(abortError());
    };
    const timer = setTimeout(() => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
});
/** Creates a DOM-style AbortError. */
export function abortError() {
    const e = new Error('The operation was aborted.');
    e.name = 'AbortError';
    return e;
}
/** Fills defaults and validates a retry policy. */
export function resolveRetry(options) {
    const maxRetries = options?.maxRetries ?? 3;
    const baseDelayMs = options?.baseDelayMs ?? 1000;
    const maxDelayMs = options?.maxDelayMs ?? 30_000;
    for (const [k, v] of [
        ['maxRetries', maxRetries],
        ['baseDelayMs', baseDelayMs],
        ['maxDelayMs', maxDelayMs],
    ]) {
        if (!Number.isFinite(v) || v < 0)
            throw new RangeError(`retry.${k} must be a finite number >= 0, got ${v}`);
    }
    return {
        maxRetries: Math.floor(maxRetries),
        baseDelayMs,
        maxDelayMs,
        sleep: options?.sleep ?? defaultSleep,
    };
}
const RETRYABLE = new Set(['rate-limit', 'network', 'server']);
function describe(cls, e) {
    switch (cls) {
        case 'rate-limit':
            return 'Rate limited (429)';
        case 'network':
            return `Network error: ${errorMessage(e)}`;
        case 'server':
            return `Provider error: ${errorMessage(e)}`;
        default:
            return errorMessage(e);
    }
}
/**
 * Wraps a model so that `doStream`/`doGenerate` retry rate-limit, network and server errors with
 * exponential backoff (honouring `retry-after`), reporting each retry. Errors that happen after a
 * stream has started are not retried here (the host has already seen its output).
 */
export function withRetry(model, policy, report) {
    async function attempt(run, signal) {
        for (let n = 0;; n++) {
            try {
                return await run();
            }
            catch (e) {
                const cls = classifyError(e);
                if (!RETRYABLE.has(cls) || n >= policy.maxRetries || signal?.aborted)
                    throw e;
                const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** n);
                const asked = cls === 'rate-limit' ? retryAfterMs(e) : undefined;
                const delay = asked !== undefined ? Math.min(policy.maxDelayMs, asked) : backoff;
                report(`${describe(cls, e)}; retrying in ${(delay / 1000).toFixed(1)}s (retry ${n + 1} of ${policy.maxRetries})`);
                await policy.sleep(delay, signal);
            }
        }
    }
    return {
        specificationVersion: 'v3',
        provider: model.provider,
        modelId: model.modelId,
        get supportedUrls() {
            return model.supportedUrls;
        },
        doGenerate: (options) => attempt(() => model.doGenerate(options), options.abortSignal),
        doStream: (options) => attempt(() => model.doStream(options), options.abortSignal),
    };
}
//# sourceMappingURL=retry.js.map