import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { recoverTurn } from '../src/journal.js';
import { resolveDataDir, SessionStore } from '../src/sessions.js';

describe('SessionStore', () => {
  it('saves, loads and lists sessions newest first', async () => {
    const store = new SessionStore(await mkdtemp(join(tmpdir(), 'cli-sessions-')));
    const a = store.newId(new Date('2026-01-01T00:00:00Z'));
    const b = store.newId(new Date('2026-01-02T00:00:00Z'));
    await store.save(a, { format: 'x', n: 1 }, 'first');
    await new Promise((r) => setTimeout(r, 20));
    await store.save(b, { format: 'x', n: 2 }, 'second');
    expect((await store.load(a)).session).toEqual({ format: 'x', n: 1 });
    expect((await store.list()).map((s) => s.title)).toEqual(['second', 'first']);
  });

  it('refuses ids that could escape the folder and explains missing or damaged files', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'cli-sessions-'));
    const store = new SessionStore(dir);
    await expect(store.save('../evil', {}, '')).rejects.toThrow(/invalid session id/);
    await expect(store.load('../evil')).rejects.toThrow(/invalid session id/);
    await expect(store.load('nope')).rejects.toThrow(/no saved session "nope"/);
    const broken = join(dir, 'broken.json');
    await writeFile(broken, '{not json');
    await expect(store.load(broken)).rejects.toThrow(/not valid JSON/);
    await writeFile(broken, '[1,2]');
    await expect(store.load(broken)).rejects.toThrow(/not a codeagent session file/);
  });

  it('reads session files of earlier CLIs and their turn journals, and rewrites them in the store format', async () => {
    const data = await mkdtemp(join(tmpdir(), 'cli-sessions-'));
    await mkdir(join(data, 'sessions'));
    const old = {
      codeagentCliSession: 1,
      title: 'old',
      cwd: '/w',
      model: 'm',
      session: { version: 1, messages: [] },
    };
    await writeFile(join(data, 'sessions', 'old-one.json'), JSON.stringify(old));
    const journal = {
      codeagentTurnJournal: 1,
      prompt: 'go',
      messages: [
        { role: 'assistant', content: [] },
        { role: 'tool', content: [] },
      ],
    };
    await writeFile(join(data, 'sessions', 'old-one.turn-journal'), JSON.stringify(journal));
    const store = new SessionStore(data);
    const loaded = await store.load('old-one');
    expect(loaded).toMatchObject({ title: 'old', meta: { cwd: '/w', model: 'm' }, interrupted: null });
    const recovered = await recoverTurn(store.journalPath('old-one'), loaded.session);
    expect(recovered?.steps).toBe(1);
    await store.save('old-one', recovered?.session, 'old', loaded.meta);
    const text = JSON.parse(await readFile(join(data, 'sessions', 'old-one.json'), 'utf8'));
    expect(text).toMatchObject({ codeagentCliSession: 2, version: 2, meta: { cwd: '/w', model: 'm' } });
    expect(text.session.messages).toHaveLength(3);
    expect(existsSync(join(data, 'sessions', 'old-one.turn-journal'))).toBe(false);
  });

  it('saves each completed step at once; a process killed mid-turn resumes with them, marked interrupted', async () => {
    const data = await mkdtemp(join(tmpdir(), 'cli-sessions-'));
    const store = new SessionStore(data);
    const id = store.newId();
    await store.save(id, { version: 1, messages: [] }, 'turns', { cwd: '/w' });
    const sink = store.turnSink(id);
    sink.begin('fix it');
    sink.step([
      { role: 'assistant', content: [{ type: 'text', text: 'step one' }] },
      { role: 'tool', content: [] },
    ]);
    sink.step([
      { role: 'assistant', content: [{ type: 'text', text: 'step two' }] },
      { role: 'tool', content: [] },
    ]);
    // Wait for the queued writes (a save does), then pretend the owner died: a pid that no longer runs.
    const file = join(data, 'sessions', `${id}.json`);
    for (let i = 0; i < 100; i++) {
      const t = JSON.parse(await readFile(file, 'utf8')).turn;
      if (t?.steps?.length === 2) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    const raw = JSON.parse(await readFile(file, 'utf8'));
    raw.turn.owner = `${spawnSync(process.execPath, ['-e', '0']).pid}@${hostname()}`;
    await writeFile(file, JSON.stringify(raw));
    const next = new SessionStore(data);
    expect((await next.list())[0]?.interrupted).toBe(true);
    const loaded = await next.load(id);
    expect(loaded.interrupted).toEqual({ steps: 2 });
    expect(JSON.stringify((loaded.session as { messages: unknown[] }).messages)).toMatch(
      /fix it.*step one.*step two/,
    );
    await next.save(id, loaded.session, 'turns', loaded.meta);
    const again = await new SessionStore(data).load(id);
    expect(again.interrupted).toBeNull();
    expect((again.session as { messages: unknown[] }).messages).toHaveLength(5);
  });

  it('two processes on one session: the second save is refused, not a silent overwrite', async () => {
    const data = await mkdtemp(join(tmpdir(), 'cli-sessions-'));
    const a = new SessionStore(data);
    const id = a.newId();
    await a.save(id, { version: 1, messages: ['a0'] }, 't');
    const b = new SessionStore(data);
    await b.load(id);
    await a.save(id, { version: 1, messages: ['a1'] }, 't');
    await expect(b.save(id, { version: 1, messages: ['b1'] }, 't')).rejects.toThrow(
      /changed by another codeagent process since this one read it; it was not overwritten/,
    );
    expect((await new SessionStore(data).load(id)).session).toEqual({ version: 1, messages: ['a1'] });
  });

  it('picks the data dir from the flag, then CODEAGENT_HOME, then the home folder', () => {
    expect(resolveDataDir('/x', { CODEAGENT_HOME: '/y' })).toBe('/x');
    expect(resolveDataDir(null, { CODEAGENT_HOME: '/y' })).toBe('/y');
    expect(resolveDataDir(null, {})).toMatch(/\.codeagent$/);
  });
});
