import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatReply, serverEnv, startOpenAIServer } from '../../cli/test/chat-server.ts';
import { freshDatabase, type Instance, startInstance, untilStored } from './instances.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** One Server-Sent Event of a response: its `id` (the log position, when it has one), its chunk, when it came. */
interface Sse {
  readonly id: number | null;
  readonly chunk: { type: string } & Record<string, unknown>;
  readonly at: number;
}

/** Reads an SSE response as it arrives; `onEvent` may return true to stop reading (the connection is dropped). */
async function readSse(res: Response, onEvent?: (e: Sse, all: Sse[]) => boolean): Promise<Sse[]> {
  const out: Sse[] = [];
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return out;
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      let id: number | null = null;
      let data = '';
      for (const line of block.split('\n')) {
        if (line.startsWith('id: ')) id = Number(line.slice(4));
        if (line.startsWith('data: ')) data += line.slice(6);
      }
      if (data === '' || data === '[DONE]') continue;
      const e = { id, chunk: JSON.parse(data), at: performance.now() };
      out.push(e);
      if (onEvent?.(e, out)) {
        await reader.cancel();
        return out;
      }
    }
  }
}

const headersOf = (i: Instance, extra: Record<string, string> = {}) => ({
  Authorization: `Bearer ${i.token}`,
  'Content-Type': 'application/json',
  ...extra,
});

/** Starts a turn on `host` and reads its response in the background. */
function startTurn(host: Instance, id: string, text: string): Promise<Sse[]> {
  return fetch(`${host.origin}/api/sessions/${id}/chat`, {
    method: 'POST',
    headers: headersOf(host),
    body: JSON.stringify({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text }] }] }),
  }).then((res) => readSse(res));
}

