import { APICallError } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import vectors from '@codeagent/render-intent/vectors/stop-reasons.json' with { type: 'json' };
import {
  createClient,
  defineTool,
  mapStopReason,
  STOP_REASONS,
  type StopFacts,
  stream,
} from '../src/index.js';
import { call, finish, recordingCallbacks, scriptedModel, text } from './helpers.js';

const noop = defineTool({
  name: 'noop',
  description: 'Does nothing',
  inputSchema: z.object({}),
  capability: 'read',
  execute: () => 'ok',
});

function apiError(status: number, message: string, headers: Record<string, string> = {}) {
  return new APICallError({
    message,
    url: 'http://127.0.0.1/v1/chat/completions',
    requestBodyValues: {},
    statusCode: status,
    responseHeaders: headers,
    responseBody: JSON.stringify({ error: { message } }),
    isRetryable: status === 429 || status >= 500,
  });
}

// The shared conformance vectors (also run by @codeagent/conformance against any backend, in any language).
describe('stop-reason vectors (@codeagent/render-intent/vectors/stop-reasons.json)', () => {
  type Facts = Omit<StopFacts, 'finishReason'> & { finishReason: string | null };
  it.each(vectors.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const [facts] = v.args as unknown as [Facts];
    const reason = mapStopReason({ ...facts, finishReason: facts.finishReason ?? undefined });
    expect(reason, v.rule).toBe(v.expected);
  });

  it('cover every unified finish reason of the AI SDK and every stop reason, each with its rule', () => {
    expect([...vectors.stopReasons].sort()).toEqual([...STOP_REASONS].sort());
    const finishes = new Set(vectors.vectors.map((v) => v.args[0]?.finishReason));
    for (const f of vectors.finishReasons) expect(finishes, f).toContain(f);
    expect(new Set(vectors.vectors.map((v) => v.expected))).toEqual(new Set(STOP_REASONS));
    for (const v of vectors.vectors) {
      expect(v.rule, v.id).toMatch(/CONTRACTS\.md §3/);
      expect(v.from.length, v.id).toBeGreaterThan(5);
    }
  });
});

