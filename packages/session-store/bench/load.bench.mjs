// `pnpm bench`: what the stores cost over the least their medium can do, on the built package (dist), in the shared
// format (scripts/bench-lib.mjs): interleaved pairs, process CPU time (the file store's I/O runs on libuv's threads,
// which process CPU time counts), the ratio ours / baseline.
//   - get: one session whose agent snapshot is a 10k-message history (about 2 MB), vs reading the same bytes and
//     `JSON.parse` (JSON files) or a prepared `SELECT` of the same row and `JSON.parse` of its columns (SQLite);
//   - update: saving that snapshot, vs `writeFile` of a temporary file and `rename` (what an atomic save is at least)
//     or a prepared `UPDATE` of the row;
//   - appendEvents: 100 turn-log events (a web turn's deltas between two flushes) vs a prepared `INSERT` per event in
//     one transaction.
// PostgreSQL is not measured here: it needs a server (its shared suite runs in the tests against a real one).
import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, rename, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import { createJsonFileStore } from '../dist/index.js';
import { createSqliteStore } from '../dist/sqlite.js';

const MESSAGES = 10_000;
/** Steps of the measured turns. */
const STEPS = 20;

/** An agent snapshot: user question, tool call, tool result, answer, repeated. */
function snapshot(n) {
  const messages = [];
  for (let i = 0; messages.length < n; i++) {
    const id = `call_${i}`;
    messages.push({ role: 'user', content: `question ${i}: what does file ${i} do?` });
    messages.push({
      role: 'assistant',
      content: [{ type: 'tool-call', toolCallId: id, toolName: 'read', input: { path: `f${i}.ts` } }],
    });
    messages.push({
      role: 'tool',
      content: [
        {
          type: 'tool-result',
          toolCallId: id,
          toolName: 'read',
          output: { type: 'text', value: `contents of f${i}.ts: ${'x'.repeat(80)}` },
        },
      ],
    });
    messages.push({ role: 'assistant', content: [{ type: 'text', text: `File ${i} exports a constant.` }] });
  }
  messages.length = n;
  return { format: 'codeagent.session', version: 1, messages };
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'codeagent-store-bench-'));
const agent = snapshot(MESSAGES);
const agentJson = JSON.stringify(agent);
/** One step: a tool call and its result. */
const step = { messages: [agent.messages[1], agent.messages[2]] };
const suite = benchSuite(
  '@codeagent/session-store',
  `the stores over the least their medium does: a session with a ${MESSAGES.toLocaleString('en')}-message agent snapshot (${(agentJson.length / 2 ** 20).toFixed(1)} MiB of JSON), and turn-log appends`,
);

