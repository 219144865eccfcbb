import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import Database from 'better-sqlite3';
import pg from 'pg';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, serverEnv, startOpenAIServer } from '../../cli/test/chat-server.ts';
import { freshDatabase, type Instance, startInstance, untilStored } from './instances.ts';

/*
 * A turn parked on an approval outlives the server that ran it (ADR 0210): after a restart (SQLite) or on another
 * instance once its owner died (PostgreSQL), the approval is still waiting, and answering it continues that very turn
 * (the stored call runs, its result goes to the model, the turn finishes). One instance, never two, runs the tool.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

/** The model: a Bash call that appends to ran.log (asks in default mode), then a final text naming the result. */
function replies(command = 'echo ran >> ran.log') {
  return (request: OpenAIServer['requests'][number]) => {
    const tool = (request.body.messages ?? []).find((m) => m.role === 'tool');
    if (!tool) return { tools: [{ name: 'Bash', args: { command } }] };
    return { text: `finished after the tool said ${JSON.stringify(tool.content).slice(0, 200)}` };
  };
}

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function workspace(reply: ReturnType<typeof replies>) {
  const work = await mkdtemp(join(tmpdir(), 'codeagent-web-parked-'));
  await writeFile(join(work, 'notes.txt'), 'hello\n');
  const server = await startOpenAIServer({ replies: reply });
  cleanups.push(async () => {
    await server.close();
    await rm(work, { recursive: true, force: true });
  });
  return { work, server, env: { ...serverEnv(server, work), CODEAGENT_HOME: join(work, '.home') } };
}

async function start(env: Record<string, string>, work: string): Promise<Instance> {
  const i = await startInstance(env, work);
  cleanups.push(() => i.stop());
  return i;
}

async function kill9(i: Instance): Promise<void> {
  i.child.kill('SIGKILL');
  await new Promise((r) =>
    i.child.exitCode !== null || i.child.signalCode !== null ? r(null) : i.child.once('exit', r),
  );
}

/** The assistant message as a page shows it, with every waiting approval answered as `addToolApprovalResponse` does. */
function answered(message: UIMessage, approved = true): UIMessage {
  const copy = structuredClone(message);
  for (const p of copy.parts)
    if (p.type === 'dynamic-tool' && p.state === 'approval-requested')
      Object.assign(p, { state: 'approval-responded', approval: { id: p.approval.id, approved } });
  return copy;
}

const states = (m: { parts: Array<{ type: string; state?: string }> }) =>
  m.parts.filter((p) => p.type === 'dynamic-tool').map((p) => p.state);

const ranCount = async (work: string) =>
  (await readFile(join(work, 'ran.log'), 'utf8').catch(() => '')).split('\n').filter((l) => l === 'ran')
    .length;

/** Starts a turn on `i` that parks on the Bash approval, and waits until the park is stored. */
async function parkOn(
  i: Instance,
  stored: (id: string) => Promise<boolean>,
): Promise<{ id: string; u: UIMessage }> {
  const id = (await i.api('POST', '/api/sessions', {})).json.id as string;
  const u = user('u1', 'append to ran.log');
  const parked = await i.send(id, [u]);
  expect(states(parked)).toEqual(['approval-requested']);
  expect(
    await until(
      () => stored(id),
      (v) => v,
    ),
  ).toBe(true);
  return { id, u };
}

