import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
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
    await expect(store.load(broken)).rejects.toThrow(/not a codeagent CLI session/);
  });

  it('picks the data dir from the flag, then CODEAGENT_HOME, then the home folder', () => {
    expect(resolveDataDir('/x', { CODEAGENT_HOME: '/y' })).toBe('/x');
    expect(resolveDataDir(null, { CODEAGENT_HOME: '/y' })).toBe('/y');
    expect(resolveDataDir(null, {})).toMatch(/\.codeagent$/);
  });
});