describe('stop reasons', () => {
  it.each([
    ['stop', 'completed', 'end_turn'],
    ['length', 'truncated', 'max_tokens'],
    ['content-filter', 'filtered', 'content_filter'],
    ['other', 'completed', 'weird'],
  ] as const)('finish %s -> %s, finishReason keeps the raw value', async (unified, expected, raw) => {
    const model = scriptedModel([[...text(['x']), finish(unified, raw)]]);
    const client = createClient({ model, registerTools: false });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r.stopReason).toBe(expected);
    expect(r.finishReason).toBe(raw);
    const notes = events.filter((e) => e.type === 'error');
    if (expected === 'truncated' || expected === 'filtered') {
      expect(notes).toHaveLength(1);
      expect(notes[0]).toMatchObject({ recovered: true });
    } else expect(notes).toEqual([]);
  });

  it('tool calls the SDK did not run -> incomplete_tool_use', async () => {
    const model = scriptedModel([[call('c1', 'noop', {}), finish('other', 'pause_turn')]]);
    const client = createClient({ model, registerTools: false, tools: [noop] });
    const r = await stream(client, 'go');
    expect(r.stopReason).toBe('incomplete_tool_use');
  });

  it('maxTurns -> max_turns', async () => {
    const model = scriptedModel([
      [call('c1', 'noop', {}), finish('tool-calls')],
      [call('c2', 'noop', {}), finish('tool-calls')],
      [...text(['never']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [noop], maxTurns: 2 });
    const r = await stream(client, 'go');
    expect(r.stopReason).toBe('max_turns');
    expect(model.calls).toHaveLength(2);
    expect(client.maxTurns).toBe(2);
    expect(client.maxModelRequests).toBe(2);
  });

  it('maxModelRequests is the same limit under the name that says what it counts, and wins over maxTurns', async () => {
    const model = scriptedModel([
      [call('c1', 'noop', {}), finish('tool-calls')],
      [...text(['never']), finish('stop')],
    ]);
    const client = createClient({
      model,
      registerTools: false,
      tools: [noop],
      maxTurns: 5,
      maxModelRequests: 1,
    });
    expect(client.maxTurns).toBe(1);
    const r = await stream(client, 'go');
    expect(r.stopReason).toBe('max_turns');
    expect(model.calls).toHaveLength(1);
    expect(() => createClient({ model, registerTools: false, maxModelRequests: 0 })).toThrow(
      /maxModelRequests/,
    );
  });

  it('a provider error resolves with the partial text, usage null and onError', async () => {
    const model = scriptedModel([
      [...text(['partial ']), call('c1', 'noop', {}), finish('tool-calls')],
      apiError(400, 'bad request: unsupported parameter'),
    ]);
    const client = createClient({ model, registerTools: false, tools: [noop] });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r).toEqual({ text: 'partial ', usage: null, stopReason: 'error', finishReason: 'tool-calls' });
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toEqual([
      { type: 'error', message: 'bad request: unsupported parameter', recovered: false },
    ]);
    expect(events.some((e) => e.type === 'usage')).toBe(false);
    // The completed first step stays in the history with valid pairs.
    expect(client.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('an error part in the middle of a stream ends the turn with the partial text', async () => {
    const model = scriptedModel([[...text(['abc']), { type: 'error', error: new Error('stream broke') }]]);
    const client = createClient({ model, registerTools: false });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r.stopReason).toBe('error');
    expect(r.text).toBe('abc');
    expect(r.usage).toBeNull();
    expect(events.filter((e) => e.type === 'error')).toEqual([
      { type: 'error', message: 'stream broke', recovered: false },
    ]);
  });

  it('a throwing callback goes the error path and never escapes', async () => {
    const model = scriptedModel([[...text(['a', 'b', 'c']), finish('stop')]]);
    const client = createClient({ model, registerTools: false });
    const errors: Array<[string, boolean]> = [];
    const r = await stream(client, 'go', {
      onDelta: (t) => {
        if (t === 'b') throw new Error('host UI exploded');
      },
      onError: (m, rec) => errors.push([m, rec]),
    });
    expect(r.stopReason).toBe('error');
    expect(r.usage).toBeNull();
    expect(r.text.startsWith('ab')).toBe(true);
    expect(errors).toEqual([['a callback threw: host UI exploded', false]]);
    expect(client.busy).toBe(false);
    // The client is usable afterwards.
    const model2 = scriptedModel([[...text(['fine']), finish('stop')]]);
    const again = await stream(createClient({ model: model2, registerTools: false }), 'go');
    expect(again.stopReason).toBe('completed');
  });

  it('a throwing onError still resolves', async () => {
    const model = scriptedModel([new Error('boom')]);
    const client = createClient({ model, registerTools: false, retry: { maxRetries: 0 } });
    const r = await stream(client, 'go', {
      onError: () => {
        throw new Error('again');
      },
    });
    expect(r.stopReason).toBe('error');
  });

  it('AbortSignal -> interrupted, with the partial text', async () => {
    const controller = new AbortController();
    const model = scriptedModel([[...text(['a', 'b', 'c', 'd']), finish('stop')]]);
    const client = createClient({ model, registerTools: false });
    const r = await stream(
      client,
      'go',
      {
        onDelta: (t) => {
          if (t === 'b') controller.abort();
        },
      },
      { signal: controller.signal },
    );
    expect(r.stopReason).toBe('interrupted');
    expect(r.text.startsWith('ab')).toBe(true);
    expect(r.usage).not.toBeNull();
  });

  it('an already aborted signal interrupts before any request', async () => {
    const model = scriptedModel([[...text(['x']), finish('stop')]]);
    const client = createClient({ model, registerTools: false });
    const r = await stream(client, 'go', {}, { signal: AbortSignal.abort() });
    expect(r.stopReason).toBe('interrupted');
    expect(r.text).toBe('');
  });

  it('a second turn on a busy client is refused through the error path', async () => {
    let release!: () => void;
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const model = scriptedModel([
      () =>
        new ReadableStream({
          async start(c) {
            await gate;
            c.enqueue({ type: 'text-start', id: 't' });
            c.enqueue({ type: 'text-delta', id: 't', delta: 'x' });
            c.enqueue({ type: 'text-end', id: 't' });
            c.enqueue(finish('stop'));
            c.close();
          },
        }),
    ]);
    const client = createClient({ model, registerTools: false });
    const first = stream(client, 'one');
    const errors: string[] = [];
    const second = await stream(client, 'two', { onError: (m) => errors.push(m) });
    expect(second.stopReason).toBe('error');
    expect(errors).toEqual(['a turn is already running on this client']);
    release();
    expect((await first).stopReason).toBe('completed');
  });

  it('mapping covers the whole vocabulary', () => {
    const seen = new Set<string>();
    const finishes = [undefined, 'stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'];
    for (const finishReason of finishes)
      for (const failed of [false, true])
        for (const aborted of [false, true])
          for (const hitMaxTurns of [false, true])
            for (const budgetExceeded of [false, true])
              for (const unresolvedToolCalls of [0, 1])
                seen.add(
                  mapStopReason({
                    finishReason,
                    failed,
                    aborted,
                    hitMaxTurns,
                    budgetExceeded,
                    unresolvedToolCalls,
                  }),
                );
    expect([...seen].sort()).toEqual([...STOP_REASONS].sort());
  });
});
