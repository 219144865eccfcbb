import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { ProvidersError } from './errors.js';

/** What a stalled request reports: its cause carries the network code `ETIMEDOUT`, so retry policies retry it. */
function stallError(timeoutMs: number, phase: 'response' | 'body'): ProvidersError {
  const seconds = timeoutMs >= 1000 ? `${Math.round(timeoutMs / 100) / 10} s` : `${timeoutMs} ms`;
  const what = phase === 'response' ? 'did not start answering' : 'stopped sending data';
  const cause = Object.assign(new Error(`no data for ${seconds}`), { code: 'ETIMEDOUT' });
  return new ProvidersError(
    'stalled',
    `the provider ${what} for ${seconds}, so the request was aborted (stall timeout)`,
    { cause },
  );
}

/** Resolves to `'stall'` after `ms` unless cancelled. */
function timer(ms: number): { promise: Promise<'stall'>; cancel: () => void } {
  let handle: ReturnType<typeof setTimeout> | undefined;
  const promise = new Promise<'stall'>((resolve) => {
    handle = setTimeout(() => resolve('stall'), ms);
  });
  return { promise, cancel: () => clearTimeout(handle) };
}

/**
 * Wraps a model so that a streamed request which receives nothing for `timeoutMs` is aborted: before the response
 * starts, `doStream` rejects with a `ProvidersError` `stalled` (retriable: its cause has code `ETIMEDOUT`); between
 * two stream parts, the stream errors with it. Only the provider's silence counts: the timer runs while the reader
 * waits for the next part, never while a slow consumer holds one. `doGenerate` is passed through unchanged.
 */
export function withStallTimeout(model: LanguageModelV3, timeoutMs: number): LanguageModelV3 {
  if (typeof timeoutMs !== 'number' || !Number.isFinite(timeoutMs) || timeoutMs <= 0) {
    throw new ProvidersError(
      'invalid-config',
      `stallTimeoutMs must be a positive number, got ${String(timeoutMs)}`,
      { field: 'stallTimeoutMs' },
    );
  }
  return {
    specificationVersion: 'v3',
    provider: model.provider,
    modelId: model.modelId,
    get supportedUrls() {
      return model.supportedUrls;
    },
    doGenerate: (options: LanguageModelV3CallOptions) => model.doGenerate(options),
    async doStream(options: LanguageModelV3CallOptions) {
      const controller = new AbortController();
      const outer = options.abortSignal;
      const forward = () => controller.abort(outer?.reason);
      if (outer?.aborted) controller.abort(outer.reason);
      else outer?.addEventListener('abort', forward, { once: true });
      const release = () => outer?.removeEventListener('abort', forward);
      const start = timer(timeoutMs);
      const request = Promise.resolve(model.doStream({ ...options, abortSignal: controller.signal }));
      let started: Awaited<typeof request>;
      try {
        const first = await Promise.race([request, start.promise]);
        if (first === 'stall') {
          controller.abort();
          request.catch(() => undefined);
          release();
          throw stallError(timeoutMs, 'response');
        }
        started = first;
      } catch (error) {
        release();
        throw error;
      } finally {
        start.cancel();
      }
      const reader = started.stream.getReader();
      const stream = new ReadableStream<LanguageModelV3StreamPart>({
        async pull(sink) {
          const wait = timer(timeoutMs);
          try {
            const next = await Promise.race([reader.read(), wait.promise]);
            if (next === 'stall') {
              controller.abort();
              reader.cancel().catch(() => undefined);
              release();
              sink.error(stallError(timeoutMs, 'body'));
              return;
            }
            if (next.done) {
              release();
              sink.close();
            } else sink.enqueue(next.value);
          } catch (error) {
            release();
            sink.error(error);
          } finally {
            wait.cancel();
          }
        },
        async cancel(reason) {
          release();
          await reader.cancel(reason);
        },
      });
      return { ...started, stream };
    },
  };
}
