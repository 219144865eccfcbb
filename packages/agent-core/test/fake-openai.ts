import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One scripted answer of the fake server. */
export type Reply = (res: ServerResponse, body: unknown) => void | Promise<void>;

/** A fake OpenAI-compatible chat completions server on 127.0.0.1 with scripted replies. */
export interface FakeOpenAI {
  /** Base URL, e.g. `http://127.0.0.1:1234/v1`. */
  readonly baseURL: string;
  /** Parsed JSON bodies of the requests received. */
  readonly requests: unknown[];
  /** Stops the server. */
  close(): Promise<void>;
}

let seq = 0;

/** One `chat.completion.chunk` SSE line. */
export function chunk(
  delta: Record<string, unknown>,
  finishReason: string | null = null,
  usage?: Record<string, number>,
): string {
  const body = {
    id: `chatcmpl-${++seq}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'fake-model',
    choices: [{ index: 0, delta, finish_reason: finishReason }],
    ...(usage ? { usage } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/** Streams SSE lines, then `[DONE]`. */
export function sse(lines: readonly string[]): Reply {
  return async (res) => {
    res.writeHead(200, {
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache',
      connection: 'keep-alive',
    });
    for (const line of lines) {
      res.write(line);
      await new Promise((r) => setImmediate(r));
    }
    res.write('data: [DONE]\n\n');
    res.end();
  };
}

/** A JSON error reply. */
export function httpError(status: number, message: string, headers: Record<string, string> = {}): Reply {
  return (res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ error: { message, type: 'error', code: status } }));
  };
}

/** Streams some lines, then destroys the socket mid-stream. */
export function dropAfter(lines: readonly string[]): Reply {
  return async (res) => {
    res.writeHead(200, { 'content-type': 'text/event-stream' });
    for (const line of lines) {
      res.write(line);
      await new Promise((r) => setImmediate(r));
    }
    await new Promise((r) => setTimeout(r, 5));
    res.socket?.destroy();
  };
}

/** Usage figures in OpenAI's shape. */
export const openaiUsage = (prompt: number, completion: number) => ({
  prompt_tokens: prompt,
  completion_tokens: completion,
  total_tokens: prompt + completion,
});

/** Starts the server; each request gets the next reply. */
export async function startFakeOpenAI(replies: readonly Reply[]): Promise<FakeOpenAI> {
  const requests: unknown[] = [];
  let i = 0;
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      let body: unknown = null;
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      } catch {
        body = null;
      }
      requests.push(body);
      const reply = replies[i++];
      if (!reply) {
        httpError(500, 'no scripted reply left')(res, body);
        return;
      }
      Promise.resolve(reply(res, body)).catch(() => res.destroy());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
