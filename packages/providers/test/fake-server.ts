import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One request the fake server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  readonly headers: IncomingHttpHeaders;
  readonly body: Record<string, unknown>;
}

/** What the fake answers: an SSE stream of events, or a status with a JSON body. */
export type FakeReply =
  | {
      readonly sse: ReadonlyArray<{ readonly event?: string; readonly data: unknown }>;
      readonly done?: boolean;
    }
  | { readonly status: number; readonly json: unknown };

/** A loopback HTTP server on 127.0.0.1 speaking whatever wire protocol the replies spell out. */
export interface FakeServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Starts a real node:http server on an ephemeral loopback port; `reply` picks the answer per request. */
export async function startFakeServer(reply: (request: RecordedRequest) => FakeReply): Promise<FakeServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        path: req.url ?? '',
        headers: req.headers,
        body: text === '' ? {} : (JSON.parse(text) as Record<string, unknown>),
      };
      requests.push(recorded);
      const answer = reply(recorded);
      if ('status' in answer) {
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.json));
        return;
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      // Each event is its own write, so clients really see a chunked stream.
      for (const event of answer.sse) {
        const head = event.event === undefined ? '' : `event: ${event.event}\n`;
        res.write(`${head}data: ${JSON.stringify(event.data)}\n\n`);
      }
      if (answer.done !== false) res.write('data: [DONE]\n\n');
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
