import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, defineTool, stream, streamEvents } from '../src/index.js';
import {
  chunk,
  dropAfter,
  type FakeOpenAI,
  httpError,
  openaiUsage,
  type Reply,
  sse,
  startFakeOpenAI,
} from './fake-openai.js';
import { collect, instantSleep, recordingCallbacks } from './helpers.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo text back',
  inputSchema: z.object({ text: z.string() }),
  capability: 'read',
  execute: ({ text }) => [{ echoed: text }],
});

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function clientFor(replies: Reply[], extra: Record<string, unknown> = {}) {
  server = await startFakeOpenAI(replies);
  const provider = createOpenAICompatible({
    name: 'fake',
    baseURL: server.baseURL,
    apiKey: 'test-key',
    includeUsage: true,
  });
  return createClient({
    model: provider.chatModel('fake-model'),
    registerTools: false,
    tools: [echo],
    ...extra,
  });
}

const toolCallTurn = sse([
  chunk({ role: 'assistant', content: 'Echoing. ' }),
  chunk({
    tool_calls: [{ index: 0, id: 'call_abc', type: 'function', function: { name: 'echo', arguments: '' } }],
  }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '{"te' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: 'xt": "hi", "_intent' } }] }),
  chunk({ tool_calls: [{ index: 0, function: { arguments: '": "demo"}' } }] }),
  chunk({}, 'tool_calls', openaiUsage(50, 20)),
]);

describe('over real HTTP (OpenAI-compatible SSE on 127.0.0.1)', () => {
  it('streams text and reasoning, and a tool call whose arguments are split across chunks', async () => {
    const client = await clientFor([
      toolCallTurn,
      sse([
        chunk({ reasoning_content: 'think ' }),
        chunk({ content: 'Done' }),
        chunk({ content: '.' }),
        chunk({}, 'stop', openaiUsage(80, 5)),
      ]),
    ]);
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'say hi', callbacks);
    expect(r).toMatchObject({ text: 'Echoing. Done.', stopReason: 'completed', finishReason: 'stop' });
    expect(r.usage).toMatchObject({ inputTokens: 130, outputTokens: 25 });
    expect(events.map((e) => e.type)).toEqual([
      'delta',
      'tool-request',
      'tool-result',
      'thinking',
      'delta',
      'delta',
      'usage',
    ]);
    expect(events[1]).toMatchObject({
      id: 'call_abc',
      name: 'echo',
      arguments: { text: 'hi', _intent: 'demo' },
      intent: 'demo',
    });
    expect(events[2]).toMatchObject({
      value: '[{"echoed":"hi"}]',
      isError: false,
      artifact: { kind: 'table' },
    });
    // The second request carries only the value as the tool message content.
    const second = server?.requests[1] as {
      messages: Array<{ role: string; content: unknown; tool_call_id?: string }>;
    };
    const toolMsg = second.messages.find((m) => m.role === 'tool');
    expect(toolMsg).toEqual({ role: 'tool', tool_call_id: 'call_abc', content: '[{"echoed":"hi"}]' });
    const first = server?.requests[0] as {
      tools: Array<{ function: { name: string; parameters: { properties: object } } }>;
    };
    expect(Object.keys(first.tools[0]?.function.parameters.properties ?? {})).toEqual(['text', '_intent']);
  });

  it('retries a 429 then succeeds', async () => {
    const { sleep, delays } = instantSleep();
    const client = await clientFor(
      [
        httpError(429, 'Rate limit reached', { 'retry-after': '2' }),
        sse([chunk({ content: 'ok' }), chunk({}, 'stop', openaiUsage(5, 1))]),
      ],
      { retry: { sleep } },
    );
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'hi', callbacks);
    expect(r).toMatchObject({ text: 'ok', stopReason: 'completed' });
    expect(delays).toEqual([2000]);
    expect(events.filter((e) => e.type === 'error')).toMatchObject([{ recovered: true }]);
    expect(server?.requests).toHaveLength(2);
  });

  it('an auth error is not retried', async () => {
    const { sleep, delays } = instantSleep();
    const client = await clientFor([httpError(401, 'Incorrect API key provided')], { retry: { sleep } });
    const errors: Array<[string, boolean]> = [];
    const r = await stream(client, 'hi', { onError: (m, rec) => errors.push([m, rec]) });
    expect(r.stopReason).toBe('error');
    expect(delays).toEqual([]);
    expect(errors).toEqual([['Incorrect API key provided', false]]);
  });

  it('a connection dropped mid-stream ends the turn with the partial text', async () => {
    const client = await clientFor([dropAfter([chunk({ content: 'Hello ' }), chunk({ content: 'wor' })])], {
      retry: { maxRetries: 0 },
    });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'hi', callbacks);
    expect(r.stopReason).toBe('error');
    expect(r.text).toBe('Hello wor');
    expect(r.usage).toBeNull();
    const errors = events.filter((e) => e.type === 'error');
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatchObject({ recovered: false });
    expect(client.busy).toBe(false);
  });

  it('malformed tool JSON becomes an error result the model sees; the turn goes on', async () => {
    const client = await clientFor([
      sse([
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_bad',
              type: 'function',
              function: { name: 'echo', arguments: '{"text": ' },
            },
          ],
        }),
        chunk({}, 'tool_calls', openaiUsage(10, 3)),
      ]),
      sse([chunk({ content: 'Sorry.' }), chunk({}, 'stop', openaiUsage(10, 1))]),
    ]);
    const events = (await collect(streamEvents(client, 'hi'))).filter((e) => e.type !== 'tick');
    const end = events.at(-1);
    expect(end?.type === 'end' && end.result).toMatchObject({ text: 'Sorry.', stopReason: 'completed' });
    const res = events.find((e) => e.type === 'tool-result');
    expect(res).toMatchObject({ id: 'call_bad', name: 'echo', isError: true });
    const second = server?.requests[1] as { messages: Array<{ role: string; content: string }> };
    const toolMsg = second.messages.find((m) => m.role === 'tool');
    expect(toolMsg?.content).toBe(res?.type === 'tool-result' ? res.value : 'missing');
  });
});
