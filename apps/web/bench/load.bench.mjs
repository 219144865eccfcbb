// Load bench, one run on loopback: N concurrent sessions (default 100), each streaming one scripted turn with a
// tool call (a Read, then a streamed answer), spread over two web host instances on one PostgreSQL database; the
// baseline is the same load on one instance with the default SQLite store. Counts lost and duplicated events and
// cross-talk between sessions (each must be 0), first-event latency p50/p99, and the database's write rate.
// Every FOLLOW_EVERY-th session (default 10) streams its answer slowly and is also followed from the other instance
// (`GET /api/sessions/:id/stream`, the turn's live log): the follower must see the same text, delta by delta,
// before the turn ends; its lag behind the running instance is reported.
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { recordBench } from '../../../scripts/bench-lib.mjs';
import { startPostgres, stopPostgres } from '../../../scripts/postgres-test-server.mjs';

const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 100);
const DELTAS = Number(process.env.BENCH_TURN_DELTAS ?? 40);
const FOLLOW_EVERY = Number(process.env.BENCH_FOLLOW_EVERY ?? 10);
/** Milliseconds between deltas: 2 for most sessions, 20 for the followed ones (their text must visibly grow). */
const delayOf = (n) => (FOLLOW_EVERY > 0 && n % FOLLOW_EVERY === 0 ? 20 : 2);
const BIN = fileURLToPath(new URL('../dist/server/bin.js', import.meta.url));

