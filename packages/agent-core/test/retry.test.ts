import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { createClient, stream } from '../src/index.js';
import { classifyError, retryAfterMs } from '../src/errors.js';
import { finish, instantSleep, recordingCallbacks, scriptedModel, text } from './helpers.js';

function apiError(
  status: number | undefined,
  message: string,
  headers: Record<string, string> = {},
  cause?: unknown,
) {
  return new APICallError({
    message,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    ...(status !== undefined ? { statusCode: status } : {}),
    responseHeaders: headers,
    cause,
    isRetryable: status === undefined || status === 429 || status >= 500,
  });
}

const ok = [...text(['fine']), finish('stop')];

describe('retries', () => {
  it('retries a 429, honouring retry-after, and reports a recovered error', async () => {
    const { sleep, delays } = instantSleep();
    const model = scriptedModel([apiError(429, 'Too Many Requests', { 'retry-after': '7' }), ok]);
    const client = createClient({ model, registerTools: false, retry: { sleep } });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r.stopReason).toBe('completed');
    expect(r.text).toBe('fine');
    expect(delays).toEqual([7000]);
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ recovered: true });
    expect(errors[0]?.type === 'error' && errors[0].message).toMatch(
      /^Rate limited \(429\); retrying in 7\.0s \(retry 1 of 3\)$/,
    );
  });

  it('backs off exponentially for network errors, bounded by maxRetries', async () => {
    const { sleep, delays } = instantSleep();
    const net = () =>
      apiError(
        undefined,
        'Cannot connect to API: connect ECONNREFUSED',
        {},
        Object.assign(new Error('x'), { code: 'ECONNREFUSED' }),
      );
    const model = scriptedModel([net(), net(), net()]);
    const client = createClient({
      model,
      registerTools: false,
      retry: { sleep, maxRetries: 2, baseDelayMs: 100 },
    });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r.stopReason).toBe('error');
    expect(delays).toEqual([100, 200]);
    expect(model.calls).toHaveLength(3);
    expect(events.filter((e) => e.type === 'error').map((e) => e.type === 'error' && e.recovered)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('caps delays at maxDelayMs, also for retry-after', async () => {
    const { sleep, delays } = instantSleep();
    const model = scriptedModel([
      apiError(429, 'slow down', { 'retry-after': '3600' }),
      apiError(503, 'overloaded'),
      ok,
    ]);
    const client = createClient({
      model,
      registerTools: false,
      retry: { sleep, maxDelayMs: 5000, baseDelayMs: 4000 },
    });
    const r = await stream(client, 'go');
    expect(r.stopReason).toBe('completed');
    expect(delays).toEqual([5000, 5000]);
  });

  it('does not retry auth errors', async () => {
    const { sleep, delays } = instantSleep();
    const model = scriptedModel([apiError(401, 'Invalid API key'), ok]);
    const client = createClient({ model, registerTools: false, retry: { sleep } });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r.stopReason).toBe('error');
    expect(delays).toEqual([]);
    expect(model.calls).toHaveLength(1);
    expect(events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', message: 'Invalid API key', recovered: false },
    ]);
  });

  it('an abort during a backoff interrupts the turn', async () => {
    const controller = new AbortController();
    const model = scriptedModel([apiError(429, 'Too Many Requests'), ok]);
    const client = createClient({
      model,
      registerTools: false,
      retry: {
        sleep: (_ms, signal) =>
          new Promise((_resolve, reject) => {
            signal?.addEventListener('abort', () =>
              reject(Object.assign(new Error('aborted'), { name: 'AbortError' })),
            );
            controller.abort();
          }),
      },
    });
    const r = await stream(client, 'go', {}, { signal: controller.signal });
    expect(r.stopReason).toBe('interrupted');
    expect(model.calls).toHaveLength(1);
  });

  it('rejects a bad retry policy at creation', () => {
    const model = scriptedModel([]);
    expect(() => createClient({ model, registerTools: false, retry: { maxRetries: -1 } })).toThrow(
      /retry.maxRetries/,
    );
    expect(() => createClient({ model, registerTools: false, retry: { baseDelayMs: Number.NaN } })).toThrow(
      /retry.baseDelayMs/,
    );
  });

  it('classifies errors', () => {
    expect(classifyError(apiError(429, 'x'))).toBe('rate-limit');
    expect(classifyError(apiError(401, 'x'))).toBe('auth');
    expect(classifyError(apiError(403, 'x'))).toBe('auth');
    expect(classifyError(apiError(500, 'x'))).toBe('server');
    expect(classifyError(apiError(400, 'prompt is too long: 210000 tokens > 200000 maximum'))).toBe(
      'prompt-too-long',
    );
    expect(classifyError(apiError(400, "This model's maximum context length is 8192 tokens"))).toBe(
      'prompt-too-long',
    );
    expect(classifyError(apiError(400, 'invalid'))).toBe('other');
    expect(classifyError(Object.assign(new Error('read'), { code: 'ECONNRESET' }))).toBe('network');
    expect(classifyError(new TypeError('fetch failed'))).toBe('network');
    expect(classifyError(Object.assign(new Error('x'), { name: 'AbortError' }))).toBe('abort');
    expect(classifyError('weird')).toBe('other');
  });

  it('reads retry-after in seconds, milliseconds and as an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs(apiError(429, 'x', { 'Retry-After': '2' }), now)).toBe(2000);
    expect(retryAfterMs(apiError(429, 'x', { 'retry-after-ms': '250' }), now)).toBe(250);
    expect(retryAfterMs(apiError(429, 'x', { 'retry-after': 'Thu, 01 Jan 2026 00:00:03 GMT' }), now)).toBe(
      3000,
    );
    expect(retryAfterMs(apiError(429, 'x', { 'retry-after': 'soon' }), now)).toBeUndefined();
    expect(retryAfterMs(apiError(429, 'x', { 'retry-after': '-5' }), now)).toBeUndefined();
    expect(retryAfterMs(new Error('x'), now)).toBeUndefined();
  });
});
