import { APICallError, generateText, streamText } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { createModel, modelFromEnv, type ResolvedModel } from '../src/index.js';
import { type FakeReply, type FakeServer, startFakeServer } from './fake-server.js';
import { looseTool } from './helpers.js';

/** One wire protocol: how to build a model against the fake, and the replies that protocol sends. */
interface Protocol {
  readonly name: string;
  readonly path: string;
  readonly model: (url: string) => ResolvedModel;
  readonly authHeader: (headers: Record<string, string | string[] | undefined>) => unknown;
  readonly text: (parts: readonly string[], usage: { input: number; output: number }) => FakeReply;
  readonly tool: (name: string, argChunks: readonly string[]) => FakeReply;
  readonly error: (status: number, message: string) => FakeReply;
}

// --- OpenAI chat completions (also what every OpenAI-compatible server speaks) ---
const chatChunk = (delta: unknown, finish: string | null = null, usage?: unknown) => ({
  data: {
    id: 'chatcmpl-1',
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: usage === undefined ? [{ index: 0, delta, finish_reason: finish }] : [],
    ...(usage === undefined ? {} : { usage }),
  },
});
const chatText: Protocol['text'] = (parts, usage) => ({
  sse: [
    chatChunk({ role: 'assistant', content: '' }),
    ...parts.map((content) => chatChunk({ content })),
    chatChunk({}, 'stop'),
    chatChunk({}, null, { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: 0 }),
  ],
});
const chatTool: Protocol['tool'] = (name, argChunks) => ({
  sse: [
    chatChunk({
      role: 'assistant',
      tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: '' } }],
    }),
    ...argChunks.map((args) => chatChunk({ tool_calls: [{ index: 0, function: { arguments: args } }] })),
    chatChunk({}, 'tool_calls'),
    chatChunk({}, null, { prompt_tokens: 30, completion_tokens: 9, total_tokens: 39 }),
  ],
});
const chatError: Protocol['error'] = (status, message) => ({
  status,
  json: { error: { message, type: 'invalid_request_error', code: null } },
});

// --- OpenAI Responses API (the @ai-sdk/openai default) ---
const responsesHead = [
  {
    event: 'response.created',
    data: { type: 'response.created', response: { id: 'resp_1', created_at: 1, model: 'gpt-4.1' } },
  },
];
const responsesDone = (input: number, output: number) => ({
  event: 'response.completed',
  data: {
    type: 'response.completed',
    response: {
      usage: {
        input_tokens: input,
        output_tokens: output,
        input_tokens_details: { cached_tokens: 0 },
        output_tokens_details: { reasoning_tokens: 0 },
      },
    },
  },
});
const responsesText: Protocol['text'] = (parts, usage) => ({
  done: false,
  sse: [
    ...responsesHead,
    { data: { type: 'response.output_item.added', output_index: 0, item: { type: 'message', id: 'msg_1' } } },
    ...parts.map((delta) => ({ data: { type: 'response.output_text.delta', item_id: 'msg_1', delta } })),
    { data: { type: 'response.output_item.done', output_index: 0, item: { type: 'message', id: 'msg_1' } } },
    responsesDone(usage.input, usage.output),
  ],
});
const responsesTool: Protocol['tool'] = (name, argChunks) => {
  const item = { type: 'function_call', id: 'fc_1', call_id: 'call_1', name, arguments: '' };
  return {
    done: false,
    sse: [
      ...responsesHead,
      { data: { type: 'response.output_item.added', output_index: 0, item } },
      ...argChunks.map((delta) => ({
        data: { type: 'response.function_call_arguments.delta', item_id: 'fc_1', output_index: 0, delta },
      })),
      {
        data: {
          type: 'response.output_item.done',
          output_index: 0,
          item: { ...item, arguments: argChunks.join(''), status: 'completed' },
        },
      },
      responsesDone(30, 9),
    ],
  };
};