/** A loopback OpenAI-compatible server: a Read call first, then DELTAS text deltas naming the session's tag. */
function modelServer() {
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (d) => {
      body += d;
    });
    req.on('end', () => {
      const request = JSON.parse(body);
      const messages = request.messages ?? [];
      const prompt = JSON.stringify(messages.filter((m) => m.role === 'user').at(-1)?.content ?? '');
      const tag = /tag-\d+/.exec(prompt)?.[0] ?? 'tag-none';
      const delay = delayOf(Number(tag.slice(4)) || 1);
      res.writeHead(200, { 'Content-Type': 'text/event-stream' });
      const send = (delta, finish = null) =>
        res.write(
          `data: ${JSON.stringify({ id: 'c', object: 'chat.completion.chunk', created: 1, model: 'm', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`,
        );
      if (!messages.some((m) => m.role === 'tool')) {
        send({
          tool_calls: [
            {
              index: 0,
              id: `call-${tag}`,
              type: 'function',
              function: { name: 'Read', arguments: '{"file_path":"facts.txt"}' },
            },
          ],
        });
        send({}, 'tool_calls');
        res.end('data: [DONE]\n\n');
        return;
      }
      let i = 0;
      const next = () => {
        if (i === DELTAS) {
          send({}, 'stop');
          res.end('data: [DONE]\n\n');
          return;
        }
        send({ content: `${tag}:${i++} ` });
        setTimeout(next, delay);
      };
      next();
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function instance(env, cwd) {
  const child = spawn(process.execPath, [BIN, '--cwd', cwd, '--port', '0'], {
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stderr.on('data', (d) => {
    out += d;
    // What an instance reports on stderr (a write it lost) is part of the result.
    process.stderr.write(`  [instance] ${d}`);
  });
  const url = await new Promise((resolve, reject) => {
    child.stdout.on('data', (d) => {
      out += d;
      const m = /Open (http:\/\/127\.0\.0\.1:\d+\/\?token=\S+)/.exec(out);
      if (m) resolve(m[1]);
    });
    child.once('exit', (code) => reject(new Error(`codeagent-web exited ${code}: ${out}`)));
  });
  const u = new URL(url);
  return { child, origin: u.origin, token: u.searchParams.get('token') };
}

/** Reads an SSE response: each event's chunk and arrival time. */
async function readEvents(res) {
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  const events = [];
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return events;
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = block
        .split('\n')
        .filter((l) => l.startsWith('data: '))
        .map((l) => l.slice(6))
        .join('');
      if (data === '' || data === '[DONE]') continue;
      events.push({ chunk: JSON.parse(data), at: performance.now() });
    }
  }
}

/** Follows session `id` from `host` (not the one running it) until its turn ends. */
async function followTurn(host, id, tag) {
  const headers = { Authorization: `Bearer ${host.token}` };
  const deadline = performance.now() + 30_000;
  for (;;) {
    const res = await fetch(`${host.origin}/api/sessions/${id}/stream`, { headers });
    if (res.status === 200) {
      const events = await readEvents(res);
      const deltas = events.filter((e) => e.chunk.type === 'text-delta');
      const words = deltas
        .map((e) => e.chunk.delta)
        .join('')
        .trim()
        .split(/\s+/)
        .filter(Boolean);
      const mine = words.filter((w) => w.startsWith(`${tag}:`));
      const expected = Array.from({ length: DELTAS }, (_, i) => `${tag}:${i}`);
      const last = deltas.findLast((e) => e.chunk.delta.includes(`${tag}:${DELTAS - 1} `));
      const ended = events.at(-1)?.chunk;
      if (ended?.type !== 'finish' || mine.length !== DELTAS)
        console.error(
          `  follower of ${tag}: ${events.length} events, ${mine.length} words, ended ${JSON.stringify(ended)}`,
        );
      return {
        lost: expected.filter((w) => !mine.includes(w)).length,
        duplicated: mine.length - new Set(mine).size,
        foreign: words.length - mine.length,
        deltaEvents: deltas.length,
        firstDeltaAt: deltas[0]?.at ?? Number.NaN,
        lastWordAt: last?.at ?? Number.NaN,
        finished: events.at(-1)?.chunk.type === 'finish',
      };
    }
    if (performance.now() > deadline) throw new Error(`session ${id} never showed a running turn to follow`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** One session's turn: POST the user message, read the SSE response, check every event. */
async function oneTurn(host, n, other) {
  const headers = { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' };
  const created = await fetch(`${host.origin}/api/sessions`, { method: 'POST', headers, body: '{}' });
  const { id } = await created.json();
  const tag = `tag-${n}`;
  const followed = other && FOLLOW_EVERY > 0 && n % FOLLOW_EVERY === 0 ? followTurn(other, id, tag) : null;
  const started = performance.now();
  const res = await fetch(`${host.origin}/api/sessions/${id}/chat`, {
    method: 'POST',
    headers,
    body: JSON.stringify({
      messages: [{ id: `u${n}`, role: 'user', parts: [{ type: 'text', text: `${tag}: read facts.txt` }] }],
    }),
  });
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  let first = null;
  let lastWordAt = Number.NaN;
  let text = '';
  let outputs = 0;
  let finished = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (first === null) first = performance.now() - started;
    buffer += decoder.decode(value, { stream: true });
    for (let cut = buffer.indexOf('\n\n'); cut >= 0; cut = buffer.indexOf('\n\n')) {
      const line = buffer.slice(0, cut).trim();
      buffer = buffer.slice(cut + 2);
      if (!line.startsWith('data: ') || line === 'data: [DONE]') continue;
      const chunk = JSON.parse(line.slice(6));
      if (chunk.type === 'text-delta') text += chunk.delta;
      if (chunk.type === 'text-delta' && chunk.delta.includes(`${tag}:${DELTAS - 1} `))
        lastWordAt = performance.now();
      if (chunk.type === 'tool-output-available') outputs++;
      if (chunk.type === 'finish') finished++;
    }
  }
  const seen = text.trim().split(/\s+/).filter(Boolean);
  const expected = Array.from({ length: DELTAS }, (_, i) => `${tag}:${i}`);
  const foreign = seen.filter((w) => !w.startsWith(`${tag}:`)).length;
  const mine = seen.filter((w) => w.startsWith(`${tag}:`));
  const lost =
    expected.filter((w) => !mine.includes(w)).length + (outputs === 0 ? 1 : 0) + (finished === 0 ? 1 : 0);
  const duplicated = mine.length - new Set(mine).size + Math.max(0, outputs - 1) + Math.max(0, finished - 1);
  const follower = followed ? await followed : null;
  const endedAt = performance.now();
  return {
    id,
    tag,
    first: first ?? Number.NaN,
    lost,
    duplicated,
    foreign,
    host,
    follower: follower && {
      ...follower,
      // How long after the running instance's page the follower saw the last word.
      lag: follower.lastWordAt - lastWordAt,
      // Text seen before the turn ended on the running instance: it grew while the turn ran, not at the end.
      early: follower.firstDeltaAt < lastWordAt,
      byDelta: follower.firstDeltaAt < lastWordAt && follower.deltaEvents >= 3,
      endedAt,
    },
  };
}

const pct = (values, p) => {
  const sorted = values.slice().sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};

/** Runs the load on `hosts`; returns the figures. */
async function run(label, hosts, stats) {
  const before = await stats?.();
  const t0 = performance.now();
  const results = await Promise.all(
    Array.from({ length: SESSIONS }, (_, n) =>
      oneTurn(hosts[n % hosts.length], n, hosts.length > 1 ? hosts[(n + 1) % hosts.length] : null),
    ),
  );
  const seconds = (performance.now() - t0) / 1000;
  // Statistics reach pg_stat_database within a second.
  await new Promise((r) => setTimeout(r, 1500));
  const after = await stats?.();
  const firsts = results.map((r) => r.first);
  const followers = results.map((r) => r.follower).filter(Boolean);
  return {
    followers: {
      count: followers.length,
      lost: followers.reduce((s, f) => s + f.lost, 0),
      duplicated: followers.reduce((s, f) => s + f.duplicated, 0),
      crossTalk: followers.reduce((s, f) => s + f.foreign, 0),
      unfinished: followers.filter((f) => !f.finished).length,
      textOnlyAtTheEnd: followers.filter((f) => !f.early).length,
      deltaByDelta: followers.filter((f) => f.byDelta).length,
      deltaEvents:
        followers.length > 0
          ? pct(
              followers.map((f) => f.deltaEvents),
              50,
            )
          : 0,
      lagP50:
        followers.length > 0
          ? pct(
              followers.map((f) => f.lag),
              50,
            )
          : Number.NaN,
      lagP99:
        followers.length > 0
          ? pct(
              followers.map((f) => f.lag),
              99,
            )
          : Number.NaN,
    },
    label,
    sessions: SESSIONS,
    lost: results.reduce((s, r) => s + r.lost, 0),
    duplicated: results.reduce((s, r) => s + r.duplicated, 0),
    crossTalk: results.reduce((s, r) => s + r.foreign, 0),
    p50: pct(firsts, 50),
    p99: pct(firsts, 99),
    seconds,
    commits: before && after ? after.commits - before.commits : null,
    rows: before && after ? after.rows - before.rows : null,
    results,
  };
}

const work = await mkdtemp(join(tmpdir(), 'codeagent-web-load-'));
await writeFile(join(work, 'facts.txt'), 'the sky is green here\n');
const model = await modelServer();
const base = {
  CODEAGENT_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`,
  CODEAGENT_MODEL: 'bench-model',
  HOME: work,
  CODEAGENT_HOME: join(work, '.home'),
};
const db = await startPostgres();
const children = [];
try {
  // Baseline: one instance, SQLite.
  const single = await instance({ ...base, CODEAGENT_HOME: join(work, '.sqlite-home') }, work);
  children.push(single.child);
  const baseline = await run('1 instance, SQLite (baseline)', [single]);
  single.child.kill('SIGTERM');

  const a = await instance({ ...base, CODEAGENT_DATABASE_URL: db.url }, work);
  const b = await instance({ ...base, CODEAGENT_DATABASE_URL: db.url }, work);
  children.push(a.child, b.child);
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  const stats = async () => {
    const r = await client.query(
      'SELECT xact_commit, tup_inserted + tup_updated + tup_deleted AS rows FROM pg_stat_database WHERE datname = current_database()',
    );
    return { commits: Number(r.rows[0].xact_commit), rows: Number(r.rows[0].rows) };
  };
  const ours = await run('2 instances, PostgreSQL', [a, b], stats);
  const eventRows = async () => {
    const r = await client.query('SELECT count(*)::int AS n FROM codeagent_events');
    return r.rows[0].n;
  };
  // What was stored: every session's turn done, with its whole answer once.
  let storedBad = 0;
  for (const r of ours.results) {
    const row = await client.query('SELECT turn_state, ui FROM codeagent_sessions WHERE id = $1', [r.id]);
    const ui = row.rows[0]?.ui ?? '';
    const count = ui.split(`${r.tag}:${DELTAS - 1} `).length - 1;
    if (row.rows[0]?.turn_state !== 'done' || count !== 1) storedBad++;
  }

  const fmt = (ms) => `${ms.toFixed(1)} ms`;
  console.log(
    `load bench: ${SESSIONS} concurrent sessions, each a Read then ${DELTAS} streamed deltas (one run)`,
  );
  for (const r of [ours, baseline]) {
    console.log(
      `  ${r.label.padEnd(32)} lost ${r.lost}  duplicated ${r.duplicated}  cross-talk ${r.crossTalk}  ` +
        `first event p50 ${fmt(r.p50)} p99 ${fmt(r.p99)}  all done in ${r.seconds.toFixed(2)} s`,
    );
  }
  console.log(
    `  PostgreSQL writes: ${ours.commits} commits, ${ours.rows} rows written in ${ours.seconds.toFixed(2)} s ` +
      `(${(ours.commits / ours.seconds).toFixed(0)} commits/s, ${(ours.rows / ours.seconds).toFixed(0)} rows/s; ` +
      `${(ours.commits / SESSIONS).toFixed(1)} commits a session)`,
  );
  console.log(`  stored sessions not done or not holding their whole answer once: ${storedBad}`);
  const f = ours.followers;
  console.log(
    `  followed from the other instance: ${f.count} sessions  lost ${f.lost}  duplicated ${f.duplicated}  ` +
      `cross-talk ${f.crossTalk}  unfinished ${f.unfinished}\n` +
      `    text seen before the turn ended ${f.count - f.textOnlyAtTheEnd}/${f.count}, in 3 or more events ${f.deltaByDelta}/${f.count}  ` +
      `text events p50 ${f.deltaEvents}  lag behind the running instance p50 ${fmt(f.lagP50)} p99 ${fmt(f.lagP99)}`,
  );
  const events = await eventRows();
  console.log(`  live log rows left after the run (pruned a minute after each turn): ${events}`);
  console.log(
    '  recorded before ADR 0216 (main at fbc5ac8, this command, 3 runs alternating with 3 of this code, load ' +
      'average 16-19): PostgreSQL first event p50 2,275-3,381 ms, p99 6,494-9,766 ms; 6.3-7.3 commits a session',
  );
  console.log(
    `  load average at the end: ${(await import('node:os'))
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} (2 cores)`,
  );
  console.log(
    `  ratio ours/baseline: first event p50 x${(ours.p50 / baseline.p50).toFixed(2)}, p99 x${(ours.p99 / baseline.p99).toFixed(2)}, ` +
      `total x${(ours.seconds / baseline.seconds).toFixed(2)}`,
  );
  // The same figures in the shared bench format (.bench/web.load.json, read by the root `pnpm bench` summary).
  recordBench(
    '@codeagent/web',
    `${SESSIONS} concurrent sessions, each a Read then ${DELTAS} streamed deltas, one run`,
    [
      ['first event p50', 'time to the first event, median over the sessions', ours.p50, baseline.p50],
      ['first event p99', 'time to the first event, 99th percentile', ours.p99, baseline.p99],
      ['all done', 'all sessions done', ours.seconds * 1000, baseline.seconds * 1000],
    ].map(([name, what, a, b]) => ({
      name,
      what,
      unit: 'ms',
      ours: a,
      baseline: b,
      baselineName: baseline.label,
    })),
    'load',
  );
  const bad =
    f.lost +
    f.duplicated +
    f.crossTalk +
    f.unfinished +
    // Every follower seeing its text only at the end means the live log is not followed at all.
    (f.count > 0 && f.textOnlyAtTheEnd === f.count ? 1 : 0) +
    ours.lost +
    ours.duplicated +
    ours.crossTalk +
    baseline.lost +
    baseline.duplicated +
    baseline.crossTalk +
    storedBad;
  await client.end();
  if (bad > 0) {
    console.error('load bench: events were lost, duplicated or crossed sessions');
    process.exitCode = 1;
  }
} finally {
  for (const c of children) if (c.exitCode === null) c.kill('SIGTERM');
  await new Promise((r) => setTimeout(r, 300));
  stopPostgres(db);
  model.close();
  await rm(work, { recursive: true, force: true });
}
