import { afterEach, describe, expect, it } from 'vitest';
import type { EventLogStore, JsonValue, TurnEventsChange } from '../src/index.js';
import { rejects } from './suite.js';

/** What each SQL implementation gives the event log suite. */
export interface EventsHarness {
  /** A new, empty store (with a pinned clock when given). */
  open(options?: { now?: () => Date; maxRecordBytes?: number }): Promise<EventLogStore>;
  /** Another store on the same data as the last `open` (another instance). */
  reopen(): Promise<EventLogStore>;
  /** Runs one statement on the last `open`'s data (to plant rows a store must survive). */
  exec(sql: string, params?: unknown[]): Promise<void>;
}

const until = async (ok: () => boolean, ms = 10_000) => {
  const deadline = Date.now() + ms;
  while (!ok() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
};

/** The turn event log: the same checks for SQLite and PostgreSQL. */
export function eventsSuite(name: string, harness: EventsHarness): void {
  describe(`${name}: the turn event log`, () => {
    const opened: EventLogStore[] = [];
    const open = async (options?: Parameters<EventsHarness['open']>[0]) => {
      const s = await harness.open(options);
      opened.push(s);
      return s;
    };
    const reopen = async () => {
      const s = await harness.reopen();
      opened.push(s);
      return s;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((s) => s.close()));
    });

    /** A session `id` running turn `t1`. */
    const running = async (store: EventLogStore, id = 's') => {
      const s = await store.create({ id, title: 'events' });
      await store.beginTurn(id, s.version, { turnId: 't1', owner: 'me', prompt: 'p' });
    };

    it('appends in order and reads back after any position; another instance reads the same', async () => {
      const store = await open();
      await running(store);
      expect(await store.lastEventSeq('s', 't1')).toBe(-1);
      expect(await store.readEvents('s', { turnId: 't1' })).toEqual([]);
      expect(await store.appendEvents('s', { turnId: 't1', seq: 0, events: [{ type: 'start' }, 'a'] })).toBe(
        2,
      );
      expect(
        await store.appendEvents('s', { turnId: 't1', seq: 2, events: ['b', { n: [1, null, true] }] }),
      ).toBe(4);
      const all = await store.readEvents('s', { turnId: 't1' });
      expect(all).toEqual([
        { seq: 0, data: { type: 'start' } },
        { seq: 1, data: 'a' },
        { seq: 2, data: 'b' },
        { seq: 3, data: { n: [1, null, true] } },
      ]);
      expect((await store.readEvents('s', { turnId: 't1', after: 1 })).map((e) => e.seq)).toEqual([2, 3]);
      expect((await store.readEvents('s', { turnId: 't1', after: 0, limit: 2 })).map((e) => e.seq)).toEqual([
        1, 2,
      ]);
      expect(await store.readEvents('s', { turnId: 't1', after: 3 })).toEqual([]);
      expect(await store.lastEventSeq('s', 't1')).toBe(3);
      // Appending nothing writes nothing.
      expect(await store.appendEvents('s', { turnId: 't1', seq: 4, events: [] })).toBe(4);
      const other = await reopen();
      expect(await other.readEvents('s', { turnId: 't1', after: 2 })).toEqual([
        { seq: 3, data: { n: [1, null, true] } },
      ]);
      // Each event of a session's log is its own: another session's log is separate.
      await running(store, 's2');
      expect(await store.readEvents('s2', { turnId: 't1' })).toEqual([]);
    });

    it('a gap, an overlap, a finished or replaced turn are conflicts; the same append again is a no-op', async () => {
      const store = await open();
      await rejects(store.appendEvents('nobody', { turnId: 't1', seq: 0, events: ['x'] }), 'not-found');
      await store.create({ id: 's', title: 'x' });
      // No turn runs yet.
      await rejects(store.appendEvents('s', { turnId: 't1', seq: 0, events: ['x'] }), 'conflict');
      await store.beginTurn('s', 1, { turnId: 't1', owner: 'me', prompt: 'p' });
      await rejects(store.appendEvents('s', { turnId: 'other', seq: 0, events: ['x'] }), 'conflict');
      await store.appendEvents('s', { turnId: 't1', seq: 0, events: ['a', 'b'] });
      const gap = await rejects(store.appendEvents('s', { turnId: 't1', seq: 3, events: ['d'] }), 'conflict');
      expect(gap.message).toMatch(/would leave a gap after 2 stored events/);
      const overlap = await rejects(
        store.appendEvents('s', { turnId: 't1', seq: 1, events: ['B', 'c'] }),
        'conflict',
      );
      expect(overlap.message).toMatch(/overlap 2 stored events/);
      // A retry of exactly what is stored (a commit whose answer was lost) succeeds without writing.
      expect(await store.appendEvents('s', { turnId: 't1', seq: 0, events: ['a', 'b'] })).toBe(2);
      expect(await store.appendEvents('s', { turnId: 't1', seq: 1, events: ['b'] })).toBe(2);
      expect((await store.readEvents('s', { turnId: 't1' })).map((e) => e.data)).toEqual(['a', 'b']);
      await store.endTurn('s', { turnId: 't1', state: 'done' });
      await rejects(store.appendEvents('s', { turnId: 't1', seq: 2, events: ['late'] }), 'conflict');
      // The ended turn's log stays readable (a reader still following it reads to its end).
      expect((await store.readEvents('s', { turnId: 't1' })).map((e) => e.data)).toEqual(['a', 'b']);
    });

    it('two writers racing for one position: one wins, the other is a conflict, nothing is doubled', async () => {
      const store = await open();
      await running(store);
      const other = await reopen();
      const results = await Promise.allSettled([
        store.appendEvents('s', { turnId: 't1', seq: 0, events: ['from a'] }),
        other.appendEvents('s', { turnId: 't1', seq: 0, events: ['from b'] }),
      ]);
      expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
      const failed = results.find((r) => r.status === 'rejected') as PromiseRejectedResult;
      expect((failed.reason as { code?: string }).code).toBe('conflict');
      expect(await store.readEvents('s', { turnId: 't1' })).toHaveLength(1);
    });

    it('rejects bad input with INVALID_INPUT and oversized events with TOO_LARGE', async () => {
      const store = await open({ maxRecordBytes: 1000 });
      await running(store);
      await rejects(store.appendEvents('s', { turnId: 't1', seq: -1, events: ['x'] }), 'invalid-input');
      await rejects(store.appendEvents('s', { turnId: 't1', seq: 0.5, events: ['x'] }), 'invalid-input');
      await rejects(store.appendEvents('s', { turnId: '../t', seq: 0, events: ['x'] }), 'invalid-input');
      await rejects(store.appendEvents('bad id', { turnId: 't1', seq: 0, events: ['x'] }), 'invalid-input');
      await rejects(
        store.appendEvents('s', { turnId: 't1', seq: 0, events: Array.from({ length: 1001 }, () => 1) }),
        'invalid-input',
      );
      const cycle: Record<string, unknown> = {};
      cycle.self = cycle;
      await rejects(
        store.appendEvents('s', { turnId: 't1', seq: 0, events: [cycle as unknown as JsonValue] }),
        'invalid-input',
      );
      await rejects(
        store.appendEvents('s', { turnId: 't1', seq: 0, events: ['y'.repeat(2000)] }),
        'too-large',
      );
      await rejects(store.readEvents('s', { turnId: '' }), 'invalid-input');
      // Nothing was written by the failed calls.
      expect(await store.lastEventSeq('s', 't1')).toBe(-1);
      // A hostile position reads from the start or nothing, never an error.
      expect(await store.readEvents('s', { turnId: 't1', after: Number.NaN })).toEqual([]);
    });

    it('huge payloads round-trip, and one read is bounded: a log of large events is read over several calls', async () => {
      const store = await open();
      await running(store);
      const big = 'x'.repeat(20 * 1024 * 1024);
      await store.appendEvents('s', { turnId: 't1', seq: 0, events: [{ output: big }] });
      const [only] = await store.readEvents('s', { turnId: 't1' });
      expect((only as unknown as { data: { output: string } }).data.output.length).toBe(big.length);
      const three = 'y'.repeat(3 * 1024 * 1024);
      await store.appendEvents('s', { turnId: 't1', seq: 1, events: [three, three, three, three, 'small'] });
      const seqs: number[] = [];
      let after = 0;
      for (let reads = 0; reads < 10; reads++) {
        const batch = await store.readEvents('s', { turnId: 't1', after });
        if (batch.length === 0) break;
        expect(batch.length).toBeLessThan(5);
        seqs.push(...batch.map((e) => e.seq));
        after = batch.at(-1)?.seq as number;
      }
      expect(seqs).toEqual([1, 2, 3, 4, 5]);
    });

    it('reports appends to subscribers (another instance too, on PostgreSQL)', async () => {
      const store = await open();
      await running(store);
      const watcher = name === 'postgres' ? await reopen() : store;
      const seen: TurnEventsChange[] = [];
      const off = watcher.subscribeEvents((c) => seen.push(c));
      // A PostgreSQL listener connects in the background: append until one is seen.
      let seq = 0;
      const deadline = Date.now() + 10_000;
      while (seen.length === 0 && Date.now() < deadline) {
        seq = await store.appendEvents('s', { turnId: 't1', seq, events: ['probe'] });
        await until(() => seen.length > 0, 200);
      }
      // Late reports of the probes are dropped before the real append.
      await new Promise((r) => setTimeout(r, 300));
      seen.length = 0;
      await store.appendEvents('s', { turnId: 't1', seq, events: ['a', 'b'] });
      await until(() => seen.length > 0);
      expect(seen).toEqual([{ id: 's', turnId: 't1', seq: seq + 1 }]);
      off();
      await store.appendEvents('s', { turnId: 't1', seq: seq + 2, events: ['c'] });
      await new Promise((r) => setTimeout(r, 200));
      expect(seen).toHaveLength(1);
    });

    it('prunes finished turns after the grace time, never a running one; a new turn or a deletion drops the old log', async () => {
      let now = new Date('2026-03-01T10:00:00.000Z');
      const store = await open({ now: () => now });
      await running(store, 'done');
      await running(store, 'live');
      await store.appendEvents('done', { turnId: 't1', seq: 0, events: ['a', 'b'] });
      await store.appendEvents('live', { turnId: 't1', seq: 0, events: ['c'] });
      await store.endTurn('done', { turnId: 't1', state: 'done' });
      now = new Date('2026-03-01T10:00:30.000Z');
      expect(await store.pruneEvents({ keepMs: 60_000 })).toBe(0);
      expect(await store.readEvents('done', { turnId: 't1' })).toHaveLength(2);
      now = new Date('2026-03-01T10:05:00.000Z');
      expect(await store.pruneEvents()).toBe(2);
      expect(await store.readEvents('done', { turnId: 't1' })).toEqual([]);
      // The running turn keeps its log however old.
      expect(await store.readEvents('live', { turnId: 't1' })).toHaveLength(1);
      // A new turn replaces the old log at once.
      await store.endTurn('live', { turnId: 't1', state: 'interrupted' });
      const live = await store.get('live');
      await store.beginTurn('live', live?.version as number, { turnId: 't2', owner: 'me', prompt: 'again' });
      expect(await store.readEvents('live', { turnId: 't1' })).toEqual([]);
      await store.appendEvents('live', { turnId: 't2', seq: 0, events: ['d'] });
      expect(await store.delete('live')).toBe(true);
      expect(await store.readEvents('live', { turnId: 't2' })).toEqual([]);
      // Rows left by anything else (no such session, a turn the session does not name) are pruned too.
      await harness.exec(
        "INSERT INTO codeagent_events (session_id, turn_id, seq, data) VALUES ('ghost', 't', 0, '1'), ('done', 'old', 0, '2')",
      );
      expect(await store.pruneEvents({ keepMs: 0 })).toBe(2);
    });

    it('garbage rows are INVALID_DATA with the position, never a crash; a gap shows in the positions', async () => {
      const store = await open();
      await running(store);
      await store.appendEvents('s', { turnId: 't1', seq: 0, events: ['fine'] });
      await harness.exec(
        "INSERT INTO codeagent_events (session_id, turn_id, seq, data) VALUES ('s', 't1', 1, '{\"cut'), ('s', 't1', 5, '\"after a gap\"')",
      );
      expect(await store.readEvents('s', { turnId: 't1', limit: 1 })).toEqual([{ seq: 0, data: 'fine' }]);
      const e = await rejects(store.readEvents('s', { turnId: 't1' }), 'invalid-data');
      expect(e.message).toMatch(/stored session "s" is damaged: event 1/);
      // A reader after the damaged row sees the gap: the next position it gets is not the one it asked after.
      const next = await store.readEvents('s', { turnId: 't1', after: 1 });
      expect(next).toEqual([{ seq: 5, data: 'after a gap' }]);
      // The writer cannot write behind garbage it did not write: position 6 is next.
      await rejects(store.appendEvents('s', { turnId: 't1', seq: 2, events: ['x'] }), 'conflict');
      expect(await store.appendEvents('s', { turnId: 't1', seq: 6, events: ['x'] })).toBe(7);
    });
  });
}