// --- Anthropic messages ---
const anthropicStart = (input: number) => ({
  event: 'message_start',
  data: {
    type: 'message_start',
    message: {
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [],
      stop_reason: null,
      stop_sequence: null,
      usage: { input_tokens: input, output_tokens: 1 },
    },
  },
});
const anthropicEnd = (stop: string, output: number) => [
  {
    event: 'message_delta',
    data: {
      type: 'message_delta',
      delta: { stop_reason: stop, stop_sequence: null },
      usage: { output_tokens: output },
    },
  },
  { event: 'message_stop', data: { type: 'message_stop' } },
];
const anthropicText: Protocol['text'] = (parts, usage) => ({
  done: false,
  sse: [
    anthropicStart(usage.input),
    {
      event: 'content_block_start',
      data: { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
    },
    ...parts.map((text) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text } },
    })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    ...anthropicEnd('end_turn', usage.output),
  ],
});
const anthropicTool: Protocol['tool'] = (name, argChunks) => ({
  done: false,
  sse: [
    anthropicStart(30),
    {
      event: 'content_block_start',
      data: {
        type: 'content_block_start',
        index: 0,
        content_block: { type: 'tool_use', id: 'toolu_1', name, input: {} },
      },
    },
    ...argChunks.map((partial_json) => ({
      event: 'content_block_delta',
      data: { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json } },
    })),
    { event: 'content_block_stop', data: { type: 'content_block_stop', index: 0 } },
    ...anthropicEnd('tool_use', 9),
  ],
});
const anthropicError: Protocol['error'] = (status, message) => ({
  status,
  json: { type: 'error', error: { type: 'authentication_error', message } },
});

const testHeaders = { 'x-codeagent-test': 'yes' };

const protocols: Protocol[] = [
  {
    name: 'openai-compatible (chat/completions)',
    path: '/v1/chat/completions',
    model: (url) =>
      createModel({
        provider: 'openai-compatible',
        baseURL: `${url}/v1`,
        model: 'qwen2.5-coder:7b',
        apiKey: 'k-compat',
        headers: testHeaders,
      }),
    authHeader: (h) => h.authorization,
    text: chatText,
    tool: chatTool,
    error: chatError,
  },
  {
    name: 'openai (Responses API, the default)',
    path: '/v1/responses',
    model: (url) =>
      createModel({
        provider: 'openai',
        baseURL: `${url}/v1`,
        apiKey: 'k-openai',
        model: 'gpt-4.1',
        headers: testHeaders,
      }),
    authHeader: (h) => h.authorization,
    text: responsesText,
    tool: responsesTool,
    error: chatError,
  },
  {
    name: 'openai (api: chat)',
    path: '/v1/chat/completions',
    model: (url) =>
      createModel({
        provider: 'openai',
        baseURL: `${url}/v1`,
        apiKey: 'k-openai',
        model: 'gpt-4o',
        api: 'chat',
        headers: testHeaders,
      }),
    authHeader: (h) => h.authorization,
    text: chatText,
    tool: chatTool,
    error: chatError,
  },
  {
    name: 'anthropic (messages)',
    path: '/v1/messages',
    model: (url) =>
      createModel({
        provider: 'anthropic',
        baseURL: `${url}/v1`,
        apiKey: 'k-anthropic',
        headers: testHeaders,
      }),
    authHeader: (h) => h['x-api-key'],
    text: anthropicText,
    tool: anthropicTool,
    error: anthropicError,
  },
];

const expectedAuth: Record<string, string> = {
  'openai-compatible (chat/completions)': 'Bearer k-compat',
  'openai (Responses API, the default)': 'Bearer k-openai',
  'openai (api: chat)': 'Bearer k-openai',
  'anthropic (messages)': 'k-anthropic',
};

