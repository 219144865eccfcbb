import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, serverEnv, startOpenAIServer } from '../../cli/test/chat-server.ts';
import {
  killPostgres,
  startAgain,
  startPostgres,
  stopPostgres,
} from '../../../scripts/postgres-test-server.mjs';
import { freshDatabase, startInstance, untilStored } from './instances.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const lastUserText = (body: OpenAIServer['requests'][number]['body']) => {
  const users = (body.messages ?? []).filter((m) => m.role === 'user');
  return JSON.stringify(users.at(-1)?.content ?? '');
};

/** Two instances of the built web host on one fresh PostgreSQL database, one loopback model server. */
async function twoInstances(replies: Parameters<typeof startOpenAIServer>[0]['replies']) {
  const work = await mkdtemp(join(tmpdir(), 'codeagent-web-multi-'));
  await writeFile(join(work, 'facts.txt'), 'the sky is green here\n');
  const server = await startOpenAIServer({ replies });
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
  return { a, b, server, work, url };
}

const user = (id: string, text: string): UIMessage => ({ id, role: 'user', parts: [{ type: 'text', text }] });

async function until<T>(what: () => Promise<T>, ok: (v: T) => boolean, ms = 20_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = await what();
    if (ok(v) || Date.now() > deadline) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe('two web host instances on one PostgreSQL database', () => {
  it('a session started on A is listed, opened and continued on B, with the whole conversation', async () => {
    const { a, b, server } = await twoInstances((request) => ({
      text: `answer to ${lastUserText(request.body)} after ${request.body.messages?.length} messages`,
    }));
    expect(a.output()).toContain('sessions in postgres');
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const first = await a.send(id, [user('u1', 'first question')]);
    expect(JSON.stringify(first.parts)).toContain('answer to \\"first question\\"');
    // B lists it (named by its first message) and opens it with A's history.
    const listed = await until(
      () => b.api('GET', '/api/sessions'),
      (r) => r.json?.[0]?.turnState === 'done',
    );
    expect(listed.json.map((s: { id: string; title: string }) => [s.id, s.title])).toEqual([
      [id, 'first question'],
    ]);
    const opened = (await b.api('GET', `/api/sessions/${id}`)).json;
    expect(opened.messages).toHaveLength(2);
    // B continues it: the model sees the first exchange too.
    const second = await b.send(id, [...opened.messages, user('u2', 'second question')]);
    expect(JSON.stringify(second.parts)).toContain('answer to \\"second question\\"');
    const sent = JSON.stringify(server.requests.at(-1)?.body.messages);
    expect(sent).toContain('first question');
    expect(sent).toContain('second question');
    // And A sees B's turn: the session changed elsewhere is read again from the database.
    const back = await until(
      () => a.api('GET', `/api/sessions/${id}`),
      (r) => r.json?.messages?.length === 4,
    );
    expect(back.json.messages).toHaveLength(4);
    // A rename on B shows on A.
    await b.api('PATCH', `/api/sessions/${id}`, { title: 'Renamed on B' });
    expect((await a.api('GET', '/api/sessions')).json[0].title).toBe('Renamed on B');
  }, 60_000);

  it('an approval requested on A is granted from B: the answer reaches A through the database, B streams the rest', async () => {
    const { a, b, work, url } = await twoInstances((request) => {
      const tools = (request.body.messages ?? []).filter((m) => m.role === 'tool').length;
      if (tools === 0)
        return { tools: [{ name: 'Write', args: { file_path: 'new.txt', content: 'written on A\n' } }] };
      return { text: 'the file is written' };
    });
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const u = user('u1', 'write new.txt');
    const parked = await a.send(id, [u]);
    const waiting = parked.parts.filter((p) => p.type === 'dynamic-tool' && p.state === 'approval-requested');
    expect(waiting).toHaveLength(1);
    await untilStored(url, id, (r) => r.pending_count === 1);
    // B shows the waiting approval from storage (the turn runs on A).
    const onB = (await b.api('GET', `/api/sessions/${id}`)).json;
    expect(onB).toMatchObject({ remote: true, busy: true });
    expect(onB.pending).toHaveLength(1);
    const stored = onB.messages.at(-1);
    expect(stored.parts.some((p: { state?: string }) => p.state === 'approval-requested')).toBe(true);
    // B's page answers, as addToolApprovalResponse marks the part.
    const answered = structuredClone(stored) as UIMessage;
    for (const p of answered.parts)
      if (p.type === 'dynamic-tool' && p.state === 'approval-requested')
        Object.assign(p, { state: 'approval-responded', approval: { id: p.approval.id, approved: true } });
    const done = await b.send(id, [u, answered]);
    const write = done.parts.find((p) => p.type === 'dynamic-tool' && p.toolName === 'Write');
    expect(write?.type === 'dynamic-tool' && write.state).toBe('output-available');
    expect(JSON.stringify(done.parts)).toContain('the file is written');
    expect(await readFile(join(work, 'new.txt'), 'utf8')).toBe('written on A\n');
    const listed = await until(
      () => b.api('GET', '/api/sessions'),
      (r) => r.json?.[0]?.turnState === 'done',
    );
    expect(listed.json[0].turnState).toBe('done');
  }, 60_000);

  it('kill -9 of A mid-turn: B opens the session with every completed step and the turn marked interrupted', async () => {
    let stalled = false;
    const { a, b, server, url } = await twoInstances((request) => {
      const text = lastUserText(request.body);
      if (text.includes('read facts')) {
        const results = (request.body.messages ?? []).filter((m) => m.role === 'tool').length;
        if (results === 0) return { tools: [{ name: 'Read', args: { file_path: 'facts.txt' } }] };
        stalled = true;
        return { stallAfter: 'Thinking about' };
      }
      return { text: `continued with ${request.body.messages?.length} messages` };
    });
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    // Start the turn on A and leave its response open (it streams until A dies).
    void a.send(id, [user('u1', 'read facts.txt')]).catch(() => undefined);
    await until(
      async () => stalled,
      (v) => v,
    );
    // Killed once its completed step is stored (what "everything up to the last step" is).
    await untilStored(url, id, (r) => r.steps === 1 && (r.ui ?? '').includes('output-available'));
    // While A runs the turn, B shows it running there and refuses a second turn.
    const during = (await b.api('GET', `/api/sessions/${id}`)).json;
    expect(during).toMatchObject({ remote: true, busy: true, turnState: 'running' });
    expect((await b.api('POST', `/api/sessions/${id}/chat`, { messages: [user('x', 'hi')] })).status).toBe(
      409,
    );
    a.child.kill('SIGKILL');
    await new Promise((r) => a.child.once('exit', r));
    const after = await until(
      () => b.api('GET', `/api/sessions/${id}`),
      (r) => r.json?.turnState === 'interrupted',
    );
    expect(after.json.turnState).toBe('interrupted');
    const assistant = after.json.messages.at(-1);
    expect(assistant.metadata.stopReason).toBe('interrupted');
    const read = assistant.parts.find((p: { toolName?: string }) => p.toolName === 'Read');
    expect(read.state).toBe('output-available');
    expect(JSON.stringify(read.output)).toContain('the sky is green here');
    // The next turn on B sends the model the interrupted turn's completed step.
    const next = await b.send(id, [...after.json.messages, user('u2', 'go on')]);
    expect(JSON.stringify(next.parts)).toContain('continued with');
    const sent = JSON.stringify(server.requests.at(-1)?.body.messages);
    expect(sent).toContain('read facts.txt');
    expect(sent).toContain('the sky is green here');
    expect(sent).toContain('go on');
    const listed = await until(
      () => b.api('GET', '/api/sessions'),
      (r) => r.json?.[0]?.turnState === 'done',
    );
    expect(listed.json[0].turnState).toBe('done');
  }, 60_000);

  it('the database restarted mid-turn: the host reconnects and nothing is lost', async () => {
    // A server of its own: the other tests' server keeps running.
    const db = await startPostgres();
    cleanups.push(async () => stopPostgres(db));
    let second = false;
    const work = await mkdtemp(join(tmpdir(), 'codeagent-web-multi-'));
    await writeFile(join(work, 'facts.txt'), 'the sky is green here\n');
    const server = await startOpenAIServer({
      replies: (request) => {
        if (!(request.body.messages ?? []).some((m) => m.role === 'tool'))
          return { tools: [{ name: 'Read', args: { file_path: 'facts.txt' } }] };
        second = true;
        return { text: ['after the restart: ', 'the sky is green'], delayMs: 2500 };
      },
    });
    cleanups.push(async () => {
      await server.close();
      await rm(work, { recursive: true, force: true });
    });
    const env = {
      ...serverEnv(server, work),
      CODEAGENT_DATABASE_URL: db.url,
      CODEAGENT_HOME: join(work, '.home'),
    };
    const a = await startInstance(env, work);
    cleanups.push(() => a.stop());
    const id = (await a.api('POST', '/api/sessions', {})).json.id as string;
    const turn = a.send(id, [user('u1', 'read facts.txt')]);
    await until(
      async () => second,
      (v) => v,
    );
    killPostgres(db);
    await new Promise((r) => setTimeout(r, 800));
    startAgain(db);
    const message = await turn;
    expect(JSON.stringify(message.parts)).toContain('after the restart: the sky is green');
    // Everything is in the database: a fresh instance reads the whole turn.
    const b = await startInstance(env, work);
    cleanups.push(() => b.stop());
    const stored = await until(
      () => b.api('GET', `/api/sessions/${id}`),
      (r) => r.json?.turnState === 'done',
    );
    expect(stored.json.turnState).toBe('done');
    const parts = JSON.stringify(stored.json.messages);
    expect(parts).toContain('the sky is green here');
    expect(parts).toContain('after the restart: the sky is green');
  }, 60_000);

  it('refuses to start on an unreachable database, and on one newer than the code, with a clear message', async () => {
    const work = await mkdtemp(join(tmpdir(), 'codeagent-web-multi-'));
    cleanups.push(() => rm(work, { recursive: true, force: true }));
    const env = {
      CODEAGENT_HOME: join(work, '.home'),
      CODEAGENT_DATABASE_URL: 'postgres://me:hush@127.0.0.1:9/db',
    };
    await expect(startInstance(env, work)).rejects.toThrow(
      /cannot use PostgreSQL at postgres:\/\/me:\*\*\*@127\.0\.0\.1:9\/db: .*ECONNREFUSED/,
    );
    const url = await freshDatabase();
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: url });
    await c.connect();
    await c.query(
      "CREATE TABLE codeagent_schema (version INTEGER PRIMARY KEY, name TEXT NOT NULL, state TEXT NOT NULL, applied_at TEXT NOT NULL); INSERT INTO codeagent_schema VALUES (1, 'sessions and steps', 'applying', 'x')",
    );
    await c.end();
    await expect(startInstance({ ...env, CODEAGENT_DATABASE_URL: url }, work)).rejects.toThrow(
      /schema migration 1 \("sessions and steps"\) was started and not finished/,
    );
  }, 60_000);
});
