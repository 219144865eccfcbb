import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { serverEnv, startOpenAIServer } from '../../cli/test/chat-server.ts';
import { launch, SCREENSHOT_DIR, watch } from './browser.ts';
import { freshDatabase, startInstance, untilStored } from './instances.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/**
 * A reverse proxy on loopback in front of the instances, as a load balancer would be: it forwards each request to
 * the current upstream with the upstream's own Host and Origin (as `proxy_set_header` does), and can drop every open
 * connection and switch the upstream.
 */
async function balancer(first: string) {
  let upstream = new URL(first);
  const sockets = new Set<Socket>();
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const target = upstream;
    const headers = { ...req.headers, host: target.host };
    if (headers.origin !== undefined) headers.origin = target.origin;
    const out = httpRequest(
      { host: target.hostname, port: target.port, path: req.url, method: req.method, headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** Drops every open connection (the page's stream too) and sends what comes next to `next`. */
    dropAndSwitch(next: string) {
      upstream = new URL(next);
      for (const s of sockets) s.destroy();
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of sockets) s.destroy();
        server.close(() => r());
      }),
  };
}

const WORDS = 80;
const words = Array.from({ length: WORDS }, (_, i) => `word${i} `);

describe('a page on B follows a turn running on A, in Chromium', () => {
  it('shows the text growing before the step ends; dropped and sent to A, it reconnects with no text twice', async () => {
    const work = await mkdtemp(join(tmpdir(), 'codeagent-web-follow-'));
    // About 6 seconds of text: long enough to watch it grow, drop the connection and come back mid-turn.
    const server = await startOpenAIServer({ replies: () => ({ text: words, delayMs: 75 }) });
    cleanups.push(async () => {
      await server.close();
      await rm(work, { recursive: true, force: true });
    });
    const url = await freshDatabase();
    const env = {
      ...serverEnv(server, work),
      CODEAGENT_DATABASE_URL: url,
      CODEAGENT_HOME: join(work, '.home'),
    };
    const a = await startInstance(env, work);
    cleanups.push(() => a.stop());
    const b = await startInstance(env, work);
    cleanups.push(() => b.stop());
    const { context, close } = await launch();
    cleanups.push(close);

    // The turn runs on A (started by another client of A).
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const onA = fetch(`${a.origin}/api/sessions/${id}/chat`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${a.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'talk slowly' }] }],
      }),
    }).then((r) => r.text());
    await untilStored(url, id, (r) => r.turn_state === 'running' && (r.ui ?? '').includes('talk slowly'));

    // The page is served through a balancer, by B first. Each instance's token cookie is set once (cookies are per
    // host, not per port), as a deployment sharing one sign-in would.
    const lb = await balancer(b.origin);
    cleanups.push(lb.close);
    const signIn = await context.newPage();
    await signIn.goto(a.url);
    await signIn.goto(b.url);
    await signIn.close();
    const page = await context.newPage();
    const seen = await watch(page, lb.origin);
    const streams: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/stream')) streams.push(r.url());
    });
    await page.goto(`${lb.origin}/s/${id}`);
    const transcript = page.getByTestId('transcript');
    const words_ = async () => ((await transcript.textContent()) ?? '').match(/word\d+/g) ?? [];
    // The text grows on B while the model still streams on A: several samples, each longer, none complete.
    const lengths: number[] = [];
    const deadline = Date.now() + 20_000;
    while (lengths.length < 4 && Date.now() < deadline) {
      const n = (await words_()).length;
      if (n > 0 && n < WORDS && n > (lengths.at(-1) ?? 0)) lengths.push(n);
      await page.waitForTimeout(150);
    }
    expect(lengths.length).toBe(4);
    expect(lengths.at(-1)).toBeLessThan(WORDS);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'follow-on-b-growing.png') });

    // The connection drops mid-turn; the balancer sends what comes next to A, which runs the turn.
    lb.dropAndSwitch(a.origin);
    const during = (await words_()).length;
    expect(during).toBeLessThan(WORDS);
    // The page reconnects by itself and follows the turn to its end: every word exactly once.
    await expect.poll(async () => (await words_()).length, { timeout: 30_000 }).toBe(WORDS);
    await expect
      .poll(() => page.getByTestId('status').getAttribute('data-status'), { timeout: 30_000 })
      .toBe('ready');
    const final = await words_();
    expect(final).toEqual(words.map((w) => w.trim()));
    expect(streams.length).toBeGreaterThanOrEqual(2);
    await page.screenshot({ path: join(SCREENSHOT_DIR, 'follow-on-b-reconnected.png') });
    expect(seen.errors).toEqual([]);
    expect(seen.dialogs).toEqual([]);
    expect(seen.foreignRequests).toEqual([]);
    await onA;
  }, 120_000);
});
