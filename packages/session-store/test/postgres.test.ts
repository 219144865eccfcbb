import { spawn } from 'node:child_process';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import type { SessionChange, TurnEventsChange } from '../src/index.js';
import { createPostgresStore, EVENTS_CHANNEL, NOTIFY_CHANNEL, redactUrl } from '../src/postgres.js';
import { killPostgres, startAgain } from '../../../scripts/postgres-test-server.mjs';
import { freshDatabase, server, sql } from './pg.js';
import { eventsSuite } from './events-suite.js';
import { garbageSuite } from './sql-suite.js';
import { rejects, storeSuite } from './suite.js';

const require = createRequire(import.meta.url);
let url = '';
storeSuite('postgres', {
  async open(options) {
    url = await freshDatabase();
    return createPostgresStore({ url, ...options });
  },
  reopen: () => createPostgresStore({ url }),
});

garbageSuite('postgres', {
  async open() {
    const u = await freshDatabase();
    return {
      open: () => createPostgresStore({ url: u }),
      exec: async (text, params = []) => {
        await sql(u, text, params);
      },
    };
  },
});

let eventsUrl = '';
eventsSuite('postgres', {
  async open(options) {
    eventsUrl = await freshDatabase();
    return createPostgresStore({ url: eventsUrl, ...options });
  },
  reopen: () => createPostgresStore({ url: eventsUrl }),
  exec: async (text, params = []) => {
    await sql(eventsUrl, text, params);
  },
});