describe('a turn parked on an approval survives its server', () => {
  it('SQLite: kill -9 and restart; the approval still waits; approving runs the stored call and finishes the turn', async () => {
    const { work, server, env } = await workspace(replies());
    const a = await start(env, work);
    const db = join(work, '.home', 'web', 'sessions.db');
    const parkStored = async () => {
      const d = new Database(db, { readonly: true, fileMustExist: true });
      try {
        const steps = d.prepare('SELECT data FROM codeagent_steps').all() as Array<{ data: string }>;
        const row = d.prepare('SELECT pending_count FROM codeagent_sessions').get() as {
          pending_count: number;
        };
        return row.pending_count === 1 && steps.some((s) => s.data.includes('"parked"'));
      } finally {
        d.close();
      }
    };
    const { id, u } = await parkOn(a, parkStored);
    await kill9(a);

    const again = await start(env, work);
    const opened = (await again.api('GET', `/api/sessions/${id}`)).json;
    // Waiting, not denied; nothing runs until the answer.
    expect(opened).toMatchObject({ busy: false, turnState: 'running' });
    expect(opened.pending).toHaveLength(1);
    const last = opened.messages.at(-1) as UIMessage;
    expect(states(last)).toEqual(['approval-requested']);
    expect((last.metadata as { awaitingApproval?: boolean }).awaitingApproval).toBe(true);
    expect(await ranCount(work)).toBe(0);
    const requestsBefore = server.requests.length;

    const done = await again.send(id, [u, answered(last)]);
    expect(states(done)).toEqual(['output-available']);
    expect(JSON.stringify(done.parts)).toContain('finished after the tool said');
    expect((done.metadata as { stopReason?: string }).stopReason).toBe('completed');
    expect(await ranCount(work)).toBe(1);
    // The model was asked once more, with the stored call and its result.
    expect(server.requests.length).toBe(requestsBefore + 1);
    const sent = JSON.stringify(server.requests.at(-1)?.body.messages);
    expect(sent).toContain('append to ran.log');
    expect(sent).toContain('echo ran >> ran.log');
    const listed = await until(
      () => again.api('GET', '/api/sessions'),
      (r) => r.json?.[0]?.turnState === 'done',
    );
    expect(listed.json[0].turnState).toBe('done');
    // A reload shows the finished turn, and it stays one turn of one assistant message.
    const reloaded = (await again.api('GET', `/api/sessions/${id}`)).json;
    expect(reloaded.messages.map((m: UIMessage) => m.role)).toEqual(['user', 'assistant']);
    expect(states(reloaded.messages[1])).toEqual(['output-available']);
  }, 90_000);

  it('SQLite: denying after the restart runs nothing and the turn still finishes', async () => {
    const { work, env } = await workspace(replies());
    const a = await start(env, work);
    const db = join(work, '.home', 'web', 'sessions.db');
    const parkStored = async () => {
      const d = new Database(db, { readonly: true, fileMustExist: true });
      try {
        return (d.prepare('SELECT count(*) AS n FROM codeagent_steps').get() as { n: number }).n === 1;
      } finally {
        d.close();
      }
    };
    const { id, u } = await parkOn(a, parkStored);
    await kill9(a);
    const again = await start(env, work);
    const last = (await again.api('GET', `/api/sessions/${id}`)).json.messages.at(-1) as UIMessage;
    const done = await again.send(id, [u, answered(last, false)]);
    expect(states(done)).toEqual(['output-denied']);
    expect(JSON.stringify(done.parts)).toContain('finished after the tool said');
    expect(await ranCount(work)).toBe(0);
  }, 90_000);

  it('SQLite: after the restart, Stop or a new message gives the parked turn up: denied, nothing runs', async () => {
    const { work, env, server } = await workspace(replies());
    const a = await start(env, work);
    const db = join(work, '.home', 'web', 'sessions.db');
    const parkStored = async () => {
      const d = new Database(db, { readonly: true, fileMustExist: true });
      try {
        return (d.prepare('SELECT count(*) AS n FROM codeagent_steps').get() as { n: number }).n >= 1;
      } finally {
        d.close();
      }
    };
    const stopped = await parkOn(a, parkStored);
    const replaced = await parkOn(a, parkStored);
    await kill9(a);
    const again = await start(env, work);
    // Stop.
    expect((await again.api('POST', `/api/sessions/${stopped.id}/abort`, {})).status).toBe(200);
    const afterStop = (await again.api('GET', `/api/sessions/${stopped.id}`)).json;
    expect(afterStop).toMatchObject({ turnState: 'interrupted', busy: false, pending: [] });
    expect(states(afterStop.messages.at(-1))).toEqual(['output-denied']);
    // A new message: the parked turn is denied and ended, the new one runs.
    const before = (await again.api('GET', `/api/sessions/${replaced.id}`)).json;
    const next = await again.send(replaced.id, [...before.messages, user('u2', 'never mind, say hi')]);
    expect(states(next)).toEqual(['approval-requested']);
    const after = (await again.api('GET', `/api/sessions/${replaced.id}`)).json;
    expect(states(after.messages[1])).toEqual(['output-denied']);
    expect(after.messages.map((m: UIMessage) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    // The model saw the first request of the given-up turn, not a result for its call.
    expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain('never mind, say hi');
    expect(await ranCount(work)).toBe(0);
  }, 90_000);

  it('SQLite: a turn killed while its approved command runs is interrupted after the restart, never asked or run again', async () => {
    const { work, env } = await workspace(replies('echo ran >> ran.log; sleep 30'));
    const a = await start(env, work);
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const u = user('u1', 'append to ran.log');
    const parked = await a.send(id, [u]);
    void a.send(id, [u, answered(parked)]).catch(() => undefined);
    await until(
      () => ranCount(work),
      (n) => n === 1,
    );
    await kill9(a);
    const again = await start(env, work);
    const opened = await until(
      () => again.api('GET', `/api/sessions/${id}`),
      (r) => r.json?.turnState === 'interrupted',
    );
    expect(opened.json.turnState).toBe('interrupted');
    expect(opened.json.pending).toEqual([]);
    expect(states(opened.json.messages.at(-1)).includes('approval-requested')).toBe(false);
    expect(await ranCount(work)).toBe(1);
  }, 90_000);

  it('PostgreSQL: A dies parked; B and C answer at once; exactly one runs the tool and both pages see the turn finish', async () => {
    const { work, env: base } = await workspace(replies());
    const url = await freshDatabase();
    const env = { ...base, CODEAGENT_DATABASE_URL: url };
    const a = await start(env, work);
    const { id, u } = await parkOn(a, async (sid) => {
      await untilStored(url, sid, (r) => r.pending_count === 1 && r.steps === 1);
      return true;
    });
    await kill9(a);
    const b = await start(env, work);
    const c = await start(env, work);
    // Both show the approval waiting (A is gone: nobody runs the turn, nobody denied it).
    const onB = await until(
      () => b.api('GET', `/api/sessions/${id}`),
      (r) => r.json?.busy === false,
    );
    const onC = (await c.api('GET', `/api/sessions/${id}`)).json;
    for (const o of [onB.json, onC]) {
      expect(o.remote).toBeUndefined();
      expect(states(o.messages.at(-1))).toEqual(['approval-requested']);
    }
    const [fromB, fromC] = await Promise.all([
      b.send(id, [u, answered(onB.json.messages.at(-1))]),
      c.send(id, [u, answered(onC.messages.at(-1))]),
    ]);
    expect(await ranCount(work)).toBe(1);
    for (const m of [fromB, fromC]) {
      expect(states(m)).toEqual(['output-available']);
      expect(JSON.stringify(m.parts)).toContain('finished after the tool said');
    }
    const stored = await until(
      () => b.api('GET', `/api/sessions/${id}`),
      (r) => r.json?.turnState === 'done',
    );
    expect(stored.json.turnState).toBe('done');
    expect(await ranCount(work)).toBe(1);
  }, 120_000);

  it('PostgreSQL: a stored call altered after it was asked is not continued: the turn shows interrupted, nothing runs', async () => {
    const { work, env: base } = await workspace(replies());
    const url = await freshDatabase();
    const env = { ...base, CODEAGENT_DATABASE_URL: url };
    const a = await start(env, work);
    const { id } = await parkOn(a, async (sid) => {
      await untilStored(url, sid, (r) => r.pending_count === 1 && r.steps === 1);
      return true;
    });
    await kill9(a);
    // Someone with the database rewrites the parked call's command (not what the page showed and the user approves).
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(
      "UPDATE codeagent_steps SET data = replace(data, 'echo ran >> ran.log', 'echo pwned >> ran.log') WHERE session_id = $1",
      [id],
    );
    await client.end();
    const b = await start(env, work);
    const opened = await until(
      () => b.api('GET', `/api/sessions/${id}`),
      (r) => r.json?.turnState === 'interrupted',
    );
    expect(opened.json.turnState).toBe('interrupted');
    expect(states(opened.json.messages.at(-1))).toEqual(['output-denied']);
    expect(await readFile(join(work, 'ran.log'), 'utf8').catch(() => '')).toBe('');
  }, 90_000);
});