let server: FakeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe.each(protocols)('$name against a loopback fake', (protocol) => {
  it('streams text and reports usage', async () => {
    server = await startFakeServer(() => protocol.text(['Hel', 'lo, ', 'world'], { input: 11, output: 4 }));
    const resolved = protocol.model(server.url);
    const result = streamText({ model: resolved.model, prompt: 'say hello', maxRetries: 0 });
    const deltas: string[] = [];
    for await (const delta of result.textStream) deltas.push(delta);
    expect(deltas.join('')).toBe('Hello, world');
    expect(deltas.length).toBeGreaterThan(1);
    const usage = await result.usage;
    expect(usage.inputTokens).toBe(11);
    expect(usage.outputTokens).toBe(4);
    expect(await result.finishReason).toBe('stop');
    const request = server.requests[0];
    expect(request?.path).toBe(protocol.path);
    expect(protocol.authHeader(request?.headers ?? {})).toBe(expectedAuth[protocol.name]);
    expect(request?.body.model).toBe(resolved.modelId);
    expect(request?.headers['x-codeagent-test']).toBe('yes');
  });

  it('streams a tool call whose arguments arrive split over chunks', async () => {
    server = await startFakeServer(() => protocol.tool('weather', ['{"ci', 'ty":"Pa', 'ris"}']));
    const resolved = protocol.model(server.url);
    const result = streamText({
      model: resolved.model,
      prompt: 'weather?',
      tools: { weather: looseTool(() => 'sunny') },
      maxRetries: 0,
    });
    const toolCalls = await result.toolCalls;
    expect(toolCalls.map((call) => [call.toolName, call.input])).toEqual([['weather', { city: 'Paris' }]]);
    expect(await result.finishReason).toBe('tool-calls');
    expect((await result.toolResults).map((r) => r.output)).toEqual(['sunny']);
    expect(JSON.stringify(server.requests[0]?.body)).toContain('weather');
  });

  it('turns an error status into an APICallError with the status and message', async () => {
    server = await startFakeServer(() => protocol.error(401, 'bad key for test'));
    const resolved = protocol.model(server.url);
    let caught: unknown;
    try {
      await generateText({ model: resolved.model, prompt: 'x', maxRetries: 0 });
    } catch (error) {
      caught = error;
    }
    expect(APICallError.isInstance(caught)).toBe(true);
    expect((caught as APICallError).statusCode).toBe(401);
    expect((caught as APICallError).message).toContain('bad key for test');
  });
});

describe('modelFromEnv over real HTTP', () => {
  it('builds an OpenAI-compatible model from CODEAGENT_* variables (no key needed, as for Ollama)', async () => {
    server = await startFakeServer(() => chatText(['ok'], { input: 3, output: 1 }));
    const resolved = modelFromEnv({
      env: { CODEAGENT_BASE_URL: `${server.url}/v1`, CODEAGENT_MODEL: 'llama3.1:8b' },
    });
    expect(resolved).toMatchObject({
      provider: 'openai-compatible',
      modelId: 'llama3.1:8b',
      contextWindow: 131_072,
    });
    const result = streamText({ model: resolved!.model, prompt: 'hi', maxRetries: 0 });
    expect(await result.text).toBe('ok');
    expect(server.requests[0]?.headers.authorization).toBeUndefined();
    // includeUsage is on, so the server is asked for the final usage chunk.
    expect(server.requests[0]?.body.stream_options).toEqual({ include_usage: true });
  });

  it('routes requests through a custom fetch', async () => {
    server = await startFakeServer(() => anthropicText(['via fetch'], { input: 3, output: 2 }));
    const seen: string[] = [];
    const fetch: typeof globalThis.fetch = (input, init) => {
      seen.push(String(input instanceof Request ? input.url : input));
      return globalThis.fetch(input, init);
    };
    const resolved = modelFromEnv({
      env: {
        CODEAGENT_PROVIDER: 'anthropic',
        ANTHROPIC_API_KEY: 'k',
        CODEAGENT_BASE_URL: `${server.url}/v1`,
        CODEAGENT_MODEL: 'claude-3-5-haiku-latest',
      },
      fetch,
    });
    expect(resolved).toMatchObject({ provider: 'anthropic', maxOutputTokens: 8_192 });
    expect(await streamText({ model: resolved!.model, prompt: 'hi', maxRetries: 0 }).text).toBe('via fetch');
    expect(seen).toEqual([`${server.url}/v1/messages`]);
  });
});
