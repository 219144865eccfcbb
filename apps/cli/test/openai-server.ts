import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the loopback model answers to one chat request. */
export type ModelReply =
  | { readonly text: string }
  | { readonly toolCall: { readonly name: string; readonly arguments: Record<string, unknown> } };

/** A loopback OpenAI-compatible chat completions server streaming SSE. */
export interface LoopbackModel {
  /** Base URL to give `CODEAGENT_BASE_URL`, e.g. `http://127.0.0.1:1234/v1`. */
  readonly baseURL: string;
  /** Parsed request bodies, in order. */
  readonly requests: Array<{ messages: Array<{ role: string; content: unknown }> }>;
  /** `performance.now()` when each response's first content delta was written. */
  readonly firstDeltaAt: number[];
  /** Stops the server. */
  close(): Promise<void>;
}

let seq = 0;

function chunk(delta: Record<string, unknown>, finish: string | null = null, usage?: Record<string, number>) {
  const body = {
    id: `chatcmpl-${++seq}`,
    object: 'chat.completion.chunk',
    created: 1_700_000_000,
    model: 'loopback',
    choices: [{ index: 0, delta, finish_reason: finish }],
    ...(usage ? { usage } : {}),
  };
  return `data: ${JSON.stringify(body)}\n\n`;
}

/**
 * Starts the server on 127.0.0.1:0. `decide` picks the reply from the request's messages; text is streamed in
 * word chunks, a tool call's arguments in two halves (as real servers split them).
 */
export async function startLoopbackModel(
  decide: (messages: Array<{ role: string; content: unknown }>) => ModelReply,
): Promise<LoopbackModel> {
  const requests: LoopbackModel['requests'] = [];
  const firstDeltaAt: number[] = [];
  const server: Server = createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (d: Buffer) => parts.push(d));
    req.on('end', async () => {
      let body: { messages?: Array<{ role: string; content: unknown }> } = {};
      try {
        body = JSON.parse(Buffer.concat(parts).toString('utf8')) as typeof body;
      } catch {
        res.writeHead(400).end();
        return;
      }
      const messages = body.messages ?? [];
      requests.push({ messages });
      const reply = decide(messages);
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      const lines: string[] = [chunk({ role: 'assistant', content: '' })];
      if ('text' in reply) {
        for (const word of reply.text.match(/\S+\s*/g) ?? []) lines.push(chunk({ content: word }));
        lines.push(chunk({}, 'stop'));
      } else {
        const args = JSON.stringify(reply.toolCall.arguments);
        const half = Math.floor(args.length / 2);
        const id = `call_${seq}`;
        lines.push(
          chunk({
            tool_calls: [
              {
                index: 0,
                id,
                type: 'function',
                function: { name: reply.toolCall.name, arguments: args.slice(0, half) },
              },
            ],
          }),
          chunk({ tool_calls: [{ index: 0, function: { arguments: args.slice(half) } }] }),
          chunk({}, 'tool_calls'),
        );
      }
      lines.push(chunk({}, null, { prompt_tokens: 120, completion_tokens: 12, total_tokens: 132 }));
      for (const [i, line] of lines.entries()) {
        if (i === 1) firstDeltaAt.push(performance.now());
        res.write(line);
        await new Promise((r) => setImmediate(r));
      }
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseURL: `http://127.0.0.1:${port}/v1`,
    requests,
    firstDeltaAt,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The text of the last message, whatever its content shape. */
export function lastMessageText(messages: ReadonlyArray<{ role: string; content: unknown }>): string {
  const last = messages[messages.length - 1];
  if (!last) return '';
  if (typeof last.content === 'string') return last.content;
  return JSON.stringify(last.content);
}