/** Follows the running turn of `id` from `host` (after `cursor` when given). */
async function follow(
  host: Instance,
  id: string,
  options: { lastEventId?: number; query?: string; stopWhen?: (e: Sse, all: Sse[]) => boolean } = {},
): Promise<Sse[]> {
  const res = await fetch(`${host.origin}/api/sessions/${id}/stream${options.query ?? ''}`, {
    headers: headersOf(
      host,
      options.lastEventId === undefined ? {} : { 'Last-Event-ID': String(options.lastEventId) },
    ),
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toContain('text/event-stream');
  return readSse(res, options.stopWhen);
}

const textOf = (events: readonly Sse[]) =>
  events
    .filter((e) => e.chunk.type === 'text-delta')
    .map((e) => e.chunk.delta as string)
    .join('');

async function twoInstances(replies: (body: { messages?: Array<{ role: string }> }) => ChatReply) {
  const work = await mkdtemp(join(tmpdir(), 'codeagent-web-follow-'));
  await writeFile(join(work, 'facts.txt'), 'the sky is green here\n');
  const server = await startOpenAIServer({ replies: (request) => replies(request.body) });
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
  return { a, b, url, work };
}

const words = (n: number) => Array.from({ length: n }, (_, i) => `w${i} `);

describe('following a turn from another instance, delta by delta', () => {
  it('B streams the text deltas, the tool card and its live output as A runs them, in order', async () => {
    const { a, b, url } = await twoInstances((body) =>
      (body.messages ?? []).some((m) => m.role === 'tool')
        ? { text: words(30), delayMs: 40 }
        : {
            tools: [{ name: 'Bash', args: { command: 'for i in 1 2 3 4; do echo line$i; sleep 0.3; done' } }],
          },
    );
    const id = (await a.api('POST', '/api/sessions', { mode: 'bypass' })).json.id as string;
    const onA = startTurn(a, id, 'run the loop, then talk');
    await untilStored(url, id, (r) => r.turn_state === 'running');
    const onB = await follow(b, id);
    const fromA = await onA;
    // B replays the turn from its first event, then follows it: the same text, the same end.
    expect(onB[0]).toMatchObject({ id: 0, chunk: { type: 'start', messageId: expect.any(String) } });
    expect(textOf(onB)).toBe(words(30).join(''));
    expect(textOf(onB)).toBe(textOf(fromA));
    expect(onB.at(-1)?.chunk.type).toBe('finish');
    // Positions only grow (merged deltas carry the last position they hold).
    const ids = onB.map((e) => e.id).filter((x): x is number => x !== null);
    expect(ids).toEqual([...ids].sort((x, y) => x - y));
    expect(new Set(ids).size).toBe(ids.length);
    // The text grew on B while A streamed it: many deltas, spread over time, the first long before A's finish.
    const deltas = onB.filter((e) => e.chunk.type === 'text-delta');
    expect(deltas.length).toBeGreaterThanOrEqual(5);
    const finishedOnA = fromA.at(-1)?.at as number;
    expect((deltas.at(-1)?.at as number) - (deltas[0]?.at as number)).toBeGreaterThan(400);
    expect(finishedOnA - (deltas[0]?.at as number)).toBeGreaterThan(400);
    // The Bash card: its input, its live output as it grew, then its result, in the order A sent them.
    const bash = (events: readonly Sse[]) =>
      events
        .filter((e) => e.chunk.type.startsWith('tool-'))
        .map((e) =>
          e.chunk.type === 'tool-output-available' && e.chunk.preliminary === true ? 'live' : e.chunk.type,
        );
    const calls = bash(onB);
    expect(calls[0]).toBe('tool-input-available');
    expect(calls.at(-1)).toBe('tool-output-available');
    expect(calls.filter((c) => c === 'live').length).toBeGreaterThanOrEqual(2);
    expect(calls.slice(1, -1).every((c) => c === 'live')).toBe(true);
    const live = onB.filter((e) => e.chunk.preliminary === true).map((e) => JSON.stringify(e.chunk.output));
    expect(live.at(-1)).toMatch(/line[34]/);
    expect(bash(fromA)[0]).toBe('tool-input-available');
  }, 60_000);

  it('a follower dropped mid-turn resumes on the other instance after the last event it saw: nothing lost, nothing twice', async () => {
    const { a, b } = await twoInstances(() => ({ text: words(60), delayMs: 30 }));
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const onA = startTurn(a, id, 'talk');
    // Wait for the turn's log to begin (B then follows it).
    let first: Sse[] = [];
    for (let tries = 0; tries < 100; tries++) {
      const res = await fetch(`${b.origin}/api/sessions/${id}/stream`, { headers: headersOf(b) });
      if (res.status === 200) {
        first = await readSse(res, (_e, all) => all.filter((x) => x.chunk.type === 'text-delta').length >= 5);
        break;
      }
      await new Promise((r) => setTimeout(r, 50));
    }
    const seen = first.at(-1)?.id as number;
    expect(seen).toBeGreaterThan(0);
    // The page comes back on A (the load balancer chose it) naming the last event it saw.
    const rest = await follow(a, id, { lastEventId: seen });
    expect(rest[0]).toMatchObject({
      id: null,
      chunk: { type: 'start', messageId: first[0]?.chunk.messageId },
    });
    const restIds = rest.map((e) => e.id).filter((x): x is number => x !== null);
    expect(Math.min(...restIds)).toBe(seen + 1);
    expect(textOf(first) + textOf(rest)).toBe(words(60).join(''));
    expect(rest.at(-1)?.chunk.type).toBe('finish');
    await onA;
    // A client that comes back just after the end (the log is kept a minute) still reads the rest to the finish.
    const late = await follow(b, id, { query: `?after=${seen}` });
    expect(textOf(first) + textOf(late)).toBe(words(60).join(''));
    expect(late.at(-1)?.chunk.type).toBe('finish');
    // A session that never ran a turn has nothing to resume.
    const fresh = (await b.api('POST', '/api/sessions', {})).json.id as string;
    const none = await fetch(`${b.origin}/api/sessions/${fresh}/stream`, { headers: headersOf(b) });
    expect(none.status).toBe(204);
  }, 60_000);

  it('`?after=` resumes the same way, and a hostile cursor replays from the start', async () => {
    const { a, b } = await twoInstances(() => ({ text: words(40), delayMs: 30 }));
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const onA = startTurn(a, id, 'talk');
    let head: Sse[] = [];
    for (let tries = 0; tries < 100 && head.length === 0; tries++) {
      const res = await fetch(`${b.origin}/api/sessions/${id}/stream`, { headers: headersOf(b) });
      if (res.status === 200)
        head = await readSse(res, (_e, all) => all.filter((x) => x.chunk.type === 'text-delta').length >= 3);
      else await new Promise((r) => setTimeout(r, 50));
    }
    const seen = head.at(-1)?.id as number;
    const [viaQuery, hostile] = await Promise.all([
      follow(b, id, { query: `?after=${seen}` }),
      follow(b, id, { query: '?after=1e999', lastEventId: Number.NaN }),
    ]);
    expect(textOf(head) + textOf(viaQuery)).toBe(words(40).join(''));
    expect(hostile[0]).toMatchObject({ id: 0, chunk: { type: 'start' } });
    expect(textOf(hostile)).toBe(words(40).join(''));
    await onA;
  }, 60_000);

  it('kill -9 of A while B follows: B ends its response with the turn interrupted', async () => {
    let stalled = false;
    const { a, b } = await twoInstances(() => {
      stalled = true;
      return { stallAfter: 'Thinking about it' };
    });
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    void startTurn(a, id, 'think').catch(() => undefined);
    await expect.poll(() => stalled, { timeout: 20_000 }).toBe(true);
    const followed = follow(b, id);
    await new Promise((r) => setTimeout(r, 500));
    a.child.kill('SIGKILL');
    const events = await followed;
    expect(textOf(events)).toBe('Thinking about it');
    expect(events.at(-1)?.chunk).toMatchObject({
      type: 'finish',
      messageMetadata: { stopReason: 'interrupted', awaitingApproval: false },
    });
  }, 60_000);

  it('a finished turn keeps its live log for a while, the next turn drops it; the stored history is the record', async () => {
    const { a, b, url } = await twoInstances((body) => ({
      text: [`answer ${(body.messages ?? []).length}`],
    }));
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    await startTurn(a, id, 'one');
    await untilStored(url, id, (r) => r.turn_state === 'done');
    const count = async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        const r = await c.query(
          'SELECT turn_id, count(*)::int AS n FROM codeagent_events WHERE session_id = $1 GROUP BY turn_id',
          [id],
        );
        return r.rows as Array<{ turn_id: string; n: number }>;
      } finally {
        await c.end();
      }
    };
    const firstTurn = await count();
    expect(firstTurn).toHaveLength(1);
    expect(firstTurn[0]?.n).toBeGreaterThan(2);
    const opened = (await b.api('GET', `/api/sessions/${id}`)).json;
    await b.send(id, [
      ...opened.messages,
      { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'two' }] },
    ]);
    await untilStored(url, id, (r) => r.turn_state === 'done');
    const secondTurn = await count();
    expect(secondTurn).toHaveLength(1);
    expect(secondTurn[0]?.turn_id).not.toBe(firstTurn[0]?.turn_id);
    const history = (await a.api('GET', `/api/sessions/${id}`)).json.messages;
    expect(history).toHaveLength(4);
    expect(JSON.stringify(history[3])).toMatch(/answer \d+/);
  }, 60_000);

  it('B follows a turn up to an approval: the request shows, the response parks naming its position, B answers and streams the rest', async () => {
    const { a, b, url, work } = await twoInstances((body) =>
      (body.messages ?? []).some((m) => m.role === 'tool')
        ? { text: ['the file ', 'is written'], delayMs: 20 }
        : { tools: [{ name: 'Write', args: { file_path: 'new.txt', content: 'from A\n' } }] },
    );
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const onA = startTurn(a, id, 'write new.txt');
    await untilStored(url, id, (r) => r.pending_count === 1);
    const parked = await follow(b, id);
    const request = parked.find((e) => e.chunk.type === 'tool-approval-request');
    expect(request?.id).toEqual(expect.any(Number));
    const end = parked.at(-1);
    expect(end?.chunk).toMatchObject({ type: 'finish', messageMetadata: { awaitingApproval: true } });
    const eventSeq = ((end as Sse).chunk.messageMetadata as { eventSeq: number }).eventSeq;
    expect(eventSeq).toBe(Math.max(...parked.map((e) => e.id ?? -1)));
    await onA;
    // B's page answers with the message it built (its metadata names the position); the continuation follows.
    const message = {
      id: parked[0]?.chunk.messageId,
      role: 'assistant',
      metadata: { awaitingApproval: true, eventSeq },
      parts: [
        {
          type: 'dynamic-tool',
          toolName: 'Write',
          toolCallId: request?.chunk.toolCallId,
          state: 'approval-responded',
          input: { file_path: 'new.txt', content: 'from A\n' },
          approval: { id: request?.chunk.approvalId, approved: true },
        },
      ],
    };
    const res = await fetch(`${b.origin}/api/sessions/${id}/chat`, {
      method: 'POST',
      headers: headersOf(b),
      body: JSON.stringify({ messages: [message] }),
    });
    const rest = await readSse(res);
    expect(rest[0]?.chunk.type).toBe('start');
    expect(Math.min(...rest.map((e) => e.id ?? Number.POSITIVE_INFINITY))).toBe(eventSeq + 1);
    expect(rest.some((e) => e.chunk.type === 'tool-output-available')).toBe(true);
    expect(textOf(rest)).toBe('the file is written');
    expect(rest.some((e) => e.chunk.type === 'tool-approval-request')).toBe(false);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(join(work, 'new.txt'), 'utf8')).toBe('from A\n');
  }, 60_000);

  it('a client gone right after sending leaves the turn running: it is resumed, and the next message starts a turn', async () => {
    const { a } = await twoInstances(() => ({ text: words(20), delayMs: 30 }));
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const gone = new AbortController();
    const res = await fetch(`${a.origin}/api/sessions/${id}/chat`, {
      method: 'POST',
      headers: headersOf(a),
      body: JSON.stringify({ messages: [{ id: 'u1', role: 'user', parts: [{ type: 'text', text: 'go' }] }] }),
      signal: gone.signal,
    });
    // The first event comes before the turn's write commits; the client leaves at once.
    const first = await (res.body as ReadableStream<Uint8Array>).getReader().read();
    expect(new TextDecoder().decode(first.value)).toContain('"type":"start"');
    gone.abort();
    let resumed: Sse[] = [];
    for (let tries = 0; tries < 100 && resumed.length === 0; tries++) {
      const again = await fetch(`${a.origin}/api/sessions/${id}/stream`, { headers: headersOf(a) });
      if (again.status === 200) resumed = await readSse(again);
      else await new Promise((r) => setTimeout(r, 50));
    }
    expect(textOf(resumed)).toBe(words(20).join(''));
    const next = await a.send(id, [{ id: 'u2', role: 'user', parts: [{ type: 'text', text: 'again' }] }]);
    expect(JSON.stringify(next.parts)).toContain('w19');
  }, 60_000);
});
