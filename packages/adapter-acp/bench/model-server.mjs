// A loopback OpenAI-compatible chat server for the latency bench: streams a short answer, recording
// (on this process's clock) when the first content delta is written.
import { createServer } from 'node:http';

/** Starts the server on 127.0.0.1:0; `firstDeltaAt` holds one `performance.now()` per request. */
export async function startModelServer() {
  const firstDeltaAt = [];
  let seq = 0;
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({
      id: `c${++seq}`,
      object: 'chat.completion.chunk',
      created: 1,
      model: 'bench',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: '' }));
      firstDeltaAt.push(performance.now());
      res.write(chunk({ content: 'Hello' }));
      for (let i = 0; i < 20; i++) res.write(chunk({ content: ' world' }));
      res.write(chunk({}, 'stop'));
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    baseURL: `http://127.0.0.1:${server.address().port}/v1`,
    firstDeltaAt,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  };
}