try {
  // ---------------------------------------------------------------- JSON files
  const files = await createJsonFileStore({ dir: path.join(dir, 'files') });
  let record = await files.create({ title: 'bench', meta: { cwd: '/work' } });
  record = await files.update(record.id, record.version, { agent });
  const file = path.join(dir, 'files', `${record.id}.json`);
  await suite.compare({
    name: 'json-files get',
    what: `get() of the session (read, parse, check every field)`,
    baselineName: 'readFile + JSON.parse of the same file',
    ours: async () => {
      const r = await files.get(record.id);
      if (r?.agent === undefined) throw new Error('no agent');
    },
    baseline: async () => {
      JSON.parse(await readFile(file, 'utf8'));
    },
    goal: { max: 1.3 },
    minRounds: 21,
    minSampleMs: 60,
    targetSpread: 0.05,
    budgetMs: 15_000,
  });
  const tmp = path.join(dir, 'files', 'baseline.tmp');
  const target = path.join(dir, 'files', 'baseline.json');
  await writeFile(target, await readFile(file, 'utf8'));
  let version = record.version;
  // The least a version-checked atomic save of a JSON file does: read the stored version (the whole file), write a
  // temporary file, rename it over.
  const checkedSave = async (doc) => {
    const stored = JSON.parse(await readFile(target, 'utf8'));
    await writeFile(tmp, JSON.stringify({ ...stored, version: stored.version + 1, ...doc }));
    await rename(tmp, target);
  };
  await suite.compare({
    name: 'json-files update',
    what: 'update() saving the snapshot (lock file, version check, atomic write)',
    baselineName:
      'readFile + JSON.parse (the version) + JSON.stringify + writeFile of a temporary file + rename',
    ours: async () => {
      version = (await files.update(record.id, version, { agent })).version;
    },
    baseline: () => checkedSave({ session: agent }),
    goal: { max: 1.5 },
    minRounds: 21,
    targetSpread: 0.05,
    budgetMs: 15_000,
  });
  // A turn's writes on the CLI's store: begin, 20 steps saved one by one, end; each rewrites the whole file.
  await suite.compare({
    name: 'json-files turn',
    what: `one turn's writes on that session: beginTurn, ${STEPS} appendStep, endTurn (interrupted: the steps stay)`,
    baselineName: `the same ${STEPS + 2} checked saves of the file, each with the steps so far`,
    ours: async () => {
      const begun = await files.beginTurn(record.id, version, { owner: 'bench', prompt: 'go' });
      const id = begun.turn?.id ?? '';
      for (let k = 0; k < STEPS; k++) await files.appendStep(record.id, { turnId: id, seq: k, step });
      version = (await files.endTurn(record.id, { turnId: id, state: 'interrupted' })).version;
    },
    baseline: async () => {
      const steps = [];
      await checkedSave({ session: agent, turn: { state: 'running', steps } });
      for (let k = 0; k < STEPS; k++) {
        steps.push(step);
        await checkedSave({ session: agent, turn: { state: 'running', steps } });
      }
      await checkedSave({ session: agent, turn: { state: 'interrupted', steps } });
    },
    goal: { max: 1.5 },
    minRounds: 11,
    targetSpread: 0.05,
    budgetMs: 20_000,
  });
  await files.close();

  // ---------------------------------------------------------------- SQLite
  const dbPath = path.join(dir, 'sessions.db');
  const sqlite = await createSqliteStore({ path: dbPath });
  let row = await sqlite.create({ title: 'bench', meta: { cwd: '/work' } });
  row = await sqlite.update(row.id, row.version, { agent });
  // The baseline's own connection to the same file, with prepared statements on the same table.
  const db = new Database(dbPath);
  db.pragma('journal_mode = WAL');
  const select = db.prepare(
    'SELECT id, version, title, meta, head, agent, ui FROM codeagent_sessions WHERE id = ?',
  );
  await suite.compare({
    name: 'sqlite get',
    what: 'get() of the session (a query through the driver queue, parse, check every field)',
    baselineName: 'a prepared SELECT of the same row + JSON.parse of its columns',
    ours: async () => {
      const r = await sqlite.get(row.id);
      if (r?.agent === undefined) throw new Error('no agent');
    },
    baseline: () => {
      const r = select.get(row.id);
      JSON.parse(r.meta);
      JSON.parse(r.head);
      JSON.parse(r.agent);
    },
    goal: { max: 1.3 },
    minRounds: 21,
    targetSpread: 0.05,
    budgetMs: 15_000,
  });
  let sqlVersion = row.version;
  const other = await sqlite.create({ title: 'baseline', meta: {} });
  await sqlite.update(other.id, other.version, { agent });
  // The least a version-checked save of a row does: read its version, write the document where the version matches.
  const readVersion = db.prepare('SELECT version FROM codeagent_sessions WHERE id = ?');
  const updateRow = db.prepare(
    'UPDATE codeagent_sessions SET agent = ?, version = version + 1 WHERE id = ? AND version = ?',
  );
  const checkedUpdate = db.transaction((text) => {
    const { version: v } = readVersion.get(other.id);
    if (updateRow.run(text, other.id, v).changes !== 1) throw new Error('lost');
  });
  await suite.compare({
    name: 'sqlite update',
    what: 'update() saving the snapshot (a transaction: read the row, check the version, write)',
    baselineName: 'JSON.stringify + a transaction of a prepared SELECT of the version and a checked UPDATE',
    ours: async () => {
      sqlVersion = (await sqlite.update(row.id, sqlVersion, { agent })).version;
    },
    baseline: () => checkedUpdate(JSON.stringify(agent)),
    goal: { max: 1.5 },
    minRounds: 21,
    targetSpread: 0.05,
    budgetMs: 15_000,
  });
  // A running turn with a log: 100 delta chunks per append, as the web host flushes them.
  const started = await sqlite.beginTurn(row.id, sqlVersion, { owner: 'bench', prompt: 'go' });
  const turnId = started.turn?.id ?? '';
  // A turn's writes on the web host's store: begin, 20 steps saved one by one, end. The least a database does for
  // that: a transaction per write, reading the version (and the head) and writing where it matches.
  // The host keeps the version each write returns (as the web host does), so no read comes before a write.
  let rowVersion = (await sqlite.endTurn(row.id, { turnId, state: 'interrupted' })).version;
  const readHead = db.prepare('SELECT version, head FROM codeagent_sessions WHERE id = ?');
  const insertStep = db.prepare(
    'INSERT INTO codeagent_steps (session_id, turn_id, seq, data) VALUES (?, ?, ?, ?)',
  );
  const moveOn = db.prepare(
    'UPDATE codeagent_sessions SET version = version + 1, head = ? WHERE id = ? AND version = ?',
  );
  const dropSteps = db.prepare('DELETE FROM codeagent_steps WHERE session_id = ?');
  const headWrite = db.transaction((head) => {
    const r = readHead.get(other.id);
    JSON.parse(r.head);
    if (moveOn.run(JSON.stringify(head), other.id, r.version).changes !== 1) throw new Error('lost');
  });
  const stepWrite = db.transaction((turn, seq, text) => {
    const r = readHead.get(other.id);
    JSON.parse(r.head);
    insertStep.run(other.id, turn, seq, text);
    if (moveOn.run(r.head, other.id, r.version).changes !== 1) throw new Error('lost');
  });
  let turns = 0;
  await suite.compare({
    name: 'sqlite turn',
    what: `one turn's writes on that session: beginTurn, ${STEPS} appendStep, endTurn (interrupted: the steps stay)`,
    baselineName: `the same ${STEPS + 2} checked transactions of prepared statements`,
    ours: async () => {
      const begun = await sqlite.beginTurn(row.id, rowVersion, { owner: 'bench', prompt: 'go' });
      const id = begun.turn?.id ?? '';
      for (let k = 0; k < STEPS; k++) await sqlite.appendStep(row.id, { turnId: id, seq: k, step });
      rowVersion = (await sqlite.endTurn(row.id, { turnId: id, state: 'interrupted' })).version;
    },
    baseline: () => {
      const id = `t${turns++}`;
      dropSteps.run(other.id);
      headWrite({ turn: { id, state: 'running', owner: 'bench', prompt: 'go' }, pending: [] });
      for (let k = 0; k < STEPS; k++) stepWrite(id, k, JSON.stringify(step));
      headWrite({ turn: { id, state: 'interrupted', owner: 'bench', prompt: 'go' }, pending: [] });
    },
    goal: { max: 1.5 },
    minRounds: 21,
    targetSpread: 0.05,
    budgetMs: 15_000,
  });
  const logged = await sqlite.beginTurn(row.id, (await sqlite.get(row.id)).version, {
    owner: 'b',
    prompt: 'go',
  });
  const logTurn = logged.turn?.id ?? '';
  const events = Array.from({ length: 100 }, (_, i) => ({ type: 'text-delta', id: 't', delta: `word${i} ` }));
  let seq = 0;
  const insert = db.prepare(
    'INSERT INTO codeagent_events (session_id, turn_id, seq, data) VALUES (?, ?, ?, ?)',
  );
  let baseSeq = 0;
  const insertAll = db.transaction((list) => {
    for (const e of list) insert.run(other.id, 'baseline', baseSeq++, JSON.stringify(e));
  });
  await suite.compare({
    name: 'sqlite appendEvents',
    what: 'appendEvents() of 100 delta events to a running turn (checks the turn and the position, one transaction)',
    baselineName: 'a prepared INSERT per event in one transaction',
    ours: async () => {
      await sqlite.appendEvents(row.id, { turnId: logTurn, seq, events });
      seq += events.length;
    },
    baseline: () => insertAll(events),
    goal: { max: 2 },
    minRounds: 21,
    targetSpread: 0.05,
    budgetMs: 15_000,
  });
  db.close();
  await sqlite.close();
} finally {
  rmSync(dir, { recursive: true, force: true });
}
suite.finish();
