import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { streamText } from 'ai';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createModel,
  fetchServerModelInfo,
  isProvidersError,
  parseServerModels,
  withStallTimeout,
} from '../src/index.js';

type Handler = (res: ServerResponse, path: string) => void;
const servers: Server[] = [];
const open = new Set<ServerResponse>();
afterEach(async () => {
  for (const res of open) res.destroy();
  open.clear();
  await Promise.all(
    servers.splice(0).map(
      (s) =>
        new Promise<void>((resolve) => {
          s.closeAllConnections();
          s.close(() => resolve());
        }),
    ),
  );
});

async function serve(handler: Handler): Promise<string> {
  const server = createServer((req, res) => {
    open.add(res);
    req.resume();
    req.on('end', () => handler(res, req.url ?? ''));
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const sse = (res: ServerResponse) => res.writeHead(200, { 'content-type': 'text/event-stream' });
const chunk = (content: string) =>
  `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: { content }, finish_reason: null }] })}\n\n`;

function compat(url: string, stallTimeoutMs: number) {
  return createModel({ provider: 'openai-compatible', baseURL: `${url}/v1`, model: 'm', stallTimeoutMs })
    .model;
}

async function run(model: ReturnType<typeof compat>, signal?: AbortSignal) {
  const errors: unknown[] = [];
  const result = streamText({
    model,
    prompt: 'hi',
    maxRetries: 0,
    ...(signal ? { abortSignal: signal } : {}),
    onError: ({ error }) => void errors.push(error),
  });
  let text = '';
  let aborted = false;
  try {
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') text += part.text;
      if (part.type === 'abort') aborted = true;
    }
  } catch (error) {
    // A stream that errors after it started ends the iteration with that error.
    errors.push(error);
  }
  return { text, errors, aborted };
}

const finish = `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\ndata: [DONE]\n\n`;

describe('withStallTimeout (stallTimeoutMs) over a real loopback server', () => {
  it('a server that never answers: the request fails with a clear, retriable stalled error', async () => {
    const url = await serve(() => undefined); // accepts, never answers
    const { errors } = await run(compat(url, 150));
    const error = errors[0];
    expect(isProvidersError(error) && error.code).toBe('stalled');
    expect((error as Error).message).toBe(
      'the provider did not start answering for 150 ms, so the request was aborted (stall timeout)',
    );
    expect(((error as Error).cause as { code?: string }).code).toBe('ETIMEDOUT');
  });

  it('a server that stops sending mid-answer: the text so far, then the stalled error; the turn ends', async () => {
    const url = await serve((res) => {
      sse(res);
      res.write(chunk('Hello'));
    });
    const { text, errors } = await run(compat(url, 200));
    expect(text).toBe('Hello');
    expect(String((errors[0] as Error)?.message)).toBe(
      'the provider stopped sending data for 200 ms, so the request was aborted (stall timeout)',
    );
  });

  it('never fires for a steady trickle slower in total than the timeout', async () => {
    const url = await serve((res) => {
      sse(res);
      let n = 0;
      const timer = setInterval(() => {
        n += 1;
        res.write(chunk(String(n)));
        if (n === 8) {
          clearInterval(timer);
          res.end(finish);
        }
      }, 60);
    });
    // 8 chunks 60 ms apart: 480 ms in all, over the 300 ms stall timeout, with room for a loaded machine's timers.
    const { text, errors } = await run(compat(url, 300));
    expect(errors).toEqual([]);
    expect(text).toBe('12345678');
  });

  it('the caller can still abort (an abort, not a stall)', async () => {
    const url = await serve(() => undefined);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { errors, aborted } = await run(compat(url, 5_000), controller.signal);
    expect(errors.some((e) => isProvidersError(e))).toBe(false);
    expect(aborted || errors.length > 0).toBe(true);
  });

  it('rejects a nonsense timeout', () => {
    expect(() => withStallTimeout(compat('http://127.0.0.1:1', 10), 0)).toThrow(/positive number/);
    expect(() =>
      createModel({ provider: 'openai-compatible', baseURL: 'http://x', model: 'm', stallTimeoutMs: -1 }),
    ).toThrow(/stallTimeoutMs must be a positive number/);
  });
});

describe('fetchServerModelInfo and parseServerModels', () => {
  it('reads the window from vLLM, OpenRouter, LM Studio and llama.cpp shapes', () => {
    expect(parseServerModels({ data: [{ id: 'q', max_model_len: 32768 }] }, 'q')).toEqual({
      contextWindow: 32768,
      field: 'max_model_len',
    });
    expect(
      parseServerModels({ data: [{ id: 'a' }, { id: 'q', context_length: '131072' }] }, 'q').contextWindow,
    ).toBe(131072);
    expect(parseServerModels([{ id: 'q', max_context_length: 8192 }], 'q').contextWindow).toBe(8192);
    expect(parseServerModels({ data: [{ id: 'q', meta: { n_ctx_train: 4096 } }] }, 'q').contextWindow).toBe(
      4096,
    );
    expect(parseServerModels({ data: [{ id: 'q' }] }, 'q').contextWindow).toBeNull();
    expect(
      parseServerModels({ data: [{ id: 'other', context_length: 9000 }] }, 'q').contextWindow,
    ).toBeNull();
    for (const bad of [-1, 0, 12.5, 1e12, '12abc', null, {}, [], true, 100]) {
      expect(parseServerModels({ data: [{ id: 'q', context_length: bad }] }, 'q').contextWindow).toBeNull();
    }
  });

  it('never throws and answers a plausible window or null for any JSON (property)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.string({ maxLength: 5 }), (value, id) => {
        const info = parseServerModels(value, id);
        const n = info.contextWindow;
        expect(n === null || (Number.isSafeInteger(n) && n >= 256 && n <= 100_000_000)).toBe(true);
      }),
      { numRuns: 1000 },
    );
    const deep = JSON.parse(`${'{"data":'.repeat(1)}[${'['.repeat(5000)}${']'.repeat(5000)}]}`);
    expect(parseServerModels(deep, 'q').contextWindow).toBeNull();
  });

  it('asks GET <baseURL>/models over HTTP; 404, garbage and a silent server give null without throwing', async () => {
    const paths: string[] = [];
    const good = await serve((res, path) => {
      paths.push(path);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ data: [{ id: 'qwen', max_model_len: 16384 }] }));
    });
    expect(await fetchServerModelInfo(`${good}/v1/`, 'qwen')).toEqual({
      contextWindow: 16384,
      field: 'max_model_len',
    });
    expect(paths).toEqual(['/v1/models']);
    const missing = await serve((res) => res.writeHead(404).end('nope'));
    expect((await fetchServerModelInfo(`${missing}/v1`, 'qwen')).contextWindow).toBeNull();
    const garbage = await serve((res) => res.writeHead(200).end('{"data": [oops'));
    expect((await fetchServerModelInfo(`${garbage}/v1`, 'qwen')).contextWindow).toBeNull();
    const silent = await serve(() => undefined);
    expect((await fetchServerModelInfo(`${silent}/v1`, 'qwen', { timeoutMs: 100 })).contextWindow).toBeNull();
  });
});
