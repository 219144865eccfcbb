import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import {
  isSessionStoreError,
  type SessionChange,
  type SessionStore,
  type SessionStoreError,
  staleRunningTurn,
  type StoredApproval,
} from '../src/index.js';

/** What each implementation gives the shared suite. */
export interface Harness {
  /** A new, empty store (with `maxRecordBytes` when given). */
  open(options?: { maxRecordBytes?: number }): Promise<SessionStore>;
  /** Another store on the same data as the last `open` (a second process or instance). */
  reopen(): Promise<SessionStore>;
}

async function rejects(p: Promise<unknown>, code: SessionStoreError['code']): Promise<SessionStoreError> {
  try {
    await p;
  } catch (error) {
    if (!isSessionStoreError(error)) throw error;
    expect(error.code, error.message).toBe(code);
    return error;
  }
  throw new Error(`expected a ${code} error`);
}

const approval = (approvalId: string): StoredApproval => ({
  approvalId,
  toolCallId: `call-${approvalId}`,
  toolName: 'Bash',
  input: { command: 'rm -rf build' },
  requestedAt: '2026-01-01T00:00:00.000Z',
  answer: null,
});

/** The one suite every implementation passes. */
export function storeSuite(name: string, harness: Harness): void {
  describe(`${name}: the shared store suite`, () => {
    const opened: SessionStore[] = [];
    const open = async (options?: { maxRecordBytes?: number }) => {
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

    it('creates, reads back and lists a session at version 1', async () => {
      const store = await open();
      const made = await store.create({
        id: 's1',
        title: 'First',
        meta: { cwd: '/work', mode: 'default' },
        agent: { version: 1, messages: [{ role: 'user', content: 'hi' }] },
        ui: [{ id: 'm1', role: 'user', parts: [] }],
      });
      expect(made).toMatchObject({ id: 's1', version: 1, title: 'First', turn: null, pending: [] });
      expect(await store.get('s1')).toEqual(made);
      const generated = await store.create({ title: 'Second' });
      expect(generated.id).toMatch(/^[0-9a-f-]{36}$/);
      const list = await store.list();
      expect(list.map((s) => s.id).sort()).toEqual([generated.id, 's1'].sort());
      expect(list.find((s) => s.id === 's1')).toMatchObject({
        version: 1,
        title: 'First',
        meta: { cwd: '/work', mode: 'default' },
        turnState: null,
        pendingCount: 0,
        damaged: null,
      });
      expect(await store.get('missing')).toBeUndefined();
      await rejects(store.create({ id: 's1', title: 'again' }), 'exists');
    });

    it('a write at a stale version is a CONFLICT naming both versions, and changes nothing', async () => {
      const store = await open();
      await store.create({ id: 'c', title: 'a' });
      const v2 = await store.update('c', 1, { title: 'b', meta: { k: 'v' } });
      expect(v2).toMatchObject({ version: 2, title: 'b', meta: { k: 'v' } });
      const error = await rejects(store.update('c', 1, { title: 'lost' }), 'conflict');
      expect(error.conflict).toEqual({ expectedVersion: 1, actualVersion: 2 });
      expect(error.message).toMatch(/changed by another writer/);
      expect((await store.get('c'))?.title).toBe('b');
      await rejects(store.update('nope', 1, { title: 'x' }), 'not-found');
    });

    it('of ten writers racing from the same version exactly one wins; the others get CONFLICT', async () => {
      const store = await open();
      const other = await reopen();
      await store.create({ id: 'race', title: 'start' });
      const results = await Promise.allSettled(
        Array.from({ length: 10 }, (_, i) => (i % 2 ? other : store).update('race', 1, { title: `w${i}` })),
      );
      const won = results.filter((r) => r.status === 'fulfilled');
      expect(won).toHaveLength(1);
      for (const r of results)
        if (r.status === 'rejected') expect(isSessionStoreError(r.reason, 'conflict')).toBe(true);
      const stored = await store.get('race');
      expect(stored?.version).toBe(2);
      expect(stored?.title).toBe((won[0] as PromiseFulfilledResult<{ title: string }>).value.title);
    });

    it('runs a turn: steps saved one by one, a retried step is a no-op, a rename does not fail the turn', async () => {
      const store = await open();
      const s = await store.create({ id: 't', title: 'turns' });
      const begun = await store.beginTurn('t', s.version, {
        turnId: 'turn-1',
        owner: 'me',
        prompt: 'do it',
        title: 'do it',
        agent: { messages: [] },
      });
      expect(begun).toMatchObject({ title: 'do it', agent: { messages: [] }, version: 2 });
      expect(begun.turn).toMatchObject({
        id: 'turn-1',
        state: 'running',
        owner: 'me',
        prompt: 'do it',
        steps: [],
      });
      await rejects(store.beginTurn('t', begun.version, { owner: 'other', prompt: 'x' }), 'conflict');
      const one = await store.appendStep('t', { turnId: 'turn-1', seq: 0, step: { messages: [1] } });
      // Someone renames the session while the turn runs: the turn's next step still lands.
      await store.update('t', one.version, { title: 'renamed' });
      const two = await store.appendStep('t', { turnId: 'turn-1', seq: 1, step: { messages: [2] } });
      expect(two.turn?.steps).toEqual([{ messages: [1] }, { messages: [2] }]);
      expect(two.title).toBe('renamed');
      const again = await store.appendStep('t', { turnId: 'turn-1', seq: 1, step: { messages: [2] } });
      expect(again.version).toBe(two.version);
      await rejects(
        store.appendStep('t', { turnId: 'turn-1', seq: 1, step: { messages: ['other'] } }),
        'conflict',
      );
      await rejects(store.appendStep('t', { turnId: 'turn-1', seq: 5, step: {} }), 'conflict');
      await rejects(store.appendStep('t', { turnId: 'turn-0', seq: 2, step: {} }), 'conflict');
      expect((await reopen().then((o) => o.get('t')))?.turn?.steps).toHaveLength(2);
      const ended = await store.endTurn('t', {
        turnId: 'turn-1',
        state: 'done',
        agent: { messages: ['all'] },
      });
      expect(ended.turn).toMatchObject({ state: 'done', steps: [] });
      expect(ended.agent).toEqual({ messages: ['all'] });
      await rejects(store.appendStep('t', { turnId: 'turn-1', seq: 2, step: {} }), 'conflict');
      expect((await store.list())[0]?.turnState).toBe('done');
    });

    it('an interrupted turn keeps its steps; a turn whose process died is found stale', async () => {
      const store = await open();
      const s = await store.create({ id: 'i', title: 'x' });
      const dead = spawnSync(process.execPath, ['-e', '0']).pid;
      const begun = await store.beginTurn('i', s.version, {
        turnId: 'k',
        owner: `${dead}@${hostname()}`,
        prompt: 'p',
      });
      await store.appendStep('i', { turnId: 'k', seq: 0, step: 'step 0' });
      const read = await reopen().then((o) => o.get('i'));
      expect(read && staleRunningTurn(read)?.id).toBe('k');
      expect(staleRunningTurn(begun, () => true)).toBeNull();
      const ended = await store.endTurn('i', { turnId: 'k', state: 'interrupted' });
      expect(ended.turn).toMatchObject({ state: 'interrupted', steps: ['step 0'] });
      expect(staleRunningTurn(ended)).toBeNull();
      // A host that folded the steps into its snapshot forgets the turn; a running one cannot be forgotten.
      const folded = await store.update('i', ended.version, { agent: ['folded'], turn: null });
      expect(folded.turn).toBeNull();
      expect((await reopen().then((o) => o.get('i')))?.turn).toBeNull();
      // The next turn starts clean.
      const next = await store.beginTurn('i', folded.version, { turnId: 'k2', owner: null, prompt: 'q' });
      await rejects(store.update('i', next.version, { turn: null }), 'conflict');
      expect(next.turn?.steps).toEqual([]);
      expect((await reopen().then((o) => o.get('i')))?.turn).toMatchObject({ id: 'k2', steps: [] });
    });

    it('stores approvals any instance can answer, once', async () => {
      const store = await open();
      const other = await reopen();
      const s = await store.create({ id: 'a', title: 'x' });
      await store.update('a', s.version, { pending: [approval('p1'), approval('p2')] });
      expect((await other.list())[0]?.pendingCount).toBe(2);
      const answered = await other.answerApproval('a', 'p1', {
        approved: true,
        reason: 'codeagent:allow-always',
      });
      expect(answered.pending[0]?.answer).toMatchObject({ approved: true, reason: 'codeagent:allow-always' });
      expect((await store.list())[0]?.pendingCount).toBe(1);
      await rejects(store.answerApproval('a', 'p1', { approved: false, reason: null }), 'conflict');
      await rejects(store.answerApproval('a', 'nope', { approved: true, reason: null }), 'not-found');
      const race = await Promise.allSettled([
        store.answerApproval('a', 'p2', { approved: true, reason: null }),
        other.answerApproval('a', 'p2', { approved: false, reason: null }),
      ]);
      expect(race.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const stored = await store.get('a');
      expect(stored?.pending.every((p) => p.answer !== null)).toBe(true);
    });

    it('hands a running turn to a new owner at the version read: of two racing instances one wins', async () => {
      const store = await open();
      const other = await reopen();
      const s = await store.create({ id: 'o', title: 'x' });
      await rejects(store.update('o', s.version, { owner: 'web:b' }), 'conflict');
      const begun = await store.beginTurn('o', s.version, { turnId: 't', owner: 'web:a', prompt: 'p' });
      const stepped = await store.appendStep('o', { turnId: 't', seq: 0, step: { parked: true } });
      const race = await Promise.allSettled([
        store.update('o', stepped.version, { owner: 'web:b', pending: [] }),
        other.update('o', stepped.version, { owner: 'web:c', pending: [] }),
      ]);
      expect(race.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
      const now = await other.get('o');
      const winner = race[0].status === 'fulfilled' ? 'web:b' : 'web:c';
      // The turn, its id and its steps stay; only the owner changed.
      expect(now?.turn).toMatchObject({
        id: 't',
        state: 'running',
        owner: winner,
        steps: [{ parked: true }],
      });
      expect(begun.turn?.owner).toBe('web:a');
      const ended = await store.endTurn('o', { turnId: 't', state: 'done' });
      await rejects(store.update('o', ended.version, { owner: 'web:d' }), 'conflict');
    });

    it('deletes only at the version named; deleting nothing is false', async () => {
      const store = await open();
      await store.create({ id: 'd', title: 'x' });
      await store.update('d', 1, { title: 'y' });
      await rejects(store.delete('d', 1), 'conflict');
      expect(await store.delete('d', 2)).toBe(true);
      expect(await store.get('d')).toBeUndefined();
      expect(await store.delete('d')).toBe(false);
      await store.create({ id: 'd', title: 'new life' });
      expect((await store.get('d'))?.version).toBe(1);
    });

    it('lists newest first, filters on metadata, honours a limit', async () => {
      let t = Date.parse('2026-01-01T00:00:00Z');
      const store = await open();
      for (const [id, cwd] of [
        ['old', '/a'],
        ['mid', '/b'],
        ['new', '/a'],
      ] as const) {
        await store.create({ id, title: id, meta: { cwd } });
        t += 1000;
        await new Promise((r) => setTimeout(r, 5));
      }
      expect(t).toBeGreaterThan(0);
      expect((await store.list()).map((s) => s.id)).toEqual(['new', 'mid', 'old']);
      expect((await store.list({ meta: { cwd: '/a' } })).map((s) => s.id)).toEqual(['new', 'old']);
      expect((await store.list({ limit: 1 })).map((s) => s.id)).toEqual(['new']);
      await store.update('old', 1, { title: 'touched' });
      expect((await store.list())[0]?.id).toBe('old');
    });

    it('refuses what it cannot store, with INVALID_INPUT, and stores nothing', async () => {
      const store = await open();
      for (const id of ['', '../etc', 'a/b', '.hidden', 'x'.repeat(129), 'nul\u0000']) {
        await rejects(store.create({ id, title: 'x' }), 'invalid-input');
      }
      const cyclic: Record<string, unknown> = {};
      cyclic.self = cyclic;
      await rejects(store.create({ id: 'cyc', title: 'x', agent: cyclic as never }), 'invalid-input');
      await rejects(store.create({ id: 'big', title: 'x', agent: { n: 10n } as never }), 'invalid-input');
      await rejects(store.create({ id: 'long', title: 'x'.repeat(1001) }), 'invalid-input');
      await rejects(store.create({ id: 'meta', title: 'x', meta: { 'bad key': 'v' } }), 'invalid-input');
      await rejects(store.create({ id: 'meta2', title: 'x', meta: { k: 1 as never } }), 'invalid-input');
      await rejects(store.update('cyc', 0, {}), 'invalid-input');
      expect(await store.list()).toEqual([]);
    });

    it('keeps any text exactly: NUL, lone surrogates, bidi controls, escapes, emoji', async () => {
      const store = await open();
      const nasty = `a\u0000b\ud800c\udfffd\u202e\u2066e\u001b[31mf😀g\r\n'"\\\`$\{x}`;
      const made = await store.create({
        id: 'u',
        title: nasty,
        meta: { k: nasty },
        agent: { [nasty]: [nasty, { deep: nasty }] },
        ui: nasty,
      });
      const read = await reopen().then((o) => o.get('u'));
      expect(read).toEqual(made);
      expect((await store.list())[0]?.title).toBe(nasty);
    });

    it('stores a 5 MB record and refuses one over the limit with TOO_LARGE', async () => {
      const store = await open({ maxRecordBytes: 8 * 1024 * 1024 });
      const big = 'x'.repeat(5 * 1024 * 1024);
      await store.create({ id: 'big', title: 'big', agent: { big } });
      const stored = (await store.get('big'))?.agent as { big: string } | undefined;
      expect(stored?.big.length).toBe(big.length);
      await rejects(store.update('big', 1, { ui: big + big }), 'too-large');
      expect((await store.get('big'))?.version).toBe(1);
    });

    it('keeps everything across a reopen', async () => {
      const store = await open();
      const s = await store.create({ id: 'p', title: 'kept', agent: [1, 2, 3] });
      const t = await store.beginTurn('p', s.version, { turnId: 'tt', owner: 'o', prompt: { text: 'p' } });
      await store.appendStep('p', { turnId: 'tt', seq: 0, step: { ok: true } });
      const mine = await store.get('p');
      await store.close();
      opened.splice(opened.indexOf(store), 1);
      const again = await reopen();
      expect(await again.get('p')).toEqual(mine);
      expect(t.version).toBe(2);
    });

    it('reports its own committed writes to subscribers', async () => {
      const store = await open();
      const seen: SessionChange[] = [];
      const off = store.subscribe((c) => seen.push(c));
      await store.create({ id: 'n', title: 'x' });
      await store.update('n', 1, { title: 'y' });
      await store.delete('n');
      const deadline = Date.now() + 5000;
      while (seen.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      off();
      expect(seen).toEqual([
        { id: 'n', version: 1 },
        { id: 'n', version: 2 },
        { id: 'n', version: null },
      ]);
    });
  });
}

/** Rejects helper, shared with the implementation tests. */
export { rejects };
