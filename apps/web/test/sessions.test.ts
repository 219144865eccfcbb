import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { parseWebArgs, resolveHostConfig } from '../src/server/config.ts';
import { openSessionStore } from '../src/server/store.ts';
import { startTestHost } from './helpers.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function host(dir?: string) {
  const started = await startTestHost(dir ? { dir } : {});
  cleanups.push(started.dispose);
  const h = started.host;
  const headers = { Authorization: `Bearer ${h.token}`, 'Content-Type': 'application/json' };
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${h.origin}${path}`, {
      method,
      headers,
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    return { status: res.status, json: res.status === 204 ? null : await res.json().catch(() => null) };
  };
  // The AI SDK's own client transport, as useChat uses it.
  const send = async (id: string, messages: UIMessage[]) => {
    const transport = new DefaultChatTransport({ api: `${h.origin}/api/sessions/${id}/chat`, headers });
    const stream = await transport.sendMessages({
      chatId: id,
      messages,
      trigger: 'submit-message',
      messageId: undefined,
      abortSignal: undefined,
    });
    const last = messages.at(-1);
    let message: UIMessage | undefined;
    for await (const m of readUIMessageStream({
      stream,
      ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}),
    }))
      message = m;
    return message as UIMessage;
  };
  return { h, api, send, dir: started.dir };
}

describe('the session API', () => {
  it('creates, lists, renames, switches mode and deletes sessions', async () => {
    const { api } = await host();
    const a = await api('POST', '/api/sessions', {});
    expect(a.status).toBe(201);
    const b = await api('POST', '/api/sessions', { title: 'Second' });
    expect((await api('GET', '/api/sessions')).json.map((s: { title: string }) => s.title).sort()).toEqual([
      'New session',
      'Second',
    ]);
    expect((await api('PATCH', `/api/sessions/${a.json.id}`, { title: 'Renamed' })).json.title).toBe(
      'Renamed',
    );
    expect((await api('PATCH', `/api/sessions/${a.json.id}`, { mode: 'plan' })).json.mode).toBe('plan');
    expect((await api('PATCH', `/api/sessions/${a.json.id}`, { mode: 'yolo' })).status).toBe(400);
    expect((await api('PATCH', `/api/sessions/${a.json.id}`, { title: '' })).status).toBe(400);
    expect((await api('GET', `/api/sessions/${a.json.id}`)).json).toMatchObject({
      mode: 'plan',
      messages: [],
    });
    expect((await api('DELETE', `/api/sessions/${b.json.id}`)).status).toBe(204);
    expect((await api('DELETE', `/api/sessions/${b.json.id}`)).status).toBe(404);
    expect((await api('GET', '/api/sessions/..%2f..%2fetc')).status).toBe(404);
    expect((await api('GET', `/api/sessions/${'x'.repeat(200)}`)).status).toBe(404);
    expect((await api('POST', `/api/sessions/${a.json.id}/chat`, { messages: 'no' })).status).toBe(400);
  });

  it('streams a turn to the AI SDK transport, parks at the approval, resumes, and persists across a restart', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'codeagent-web-restart-'));
    const first = await host(dir);
    const id = (await first.api('POST', '/api/sessions', {})).json.id as string;
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Tour, please' }] };
    let message = await first.send(id, [user]);
    const waiting = (m: UIMessage) =>
      m.parts.flatMap((p) =>
        p.type === 'dynamic-tool' && p.state === 'approval-requested' ? [p.toolName] : [],
      );
    expect(waiting(message)[0]).toBe('Edit');
    // The first user message named the session.
    expect((await first.api('GET', '/api/sessions')).json[0].title).toBe('Tour, please');
    // A reload sees the waiting approval from storage.
    const stored = (await first.api('GET', `/api/sessions/${id}`)).json;
    expect(stored.pending.length).toBe(waiting(message).length);
    expect(
      stored.messages.at(-1).parts.filter((p: { state?: string }) => p.state === 'approval-requested'),
    ).toHaveLength(waiting(message).length);
    // Approve Edit, deny Write, the way addToolApprovalResponse marks the parts, until Bash asks.
    for (let round = 0; round < 4 && !waiting(message).includes('Bash'); round++) {
      const answered = structuredClone(message);
      for (const p of answered.parts) {
        if (p.type !== 'dynamic-tool' || p.state !== 'approval-requested') continue;
        Object.assign(p, {
          state: 'approval-responded',
          approval: { id: p.approval.id, approved: p.toolName === 'Edit' },
        });
      }
      message = await first.send(id, [user, answered]);
    }
    const state = (name: string) =>
      message.parts.flatMap((p) => (p.type === 'dynamic-tool' && p.toolName === name ? [p.state] : []));
    expect(state('Edit')).toEqual(['output-available']);
    expect(state('Write')).toEqual(['output-denied']);
    expect(waiting(message)).toEqual(['Bash']);

    // Stop and start again on the same database: the history is there, the Bash approval still waits (ADR 0210).
    await cleanups.pop()?.();
    cleanups.push(() => rm(dir, { recursive: true, force: true }));
    const second = await host(dir);
    const after = (await second.api('GET', `/api/sessions/${id}`)).json;
    expect(after.messages).toHaveLength(2);
    const parts = after.messages[1].parts as Array<{ type: string; toolName?: string; state?: string }>;
    expect(parts.find((p) => p.toolName === 'Edit')?.state).toBe('output-available');
    expect(parts.filter((p) => p.toolName === 'Bash').map((p) => p.state)).toEqual(['approval-requested']);
    expect(after.pending).toHaveLength(1);
    expect(after.busy).toBe(false);
    // Approving it on the restarted server runs that Bash call and the tour goes on in the same message.
    const restored = after.messages[1] as UIMessage;
    const answered = structuredClone(restored);
    for (const p of answered.parts)
      if (p.type === 'dynamic-tool' && p.state === 'approval-requested')
        Object.assign(p, { state: 'approval-responded', approval: { id: p.approval.id, approved: true } });
    const resumed = await second.send(id, [user, answered]);
    expect(resumed.id).toBe(restored.id);
    const bash = resumed.parts.filter((p) => p.type === 'dynamic-tool' && p.toolName === 'Bash');
    expect(bash[0]?.type === 'dynamic-tool' && bash[0].state).toBe('output-available');
    expect(resumed.parts.length).toBeGreaterThan(restored.parts.length);
  }, 60_000);
});

describe('configuration', () => {
  it('takes the workspace from --cwd, else CODEAGENT_CWD, else the start folder', () => {
    expect(parseWebArgs([], '/start', {}).cwd).toBe('/start');
    expect(parseWebArgs([], '/start', { CODEAGENT_CWD: '/env' }).cwd).toBe('/env');
    expect(parseWebArgs(['--cwd', 'rel'], '/start', { CODEAGENT_CWD: '/env' }).cwd).toBe('/start/rel');
    expect(parseWebArgs(['--port', '8080', '--demo'], '/s', {})).toMatchObject({ port: 8080, demo: true });
    expect(() => parseWebArgs(['--port', 'x'], '/s', {})).toThrow(/--port/);
    expect(() => parseWebArgs(['--cwd'], '/s', {})).toThrow(/needs a value/);
    expect(() => parseWebArgs(['--bogus'], '/s', {})).toThrow(/unknown argument/);
  });

  it('uses a configured provider from the CODEAGENT_* variables, in the given workspace', async () => {
    const config = await resolveHostConfig(
      { cwd: '/work/project', port: 0, dataDir: null, demo: false },
      {
        CODEAGENT_PROVIDER: 'openai-compatible',
        CODEAGENT_BASE_URL: 'http://127.0.0.1:9/v1',
        CODEAGENT_MODEL: 'local-model',
      },
    );
    expect(config).toMatchObject({ cwd: '/work/project', demo: false, note: null, deny: [] });
    expect(config.modelLabel).toBe('local-model (openai-compatible)');
    // Nothing configured: the demo, in a temporary copy (never the given folder), and the screen says so.
    const demo = await resolveHostConfig({ cwd: '/work/project', port: 0, dataDir: null, demo: false }, {});
    expect(demo.demo).toBe(true);
    expect(demo.cwd).not.toBe('/work/project');
    expect(demo.note).toContain('scripted demo model');
    await rm(demo.cwd, { recursive: true, force: true });
  });

  it('stores sessions in SQLite by default, through the session store', async () => {
    const opened = await openSessionStore({ database: ':memory:' });
    expect(opened.label).toBe('sqlite');
    await opened.store.create({
      id: 'a',
      title: 't',
      meta: { mode: 'default' },
      ui: [1],
      agent: { agent: 1 },
    });
    expect(await opened.store.get('a')).toMatchObject({ ui: [1], agent: { agent: 1 } });
    await expect(opened.store.get("a' OR 1=1 --")).rejects.toThrow(/invalid session id/);
    expect(await opened.ownerAlive(opened.instance)).toBe(true);
    await opened.close();
    // A closed instance of this process no longer runs its turns.
    expect(await (await openSessionStore({ database: ':memory:' })).ownerAlive(opened.instance)).toBe(false);
  });
});
