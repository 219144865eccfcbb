import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createJsonFileStore, type SessionStore } from '../src/index.js';
import { rejects, storeSuite } from './suite.js';

let dir = '';
storeSuite('json-files', {
  async open(options) {
    dir = await mkdtemp(join(tmpdir(), 'store-json-'));
    return createJsonFileStore({ dir, ...options });
  },
  reopen: () => createJsonFileStore({ dir }),
});

describe('json-files: files on disk', () => {
  const fresh = async (): Promise<[SessionStore, string]> => {
    const d = await mkdtemp(join(tmpdir(), 'store-json-'));
    return [await createJsonFileStore({ dir: d }), d];
  };

  it('reads the CLI session files of earlier versions (format 1) and rewrites them in format 2', async () => {
    const [store, d] = await fresh();
    await writeFile(
      join(d, 'old-1.json'),
      JSON.stringify({
        codeagentCliSession: 1,
        title: 'old one',
        cwd: '/w',
        model: 'm',
        session: { version: 1, messages: [] },
      }),
    );
    const r = await store.get('old-1');
    expect(r).toMatchObject({
      version: 1,
      title: 'old one',
      meta: { cwd: '/w', model: 'm' },
      agent: { version: 1, messages: [] },
    });
    await store.update('old-1', 1, { title: 'new' });
    const text = JSON.parse(await readFile(join(d, 'old-1.json'), 'utf8'));
    expect(text).toMatchObject({
      codeagentCliSession: 2,
      id: 'old-1',
      version: 2,
      title: 'new',
      session: { version: 1 },
    });
  });

  it('lists damaged files with the reason and never hides them; reading one is INVALID_DATA', async () => {
    const [store, d] = await fresh();
    await store.create({ id: 'good', title: 'fine' });
    const cases: Record<string, string> = {
      garbage: '{not json',
      array: '[1,2]',
      nosession: '{"title":"x"}',
      future: JSON.stringify({ codeagentCliSession: 99, session: {} }),
      badstate: JSON.stringify({
        codeagentCliSession: 2,
        id: 'badstate',
        version: 1,
        title: 't',
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
        meta: {},
        session: null,
        turn: { id: 'x', state: 'exploded', steps: [] },
      }),
      otherid: JSON.stringify({
        codeagentCliSession: 2,
        id: 'someone',
        version: 1,
        title: 't',
        createdAt: '2026-01-01T00:00:00Z',
        updatedAt: '2026-01-01T00:00:00Z',
        meta: {},
        session: null,
      }),
    };
    for (const [id, text] of Object.entries(cases)) await writeFile(join(d, `${id}.json`), text);
    const list = await store.list();
    expect(list).toHaveLength(7);
    expect(list.find((s) => s.id === 'good')?.damaged).toBeNull();
    const reasons = Object.fromEntries(list.filter((s) => s.damaged).map((s) => [s.id, s.damaged]));
    expect(reasons).toEqual({
      garbage: 'not valid JSON',
      array: 'not a codeagent session file',
      nosession: 'not a codeagent session file',
      future: 'written by a newer codeagent (format 99; this one reads up to 2)',
      badstate: 'turn.state must be one of running, interrupted, done',
      otherid: 'it names another id "someone"',
    });
    for (const id of Object.keys(cases)) await rejects(store.get(id), 'invalid-data');
    // A damaged file is never overwritten by a write that did not read it.
    await rejects(store.update('garbage', 1, { title: 'x' }), 'invalid-data');
    expect(await readFile(join(d, 'garbage.json'), 'utf8')).toBe('{not json');
  });

  it('a file over the size limit is damaged, not read', async () => {
    const d = await mkdtemp(join(tmpdir(), 'store-json-'));
    const store = await createJsonFileStore({ dir: d, maxRecordBytes: 1024 });
    await writeFile(join(d, 'huge.json'), JSON.stringify({ session: 'x'.repeat(4096) }));
    expect((await store.list())[0]?.damaged).toBe('larger than 1024 bytes');
  });

  it('refuses a folder written by a newer store or left mid-migration', async () => {
    const d = await mkdtemp(join(tmpdir(), 'store-json-'));
    await writeFile(join(d, '.codeagent-store.json'), '{"codeagentSessionStore": 7}');
    await rejects(createJsonFileStore({ dir: d }), 'schema-too-new');
    await writeFile(join(d, '.codeagent-store.json'), '{"codeagentSessionStore": 1, "migrating": "to 2"}');
    const e = await rejects(createJsonFileStore({ dir: d }), 'migration-incomplete');
    expect(e.message).toMatch(/did not finish/);
  });

  it('takes over the lock of a writer that died', async () => {
    const [store, d] = await fresh();
    await store.create({ id: 'l', title: 'x' });
    await writeFile(join(d, 'l.lock'), `999999999@${(await import('node:os')).hostname()} abc`);
    expect((await store.update('l', 1, { title: 'y' })).version).toBe(2);
  });
});
