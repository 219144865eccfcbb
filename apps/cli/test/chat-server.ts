import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat-completions request the server received. */
export interface ChatRequest {
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: {
    model?: string;
    messages?: Array<{ role: string; content: unknown }>;
    tools?: unknown[];
    [key: string]: unknown;
  };
}

/** What the server answers to one chat request. */
export type ChatReply =
  | { readonly text: string | readonly string[]; readonly delayMs?: number; readonly usage?: Usage }
  | {
      readonly tools: ReadonlyArray<{ readonly name: string; readonly args: Record<string, unknown> }>;
      readonly text?: string;
      readonly usage?: Usage;
    }
  /** Sends `text` and then stops sending bytes, keeping the connection open (a stalled provider). */
  | { readonly stallAfter: string }
  /** Never answers at all (no status line, no headers): a provider that stalls before the response starts. */
  | { readonly hang: true }
  | { readonly status: number; readonly message: string };

interface Usage {
  readonly input: number;
  readonly output: number;
}

/** A loopback OpenAI-compatible server (`/v1/chat/completions` as SSE, optional `/v1/models`). */
export interface OpenAIServer {
  /** Base URL to hand the CLI (`http://127.0.0.1:<port>/v1`). */
  readonly baseURL: string;
  readonly requests: ChatRequest[];
  /** Requests to `/v1/models`. */
  modelsRequests: number;
  close(): Promise<void>;
}

/** Options of {@link startOpenAIServer}. */
export interface OpenAIServerOptions {
  /** Replies in order, or a function of the request (its index counts chat requests only). */
  readonly replies: readonly ChatReply[] | ((request: ChatRequest, index: number) => ChatReply);
  /** The `/v1/models` listing (default: 404, as many servers do). */
  readonly models?: ReadonlyArray<Record<string, unknown>>;
}

const chunk = (delta: unknown, finish: string | null = null, usage?: Usage) => ({
  id: 'chatcmpl-test',
  object: 'chat.completion.chunk',
  created: 1_700_000_000,
  model: 'test-model',
  choices: usage === undefined ? [{ index: 0, delta, finish_reason: finish }] : [],
  ...(usage === undefined
    ? {}
    : {
        usage: {
          prompt_tokens: usage.input,
          completion_tokens: usage.output,
          total_tokens: usage.input + usage.output,
        },
      }),
});

function send(res: ServerResponse, data: unknown): void {
  res.write(`data: ${JSON.stringify(data)}\n\n`);
}

/** Starts the server on 127.0.0.1, port 0. */
export async function startOpenAIServer(options: OpenAIServerOptions): Promise<OpenAIServer> {
  const requests: ChatRequest[] = [];
  const state = { modelsRequests: 0 };
  const open = new Set<ServerResponse>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const path = req.url ?? '';
      if (path.endsWith('/models')) {
        state.modelsRequests += 1;
        if (options.models === undefined) {
          res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":"not found"}');
        } else {
          res
            .writeHead(200, { 'content-type': 'application/json' })
            .end(JSON.stringify({ object: 'list', data: options.models }));
        }
        return;
      }
      const text = Buffer.concat(chunks).toString('utf8');
      const request: ChatRequest = { path, headers: req.headers, body: text === '' ? {} : JSON.parse(text) };
      const index = requests.length;
      requests.push(request);
      const replies = options.replies;
      const reply: ChatReply =
        typeof replies === 'function'
          ? replies(request, index)
          : (replies[index] ?? { text: 'No more scripted replies.' });
      if ('hang' in reply) {
        open.add(res);
        res.on('close', () => open.delete(res));
        return;
      }
      if ('status' in reply) {
        res
          .writeHead(reply.status, { 'content-type': 'application/json' })
          .end(
            JSON.stringify({ error: { message: reply.message, type: 'invalid_request_error', code: null } }),
          );
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      open.add(res);
      res.on('close', () => open.delete(res));
      send(res, chunk({ role: 'assistant', content: '' }));
      if ('stallAfter' in reply) {
        send(res, chunk({ content: reply.stallAfter }));
        return; // never another byte
      }
      const usage = reply.usage ?? { input: 1200, output: 40 };
      if ('tools' in reply) {
        if (reply.text) send(res, chunk({ content: reply.text }));
        reply.tools.forEach((call, i) => {
          send(
            res,
            chunk({
              tool_calls: [
                {
                  index: i,
                  id: `call_${index}_${i}`,
                  type: 'function',
                  function: { name: call.name, arguments: JSON.stringify(call.args) },
                },
              ],
            }),
          );
        });
        send(res, chunk({}, 'tool_calls'));
        send(res, chunk({}, null, usage));
        res.end('data: [DONE]\n\n');
        return;
      }
      const parts = typeof reply.text === 'string' ? [reply.text] : reply.text;
      const delay = reply.delayMs ?? 0;
      let i = 0;
      const next = () => {
        if (res.destroyed) return;
        const part = parts[i];
        if (part === undefined) {
          send(res, chunk({}, 'stop'));
          send(res, chunk({}, null, usage));
          res.end('data: [DONE]\n\n');
          return;
        }
        i += 1;
        send(res, chunk({ content: part }));
        if (delay > 0) setTimeout(next, delay);
        else next();
      };
      next();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    get modelsRequests() {
      return state.modelsRequests;
    },
    set modelsRequests(n: number) {
      state.modelsRequests = n;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const res of open) res.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Environment that points the CLI at the server, with a private HOME (no user config leaks in). */
export function serverEnv(server: OpenAIServer, home: string, model = 'test-model'): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: home,
    CODEAGENT_BASE_URL: server.baseURL,
    CODEAGENT_MODEL: model,
  };
}