const closedPort = () =>
  new Promise<number>((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

describe('postgres: the server', () => {
  it('an unreachable server at start is a clear UNAVAILABLE at once, the password hidden', async () => {
    const port = await closedPort();
    const started = Date.now();
    const e = await rejects(
      createPostgresStore({ url: `postgres://me:s3cret@127.0.0.1:${port}/db`, connectTimeoutMs: 2000 }),
      'unavailable',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(e.message).toContain(`cannot use PostgreSQL at postgres://me:***@127.0.0.1:${port}/db`);
    expect(e.message).toMatch(/ECONNREFUSED/);
    expect(e.message).not.toContain('s3cret');
    await rejects(createPostgresStore({ url: 'mysql://x@y/z' }), 'invalid-input');
    await rejects(createPostgresStore({ url: 'not a url' }), 'invalid-input');
    expect(redactUrl('postgres://a:b@c/d')).toBe('postgres://a:***@c/d');
  });

  it('tells which instances are connected; one killed drops out', async () => {
    const u = await freshDatabase();
    const mine = await createPostgresStore({ url: u, applicationName: 'codeagent-web:a' });
    const child = spawn(
      process.execPath,
      [
        '-e',
        `const pg=require(${JSON.stringify(require.resolve('pg'))});const c=new pg.Client({connectionString:${JSON.stringify(u)},application_name:'codeagent-web:b'});c.connect().then(()=>console.log('up'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((r) => child.stdout?.once('data', r));
    expect((await mine.connectedApplications()).sort()).toEqual(['codeagent-web:a', 'codeagent-web:b']);
    child.kill('SIGKILL');
    const deadline = Date.now() + 10_000;
    while ((await mine.connectedApplications()).includes('codeagent-web:b') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 50));
    expect(await mine.connectedApplications()).toEqual(['codeagent-web:a']);
    await mine.close();
  });

  it('two instances migrating the same new database at once both start', async () => {
    const u = await freshDatabase();
    const stores = await Promise.all([createPostgresStore({ url: u }), createPostgresStore({ url: u })]);
    const rows = await sql(u, 'SELECT version, state FROM codeagent_schema ORDER BY version');
    expect(rows.rows).toEqual([
      { version: 1, state: 'applied' },
      { version: 2, state: 'applied' },
      { version: 3, state: 'applied' },
      { version: 4, state: 'applied' },
    ]);
    await Promise.all(stores.map((s) => s.close()));
  });

  it('announces every write on NOTIFY: another instance sees them', async () => {
    const u = await freshDatabase();
    const a = await createPostgresStore({ url: u });
    const b = await createPostgresStore({ url: u });
    const seen: SessionChange[] = [];
    b.subscribe((c) => seen.push(c));
    // The listener connects in the background; writes after it listens arrive.
    const deadline = Date.now() + 10_000;
    let n = 0;
    while (seen.length === 0 && Date.now() < deadline) {
      await sql(u, 'SELECT pg_notify($1, $2)', [
        NOTIFY_CHANNEL,
        JSON.stringify({ id: `probe${n++}`, version: 1 }),
      ]);
      await new Promise((r) => setTimeout(r, 50));
    }
    seen.length = 0;
    await a.create({ id: 'x', title: 'from a' });
    await a.update('x', 1, { title: 'again' });
    while (seen.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual([
      { id: 'x', version: 1 },
      { id: 'x', version: 2 },
    ]);
    await Promise.all([a.close(), b.close()]);
  });

  it('survives a server restart mid-turn: the write waiting for it lands once, nothing is lost, NOTIFY resumes', async () => {
    const u = await freshDatabase();
    const store = await createPostgresStore({ url: u, reconnectTimeoutMs: 30_000 });
    const seen: SessionChange[] = [];
    store.subscribe((c) => seen.push(c));
    const s = await store.create({ id: 'r', title: 'restart' });
    await store.beginTurn('r', s.version, { turnId: 't', owner: 'me', prompt: 'p' });
    await store.appendStep('r', { turnId: 't', seq: 0, step: 'before' });
    killPostgres(server());
    let landed = false;
    const during = store.appendStep('r', { turnId: 't', seq: 1, step: 'during' }).then((r) => {
      landed = true;
      return r;
    });
    await new Promise((r) => setTimeout(r, 700));
    expect(landed).toBe(false);
    startAgain(server());
    const after = await during;
    expect(after.turn?.steps).toEqual(['before', 'during']);
    await store.appendStep('r', { turnId: 't', seq: 2, step: 'after' });
    const ended = await store.endTurn('r', { turnId: 't', state: 'done', agent: { all: 3 } });
    expect(ended.version).toBe(s.version + 5);
    const fresh = await createPostgresStore({ url: u });
    expect((await fresh.get('r'))?.agent).toEqual({ all: 3 });
    // The listener connected again: a write from another instance is reported.
    const deadline = Date.now() + 15_000;
    let v = ended.version;
    while (!seen.some((c) => c.version === v && c.id === 'r') && Date.now() < deadline) {
      v = (await fresh.update('r', v, { title: `t${v}` })).version;
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(seen.some((c) => c.id === 'r' && c.version === v)).toBe(true);
    await Promise.all([store.close(), fresh.close()]);
  });

  it('the database restarted mid-turn: an event append waiting for it lands once, in order, and followers hear again', async () => {
    const u = await freshDatabase();
    const writer = await createPostgresStore({ url: u, reconnectTimeoutMs: 30_000 });
    const follower = await createPostgresStore({ url: u });
    const heard: TurnEventsChange[] = [];
    follower.subscribeEvents((c) => heard.push(c));
    const s = await writer.create({ id: 'r', title: 'restart' });
    await writer.beginTurn('r', s.version, { turnId: 't', owner: 'me', prompt: 'p' });
    let seq = await writer.appendEvents('r', { turnId: 't', seq: 0, events: ['e0', 'e1'] });
    killPostgres(server());
    const during = writer.appendEvents('r', { turnId: 't', seq, events: ['e2'] });
    await new Promise((r) => setTimeout(r, 700));
    startAgain(server());
    seq = await during;
    expect(seq).toBe(3);
    // The follower's listener connects again; appends after that are heard (a reader also polls for what it missed).
    const deadline = Date.now() + 15_000;
    while (!heard.some((c) => c.seq >= 3) && Date.now() < deadline) {
      seq = await writer.appendEvents('r', { turnId: 't', seq, events: [`e${seq}`] });
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(heard.some((c) => c.seq >= 3)).toBe(true);
    const events = await follower.readEvents('r', { turnId: 't' });
    expect(events.map((e) => e.data)).toEqual(Array.from({ length: seq }, (_, i) => `e${i}`));
    expect(events.map((e) => e.seq)).toEqual(Array.from({ length: seq }, (_, i) => i));
    await Promise.all([writer.close(), follower.close()]);
  });

  it('a NOTIFY payload names where to read, never the events: a huge append still notifies', async () => {
    const u = await freshDatabase();
    const a = await createPostgresStore({ url: u });
    const b = await createPostgresStore({ url: u });
    const heard: TurnEventsChange[] = [];
    b.subscribeEvents((c) => heard.push(c));
    const s = await a.create({ id: 'h', title: 'huge' });
    await a.beginTurn('h', s.version, { turnId: 't', owner: 'me', prompt: 'p' });
    let seq = 0;
    const deadline = Date.now() + 10_000;
    while (heard.length === 0 && Date.now() < deadline) {
      seq = await a.appendEvents('h', { turnId: 't', seq, events: [{ big: 'z'.repeat(100_000) }] });
      await new Promise((r) => setTimeout(r, 100));
    }
    expect(heard[0]).toMatchObject({ id: 'h', turnId: 't' });
    // Garbage on the channel (another program's NOTIFY) is ignored.
    await sql(u, 'SELECT pg_notify($1, $2)', [EVENTS_CHANNEL, 'not json']);
    await sql(u, 'SELECT pg_notify($1, $2)', [
      EVENTS_CHANNEL,
      JSON.stringify({ id: 'h', turnId: 5, seq: 'x' }),
    ]);
    await new Promise((r) => setTimeout(r, 200));
    expect(heard.every((c) => typeof c.seq === 'number' && c.turnId === 't')).toBe(true);
    await Promise.all([a.close(), b.close()]);
  });
});
