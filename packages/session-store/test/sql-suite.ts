import { describe, expect, it } from 'vitest';
import { isSessionStoreError, type SessionStore } from '../src/index.js';
import { rejects } from './suite.js';

/** A SQL database the garbage suite plants rows in. */
export interface SqlHarness {
  open(): Promise<{
    open: () => Promise<SessionStore>;
    exec: (sql: string, params?: unknown[]) => Promise<void>;
  }>;
}

/** Migrations and stored garbage: the same checks for SQLite and PostgreSQL. */
export function garbageSuite(name: string, harness: SqlHarness): void {
  describe(`${name}: migrations and damaged rows`, () => {
    it('migrates once, then refuses a newer schema and a half-applied migration with a message', async () => {
      const db = await harness.open();
      await (await db.open()).close();
      // Opening again runs nothing and works.
      await (await db.open()).close();
      await db.exec("UPDATE codeagent_schema SET state = 'applying' WHERE version = 2");
      const half = await rejects(db.open(), 'migration-incomplete');
      expect(half.message).toMatch(/migration 2 \("listing index"\) was started and not finished/);
      expect(half.message).toMatch(/Restore it from a backup/);
      await db.exec("UPDATE codeagent_schema SET state = 'applied' WHERE version = 2");
      await db.exec(
        "INSERT INTO codeagent_schema (version, name, state, applied_at) VALUES (5, 'future', 'applied', 'x')",
      );
      const newer = await rejects(db.open(), 'schema-too-new');
      expect(newer.message).toMatch(/schema version 5, newer than this codeagent \(4\); upgrade codeagent/);
    });

    it('brings an older schema up to date without touching its sessions', async () => {
      const db = await harness.open();
      const store = await db.open();
      await store.create({ id: 'kept', title: 'from v1' });
      await store.close();
      await db.exec('DROP INDEX codeagent_sessions_updated');
      await db.exec('DELETE FROM codeagent_schema WHERE version = 2');
      const again = await db.open();
      expect((await again.get('kept'))?.title).toBe('from v1');
      await again.close();
    });

    it('garbage rows are listed as damaged and read as INVALID_DATA, never a crash', async () => {
      const db = await harness.open();
      const store = await db.open();
      await store.create({ id: 'good', title: 'fine' });
      const base = {
        version: 1,
        title: '"t"',
        created_at: '2026-01-01T00:00:00.000Z',
        updated_at: '2026-01-01T00:00:00.000Z',
        meta: '{}',
        turn_state: null as string | null,
        pending_count: 0,
        head: '{"turn":null,"pending":[]}',
        agent: null as string | null,
        ui: null as string | null,
      };
      const rows: Record<string, Partial<typeof base>> = {
        badtitle: { title: '{oops' },
        numtitle: { title: '42' },
        badmeta: { meta: '[1]' },
        badhead: { head: 'garbage' },
        badstate: {
          head: '{"turn":{"id":"x","state":"exploded","steps":[]},"pending":[]}',
          turn_state: 'exploded',
        },
        badagent: { agent: '{"cut off' },
        zeroversion: { version: 0 },
        badpending: { head: '{"turn":null,"pending":[{"approvalId":5}]}' },
        hugeagent: { agent: JSON.stringify({ x: 'y'.repeat(2_000_000) }).slice(0, -1) },
      };
      for (const [id, patch] of Object.entries(rows)) {
        const r = { ...base, ...patch };
        await db.exec(
          'INSERT INTO codeagent_sessions (id, version, title, created_at, updated_at, meta, turn_state, pending_count, head, agent, ui) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)',
          [
            id,
            r.version,
            r.title,
            r.created_at,
            r.updated_at,
            r.meta,
            r.turn_state,
            r.pending_count,
            r.head,
            r.agent,
            r.ui,
          ],
        );
      }
      const reader = await db.open();
      const list = await reader.list();
      expect(list).toHaveLength(Object.keys(rows).length + 1);
      const damaged = list
        .filter((s) => s.damaged !== null)
        .map((s) => s.id)
        .sort();
      expect(damaged).toEqual(['badmeta', 'badstate', 'badtitle', 'numtitle', 'zeroversion']);
      for (const id of Object.keys(rows)) {
        const e = await rejects(reader.get(id), 'invalid-data');
        expect(e.message).toMatch(new RegExp(`stored session "${id}" is damaged: `));
      }
      expect((await reader.get('good'))?.title).toBe('fine');
      if (name === 'sqlite') {
        // A write that leaves the damaged snapshot as it was does not decode it: the returned record reports it
        // where it is read, and a read of the session still does.
        const renamed = await reader.update('badagent', 1, { title: 'x' });
        expect(renamed.title).toBe('x');
        expect(() => renamed.agent).toThrow(/stored session "badagent" is damaged: agent is not valid JSON/);
        try {
          void renamed.agent;
        } catch (error) {
          expect(isSessionStoreError(error, 'invalid-data')).toBe(true);
        }
        await rejects(reader.get('badagent'), 'invalid-data');
      } else {
        await rejects(reader.update('badagent', 1, { title: 'x' }), 'invalid-data');
      }
      await Promise.all([store.close(), reader.close()]);
    });
  });
}
