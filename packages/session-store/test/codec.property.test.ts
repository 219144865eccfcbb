import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  createJsonFileStore,
  decodeRecord,
  decodeSessionFile,
  isSessionStoreError,
  type JsonValue,
  type SessionRecord,
} from '../src/index.js';
import { decodeRow } from '../src/sql.js';
import { createSqliteStore } from '../src/sqlite.js';

/** Calls `fn`; anything but a value or an INVALID_DATA store error fails the property. */
function readsOrRefuses(fn: () => unknown): void {
  try {
    fn();
  } catch (error) {
    if (!isSessionStoreError(error, 'invalid-data')) throw error;
    expect(error.message).toMatch(/^stored session .*is damaged: /);
  }
}

const anything = fc.anything({
  withNullPrototype: true,
  withBigInt: true,
  withDate: true,
  withMap: true,
  withSet: true,
});

describe('codecs of stored data: garbage in, a clear error out', () => {
  it('decodeRecord takes any value without crashing', () => {
    fc.assert(
      fc.property(anything, (x) => readsOrRefuses(() => decodeRecord(x))),
      { numRuns: 500 },
    );
  });

  it('decodeRecord takes near-records (valid ones with one field replaced) without crashing', () => {
    const valid = {
      id: 'a',
      version: 1,
      title: 't',
      createdAt: '2026-01-01T00:00:00.000Z',
      updatedAt: '2026-01-01T00:00:00.000Z',
      meta: {},
      agent: null,
      ui: null,
      turn: {
        id: 'x',
        state: 'running',
        owner: null,
        prompt: 'p',
        steps: [],
        startedAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
      },
      pending: [],
    };
    const keys = Object.keys(valid) as (keyof typeof valid)[];
    fc.assert(
      fc.property(fc.constantFrom(...keys), anything, (key, value) =>
        readsOrRefuses(() => decodeRecord({ ...valid, [key]: value })),
      ),
      { numRuns: 500 },
    );
    expect(decodeRecord(valid).turn?.state).toBe('running');
  });

  it('decodeSessionFile takes any text (and any JSON) without crashing', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ unit: 'binary' }),
          fc.json(),
          fc.jsonValue().map((v) => JSON.stringify({ session: v, codeagentCliSession: v })),
        ),
        (text) => readsOrRefuses(() => decodeSessionFile(text, 'f', new Date())),
      ),
      { numRuns: 500 },
    );
  });

  it('decodeRow takes any row without crashing', () => {
    const cell = fc.oneof(fc.string(), fc.json(), fc.integer(), fc.constant(null), fc.double());
    const row = fc.record({
      id: cell,
      version: cell,
      title: cell,
      created_at: cell,
      updated_at: cell,
      meta: cell,
      turn_state: cell,
      pending_count: cell,
      head: cell,
      agent: cell,
      ui: cell,
    });
    fc.assert(
      fc.property(row, fc.array(fc.record({ data: cell }), { maxLength: 3 }), (r, steps) =>
        readsOrRefuses(() => decodeRow(r, steps)),
      ),
      {
        numRuns: 500,
      },
    );
  });

  it('deeply nested and huge stored documents are read or refused, never a stack overflow', () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const row = {
      id: 'deep',
      version: 1,
      title: '"t"',
      created_at: '2026-01-01T00:00:00.000Z',
      updated_at: '2026-01-01T00:00:00.000Z',
      meta: '{}',
      turn_state: null,
      pending_count: 0,
      head: '{"turn":null,"pending":[]}',
      agent: deep,
      ui: JSON.stringify('x'.repeat(20_000_000)),
    };
    readsOrRefuses(() => decodeRow(row, []));
    readsOrRefuses(() => decodeSessionFile(`{"session":${deep}}`, 'deep', new Date()));
  });
});

describe('round trips through a real store', () => {
  const title = fc.string({ unit: 'binary', maxLength: 200 });
  const meta = fc.dictionary(
    fc.stringMatching(/^[a-z][a-z0-9_]{0,10}$/),
    fc.string({ unit: 'binary', maxLength: 50 }),
    { maxKeys: 5 },
  );
  const doc = fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.parse(JSON.stringify(v)));

  it('SQLite keeps whatever it accepted, exactly', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(title, meta, doc, doc, async (t, m, agent, ui) => {
        const id = `r${n++}`;
        const made = await store.create({ id, title: t, meta: m, agent, ui });
        expect(await store.get(id)).toEqual(made);
        expect(made).toMatchObject({ title: t, meta: m, agent, ui });
      }),
      { numRuns: 150 },
    );
    await store.close();
  });

  it('JSON files keep whatever they accepted, exactly', async () => {
    const store = await createJsonFileStore({ dir: await mkdtemp(join(tmpdir(), 'store-prop-')) });
    let n = 0;
    await fc.assert(
      fc.asyncProperty(title, meta, doc, async (t, m, agent) => {
        const id = `r${n++}`;
        const made = await store.create({ id, title: t, meta: m, agent });
        expect(await store.get(id)).toEqual(made);
      }),
      { numRuns: 60 },
    );
  });

  it('a document too deep to write is INVALID_INPUT, not a crash', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    let deep: unknown = [];
    for (let i = 0; i < 20_000; i++) deep = [deep];
    try {
      await store.create({ id: 'deep', title: 't', agent: deep as never });
      expect((await store.get('deep'))?.id).toBe('deep');
    } catch (error) {
      expect(isSessionStoreError(error, 'invalid-input')).toBe(true);
    }
    await store.close();
  });
});

