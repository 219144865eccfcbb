import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createSqliteStore, SCHEMA_VERSION } from '../src/sqlite.js';
import { eventsSuite } from './events-suite.js';
import { garbageSuite } from './sql-suite.js';
import { storeSuite } from './suite.js';

let path = '';
storeSuite('sqlite', {
  async open(options) {
    path = join(await mkdtemp(join(tmpdir(), 'store-sqlite-')), 'sessions.db');
    return createSqliteStore({ path, ...options });
  },
  reopen: () => createSqliteStore({ path }),
});

garbageSuite('sqlite', {
  async open() {
    const p = join(await mkdtemp(join(tmpdir(), 'store-sqlite-')), 'sessions.db');
    return {
      open: () => createSqliteStore({ path: p }),
      exec: async (sql, params = []) => {
        const db = new Database(p);
        try {
          const statement = db.prepare(sql.replace(/\$\d+/g, '?'));
          if (statement.reader) statement.all(...params);
          else statement.run(...params);
        } finally {
          db.close();
        }
      },
    };
  },
});

let eventsPath = '';
eventsSuite('sqlite', {
  async open(options) {
    eventsPath = join(await mkdtemp(join(tmpdir(), 'store-sqlite-')), 'sessions.db');
    return createSqliteStore({ path: eventsPath, ...options });
  },
  reopen: () => createSqliteStore({ path: eventsPath }),
  exec: async (sql, params = []) => {
    const db = new Database(eventsPath);
    try {
      db.prepare(sql).run(...params);
    } finally {
      db.close();
    }
  },
});

describe('sqlite: files', () => {
  it('works in memory and reports its schema version', async () => {
    const store = await createSqliteStore({ path: ':memory:' });
    await store.create({ id: 'm', title: 'x' });
    expect((await store.list()).length).toBe(1);
    await store.close();
    expect(SCHEMA_VERSION).toBe(4);
  });

  it('a file that is not a database is a clear error', async () => {
    const p = join(await mkdtemp(join(tmpdir(), 'store-sqlite-')), 'bad.db');
    const { writeFile } = await import('node:fs/promises');
    await writeFile(p, 'this is not sqlite '.repeat(100));
    await expect(createSqliteStore({ path: p })).rejects.toThrow(
      /cannot (open|use) the SQLite database .*bad\.db/,
    );
  });
});