/** A valid record with no documents (the tests below put theirs in). */
const near: SessionRecord = {
  id: 's1',
  version: 1,
  title: 't',
  createdAt: new Date(0).toISOString(),
  updatedAt: new Date(0).toISOString(),
  meta: {},
  agent: null,
  ui: null,
  turn: null,
  pending: [],
};

describe('a document held as its text', () => {
  it('is stored as the text it was checked with, and the returned record decodes the same value once', async () => {
    const { documentCopy, storedJson, withDecodedDocuments } = await import('../src/codec.js');
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const held = documentCopy(value, 'agent', 's1');
        expect(storedJson(held, 'agent')).toBe(JSON.stringify(value));
        const record = withDecodedDocuments({ ...near, agent: held, ui: null });
        expect(record.agent).toEqual(JSON.parse(JSON.stringify(value)));
        expect(record.agent).toBe(record.agent);
        expect(JSON.parse(JSON.stringify(record)).agent).toEqual(record.agent);
      }),
    );
  });

  it('refuses what JSON cannot write with invalid-input, and a damaged stored text with invalid-data where read', async () => {
    const { documentCopy, StoredText, withDecodedDocuments } = await import('../src/codec.js');
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    for (const bad of [cyclic, { n: 1n }]) {
      try {
        documentCopy(bad, 'agent', 's1');
        expect.unreachable();
      } catch (error) {
        expect(isSessionStoreError(error, 'invalid-input')).toBe(true);
      }
    }
    const damaged = withDecodedDocuments({
      ...near,
      agent: new StoredText('{"cut', 's1') as unknown as JsonValue,
      ui: null,
    });
    expect(() => damaged.agent).toThrow(/stored session "s1" is damaged: agent is not valid JSON/);
  });
});

describe('sqlite: a step saved on a session with a snapshot', () => {
  it('keeps the snapshot as stored and returns it intact, without writing it again', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'store-lazy-')), 'sessions.db');
    const store = await createSqliteStore({ path });
    const agent = {
      version: 1,
      messages: Array.from({ length: 50 }, (_, i) => ({ role: 'user', content: `m${i}` })),
    };
    let record = await store.create({ title: 't', meta: {} });
    record = await store.update(record.id, record.version, { agent, ui: ['a'] });
    const begun = await store.beginTurn(record.id, record.version, { owner: 'me', prompt: 'go' });
    const turnId = begun.turn?.id ?? '';
    const stepped = await store.appendStep(record.id, { turnId, seq: 0, step: { n: 0 } });
    // The returned record reads like a plain one: its documents, a spread, JSON, a structured clone.
    expect(stepped.agent).toEqual(agent);
    expect(stepped.ui).toEqual(['a']);
    expect({ ...stepped }.agent).toEqual(agent);
    expect(JSON.parse(JSON.stringify(stepped)).agent).toEqual(agent);
    expect(structuredClone(stepped).agent).toEqual(agent);
    const again = await store.appendStep(record.id, { turnId, seq: 0, step: { n: 0 } });
    expect(again.agent).toEqual(agent);
    const ended = await store.endTurn(record.id, { turnId, state: 'interrupted' });
    expect(ended.turn?.steps).toEqual([{ n: 0 }]);
    await store.close();
    // What another connection reads is the snapshot as written, never a placeholder.
    const db = new Database(path, { readonly: true });
    const row = db.prepare('SELECT agent, ui FROM codeagent_sessions WHERE id = ?').get(record.id) as {
      agent: string;
      ui: string;
    };
    db.close();
    expect(JSON.parse(row.agent)).toEqual(agent);
    expect(JSON.parse(row.ui)).toEqual(['a']);
    const reopened = await createSqliteStore({ path });
    expect((await reopened.get(record.id))?.agent).toEqual(agent);
    await reopened.close();
  });
});

describe('sqlite: the documents a process remembers', () => {
  it('are never the ones another process replaced, also for a session deleted and created again', async () => {
    const path = join(await mkdtemp(join(tmpdir(), 'store-cache-')), 'sessions.db');
    // One frozen clock: the re-created row has the same version and the same times as the one I wrote last.
    const now = () => new Date(0);
    const mine = await createSqliteStore({ path, now });
    const theirs = await createSqliteStore({ path, now });
    let r = await mine.create({ id: 's1', title: 't', meta: {} });
    r = await mine.update('s1', r.version, { agent: { by: 'me' } });
    // Another process replaces the snapshot: my next write keeping it returns (and keeps) theirs.
    const t = await theirs.update('s1', r.version, { agent: { by: 'them' } });
    const renamed = await mine.update('s1', t.version, { title: 'renamed' });
    expect(renamed.agent).toEqual({ by: 'them' });
    // Deleted and created again elsewhere at the same version number as the row I wrote last.
    await mine.update('s1', renamed.version, { agent: { by: 'me again' } });
    await theirs.delete('s1');
    let again = await theirs.create({ id: 's1', title: 'new', meta: {} });
    while (again.version < renamed.version + 1)
      again = await theirs.update('s1', again.version, { agent: { by: 'new them' } });
    const kept = await mine.update('s1', again.version, { title: 'mine now' });
    expect(kept.agent).toEqual({ by: 'new them' });
    expect((await theirs.get('s1'))?.agent).toEqual({ by: 'new them' });
    await Promise.all([mine.close(), theirs.close()]);
  });
});
