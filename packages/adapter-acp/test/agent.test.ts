import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { Script } from '@codeagent/providers';
import { describe, expect, it } from 'vitest';
import {
  acpStopReason,
  createAcpAgent,
  createMemorySessionStore,
  sessionModeState,
  usageUpdate,
} from '../src/index.js';
import { promptOnce, withEditor, workspace } from './helpers.js';

const write = (file: string, content = 'x\n', toolCallId?: string) => ({
  parts: [
    {
      type: 'tool-call' as const,
      toolName: 'Write',
      input: { file_path: file, content },
      ...(toolCallId ? { toolCallId } : {}),
    },
  ],
});
const done: Script[number] = { parts: [{ type: 'text', text: 'ok' }] };

describe('permission round trips', () => {
  it('an unknown option id or a malformed answer is a rejection', async () => {
    const cwd = await workspace();
    await withEditor(
      { cwd, script: [write('a.txt'), write('b.txt'), done], answers: ['bogus', 'malformed'] },
      async (ctx, run) => {
        expect((await promptOnce(ctx, cwd, 'go')).stopReason).toBe('end_turn');
        expect(run.permissions).toHaveLength(2);
      },
    );
    expect(existsSync(join(cwd, 'a.txt'))).toBe(false);
    expect(existsSync(join(cwd, 'b.txt'))).toBe(false);
  });

  it('"allow always" is offered only with a scope, and an unoffered "allow always" answer is a rejection', async () => {
    const cwd = await workspace();
    const script: Script = [
      { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'echo $HOME > out.txt' } }] },
      done,
    ];
    await withEditor({ cwd, script, answers: ['allow_always'] }, async (ctx, run) => {
      await promptOnce(ctx, cwd, 'go');
      expect(run.permissions[0]?.options.map((o) => o.optionId)).toEqual(['allow_once', 'reject_once']);
    });
    expect(existsSync(join(cwd, 'out.txt'))).toBe(false);
  });

  it('"allow always" is not offered for protected configuration, and another path grant does not reach it', async () => {
    const cwd = await workspace();
    const script: Script = [write('.codeagent/settings.json', '{"rules":{"allow":["Bash"]}}'), done];
    await withEditor({ cwd, script, answers: ['allow_always'] }, async (ctx, run) => {
      await promptOnce(ctx, cwd, 'go');
      expect(run.permissions[0]?.options.map((o) => o.optionId)).toEqual(['allow_once', 'reject_once']);
    });
    expect(existsSync(join(cwd, '.codeagent', 'settings.json'))).toBe(false);
    // An earlier grant on a path does not cover a write there once it is protected: it asks again.
    const twice: Script = [write('notes.md'), done, write('.git/hooks/pre-commit'), done];
    await withEditor({ cwd, script: twice, answers: ['allow_always', 'reject_once'] }, async (ctx, run) => {
      await promptOnce(ctx, cwd, 'one');
      await promptOnce(ctx, cwd, 'two');
      expect(run.permissions.map((p) => p.toolCall.title)).toEqual([
        'Write notes.md',
        'Write .git/hooks/pre-commit',
      ]);
    });
    expect(existsSync(join(cwd, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('"allow always" for a path does not allow another path or another tool', async () => {
    const cwd = await workspace({ 'a.txt': 'one\n' });
    const script: Script = [
      write('a.txt', 'two\n'),
      write('a.txt', 'three\n'),
      write('b.txt', 'other\n'),
      {
        parts: [
          {
            type: 'tool-call',
            toolName: 'Edit',
            input: { file_path: 'a.txt', old_string: 'three', new_string: 'four' },
          },
        ],
      },
      done,
    ];
    await withEditor(
      { cwd, script, answers: ['allow_always', 'reject_once', 'reject_once'] },
      async (ctx, run) => {
        await promptOnce(ctx, cwd, 'go');
        expect(run.permissions.map((p) => p.toolCall.title)).toEqual([
          'Write a.txt',
          'Write b.txt',
          'Edit a.txt',
        ]);
      },
    );
    expect(await readFile(join(cwd, 'a.txt'), 'utf8')).toBe('three\n');
    expect(existsSync(join(cwd, 'b.txt'))).toBe(false);
  });

  it('grants are per session', async () => {
    const cwd = await workspace();
    await withEditor(
      { cwd, script: [write('a.txt'), done, write('a.txt'), done], answers: ['allow_always', 'reject_once'] },
      async (ctx, run) => {
        await promptOnce(ctx, cwd, 'one');
        await promptOnce(ctx, cwd, 'two');
        expect(run.permissions).toHaveLength(2);
      },
    );
  });

  it('a `cancelled` answer ends the turn with stop reason cancelled', async () => {
    const cwd = await workspace();
    await withEditor({ cwd, script: [write('a.txt'), done], answers: ['cancelled'] }, async (ctx) => {
      expect((await promptOnce(ctx, cwd, 'go')).stopReason).toBe('cancelled');
    });
    expect(existsSync(join(cwd, 'a.txt'))).toBe(false);
  });

  it('plan mode refuses writes without asking; bypass runs them; the mode change is reported', async () => {
    const cwd = await workspace();
    await withEditor({ cwd, script: [write('a.txt'), done, write('b.txt'), done] }, async (ctx, run) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'plan' });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'a' }],
      });
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'bypass' });
      await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'b' }],
      });
      expect(run.permissions).toHaveLength(0);
      expect(
        run.updates.filter((u) => u.update.sessionUpdate === 'current_mode_update').map((u) => u.update),
      ).toEqual([
        { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
        { sessionUpdate: 'current_mode_update', currentModeId: 'bypass' },
      ]);
    });
    expect(existsSync(join(cwd, 'a.txt'))).toBe(false);
    expect(existsSync(join(cwd, 'b.txt'))).toBe(true);
  });
});

describe('wire order', () => {
  it('a permission request never overtakes its tool_call or the text before it', async () => {
    const cwd = await workspace();
    const script: Script = [
      {
        parts: [
          { type: 'text', text: 'I will write two files now, one after the other, as asked.' },
          {
            type: 'tool-call',
            toolName: 'Write',
            input: { file_path: 'a.txt', content: 'a' },
            toolCallId: 'w1',
          },
          {
            type: 'tool-call',
            toolName: 'Write',
            input: { file_path: 'b.txt', content: 'b' },
            toolCallId: 'w2',
          },
        ],
        chunkSize: 3,
      },
      done,
    ];
    await withEditor({ cwd, script, answers: ['allow_once', 'allow_once'] }, async (ctx, run) => {
      await promptOnce(ctx, cwd, 'go');
      const wire = run.lines.map((l) => JSON.parse(l) as { method?: string; params?: Record<string, never> });
      const index = (pred: (m: (typeof wire)[number]) => boolean) => wire.findIndex(pred);
      const lastText = wire.findLastIndex(
        (m, i) =>
          i < index((x) => x.method === 'session/request_permission') &&
          (m.params as { update?: { sessionUpdate?: string } } | undefined)?.update?.sessionUpdate ===
            'agent_message_chunk',
      );
      for (const id of ['w1', 'w2']) {
        const call = index(
          (m) =>
            (m.params as { update?: { sessionUpdate?: string; toolCallId?: string } } | undefined)?.update
              ?.toolCallId === id,
        );
        const ask = index(
          (m) =>
            m.method === 'session/request_permission' &&
            (m.params as { toolCall?: { toolCallId?: string } }).toolCall?.toolCallId === id,
        );
        expect(call).toBeGreaterThanOrEqual(0);
        expect(ask).toBeGreaterThan(call);
        expect(ask).toBeGreaterThan(lastText);
      }
      const text = run.updates.filter((u) => u.update.sessionUpdate === 'agent_message_chunk');
      expect(text.length).toBeGreaterThan(5);
    });
  });
});

describe('sessions and turns', () => {
  it('reports usage, refuses a second prompt while one runs, and answers unknown sessions with errors', async () => {
    const cwd = await workspace();
    const slow: Script = [{ parts: [{ type: 'text', text: 'slow answer' }], delayMs: 30 }];
    await withEditor({ cwd, script: slow }, async (ctx, run) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      const first = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'a' }],
      });
      await expect(
        ctx.request(acp.methods.agent.session.prompt, { sessionId, prompt: [{ type: 'text', text: 'b' }] }),
      ).rejects.toThrow(/already running/);
      expect((await first).stopReason).toBe('end_turn');
      expect(
        run.updates.filter((u) => u.update.sessionUpdate === 'session_info_update').map((u) => u.update),
      ).toEqual([{ sessionUpdate: 'session_info_update', title: 'a' }]);
      const usage = run.updates.find((u) => u.update.sessionUpdate === 'usage_update')?.update;
      expect(usage).toMatchObject({
        sessionUpdate: 'usage_update',
        size: expect.any(Number),
        used: expect.any(Number),
      });
      await expect(
        ctx.request(acp.methods.agent.session.prompt, {
          sessionId: 'nope',
          prompt: [{ type: 'text', text: 'x' }],
        }),
      ).rejects.toMatchObject({ code: -32002 });
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId: 'nope' });
    });
  });

  it('a cancel mid-stream ends the turn as cancelled', async () => {
    const cwd = await workspace();
    const script: Script = [
      { parts: [{ type: 'text', text: 'a b c d e f g h i j k l m n o p' }], delayMs: 40, chunkSize: 2 },
    ];
    await withEditor({ cwd, script }, async (ctx, run) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      const turn = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      });
      while (!run.updates.some((u) => u.update.sessionUpdate === 'agent_message_chunk'))
        await new Promise((r) => setTimeout(r, 5));
      await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      expect((await turn).stopReason).toBe('cancelled');
    });
  });

  it('saves after each turn, lists by cwd, and replays the history on load with mode and cwd from the request', async () => {
    const cwd = await workspace({ 'a.txt': 'hello\n' });
    const other = await workspace();
    const store = createMemorySessionStore();
    const script: Script = [
      {
        parts: [
          { type: 'reasoning', text: 'thinking' },
          { type: 'tool-call', toolName: 'Read', input: { file_path: 'a.txt' } },
        ],
      },
      { parts: [{ type: 'text', text: 'It says \u001b[31mhello\u001b[0m.' }] },
    ];
    let id = '';
    await withEditor({ cwd, script, agent: { store } }, async (ctx) => {
      id = (await promptOnce(ctx, cwd, 'What is in a.txt?')).sessionId;
    });
    await withEditor({ cwd, script: [], agent: { store, mode: 'accept_edits' } }, async (ctx, run) => {
      expect((await ctx.request(acp.methods.agent.session.list, { cwd })).sessions).toEqual([
        { sessionId: id, cwd, title: 'What is in a.txt?', updatedAt: expect.any(String) },
      ]);
      expect((await ctx.request(acp.methods.agent.session.list, { cwd: other })).sessions).toEqual([]);
      const loaded = await ctx.request(acp.methods.agent.session.load, {
        sessionId: id,
        cwd,
        mcpServers: [],
      });
      expect(loaded.modes?.currentModeId).toBe('accept_edits');
      expect(run.updates.map((u) => u.update.sessionUpdate)).toEqual([
        'user_message_chunk',
        'agent_thought_chunk',
        'tool_call',
        'tool_call_update',
        'agent_message_chunk',
      ]);
      const text = run.updates.at(-1)?.update;
      // Model text reaches the editor without escape sequences.
      expect(text).toEqual({
        sessionUpdate: 'agent_message_chunk',
        content: { type: 'text', text: 'It says hello.' },
      });
      await expect(
        ctx.request(acp.methods.agent.session.load, { sessionId: 'missing', cwd, mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32002 });
      await expect(
        ctx.request(acp.methods.agent.session.new, { cwd: 'relative', mcpServers: [] }),
      ).rejects.toMatchObject({ code: -32602 });
    });
  });
});

describe('a session created but never prompted', () => {
  it('can be loaded by a later process (saved at session/new)', async () => {
    const cwd = await workspace();
    const store = createMemorySessionStore();
    let id = '';
    await withEditor({ cwd, script: [], agent: { store } }, async (ctx) => {
      id = (await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] })).sessionId;
    });
    await withEditor({ cwd, script: [done], agent: { store } }, async (ctx, run) => {
      await ctx.request(acp.methods.agent.session.load, { sessionId: id, cwd, mcpServers: [] });
      expect(run.updates).toEqual([]);
      const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId: id,
        prompt: [{ type: 'text', text: 'hi' }],
      });
      expect(stopReason).toBe('end_turn');
    });
  });
});

describe('a saved session cannot widen what the session may do', () => {
  it('mode and cwd come from the host and the request, never from the file', async () => {
    const cwd = await workspace();
    const store = createMemorySessionStore();
    let id = '';
    await withEditor({ cwd, script: [done], agent: { store } }, async (ctx) => {
      id = (await promptOnce(ctx, cwd, 'hello')).sessionId;
    });
    // Tamper with the saved file: bypass mode and a root working directory.
    const saved = (await store.load(id)) as Record<string, unknown>;
    await store.save(id, { ...saved, permissionMode: 'bypass', cwd: '/' }, { title: 'x', cwd });
    await withEditor(
      { cwd, script: [write('owned.txt'), done], answers: ['reject_once'], agent: { store } },
      async (ctx, run) => {
        const loaded = await ctx.request(acp.methods.agent.session.load, {
          sessionId: id,
          cwd,
          mcpServers: [],
        });
        expect(loaded.modes?.currentModeId).toBe('default');
        await ctx.request(acp.methods.agent.session.prompt, {
          sessionId: id,
          prompt: [{ type: 'text', text: 'write' }],
        });
        // Still asked (default mode), and the path resolved against the request's cwd.
        expect(run.permissions.map((p) => p.toolCall.locations)).toEqual([
          [{ path: join(cwd, 'owned.txt') }],
        ]);
      },
    );
    expect(existsSync(join(cwd, 'owned.txt'))).toBe(false);
    expect(existsSync('/owned.txt')).toBe(false);
  });

  it('an approval title shows an escape-laden command visibly, and exactly that command runs', async () => {
    const cwd = await workspace();
    const command = "printf 'ok\\n' > out.txt # \u001b[8mhidden\u001b[0m \u202e";
    const script: Script = [{ parts: [{ type: 'tool-call', toolName: 'Bash', input: { command } }] }, done];
    await withEditor({ cwd, script, answers: ['allow_once'] }, async (ctx, run) => {
      await promptOnce(ctx, cwd, 'go');
      const ask = run.permissions[0];
      expect(ask?.toolCall.rawInput).toEqual({ command });
      expect(ask?.toolCall.title).toBe("printf 'ok\\n' > out.txt # \\u{1b}[8mhidden\\u{1b}[0m \\u{202e}");
      expect(ask?.toolCall.title).not.toMatch(/[\u001b\u202e]/);
    });
    expect(await readFile(join(cwd, 'out.txt'), 'utf8')).toBe('ok\n');
  });
});

describe('initialize', () => {
  it('negotiates protocol v1 whatever the client asks, and advertises what is supported', async () => {
    const agent = createAcpAgent({
      createSession: () => {
        throw new Error('not used');
      },
    });
    try {
      for (const asked of [1, 2, 99, 0]) {
        const init = await acp
          .client({ name: 'x' })
          .connectWith(agent.app, (ctx) =>
            ctx.request(acp.methods.agent.initialize, { protocolVersion: asked, clientCapabilities: {} }),
          );
        expect(init.protocolVersion).toBe(1);
        expect(init.agentCapabilities).toEqual({
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: false, sse: false },
          sessionCapabilities: { list: {} },
        });
      }
    } finally {
      await agent.dispose();
    }
  });
});

describe('protocol constants', () => {
  it('maps every stop reason; error has no ACP stop reason', () => {
    expect(acpStopReason('completed')).toBe('end_turn');
    expect(acpStopReason('incomplete_tool_use')).toBe('end_turn');
    expect(acpStopReason('truncated')).toBe('max_tokens');
    expect(acpStopReason('budget_exceeded')).toBe('max_tokens');
    expect(acpStopReason('filtered')).toBe('refusal');
    expect(acpStopReason('max_turns')).toBe('max_turn_requests');
    expect(acpStopReason('interrupted')).toBe('cancelled');
    expect(acpStopReason('error')).toBeNull();
  });

  it('exposes the permission modes as session modes and reports cost only when known', () => {
    expect(sessionModeState('plan').availableModes.map((m) => m.id)).toEqual([
      'default',
      'plan',
      'accept_edits',
      'bypass',
      'dont_ask',
    ]);
    const usage = {
      nTokens: 10,
      modelLimit: 100,
      costLast: null,
      inputTokens: 1,
      outputTokens: 1,
      warningState: {
        percentLeft: 90,
        aboveWarning: false,
        aboveError: false,
        aboveCompact: false,
        atBlocking: false,
      },
    };
    expect(usageUpdate(usage, 'USD')).toEqual({ sessionUpdate: 'usage_update', used: 10, size: 100 });
    expect(usageUpdate({ ...usage, costLast: 0.5 }, 'EUR')).toEqual({
      sessionUpdate: 'usage_update',
      used: 10,
      size: 100,
      cost: { amount: 0.5, currency: 'EUR' },
    });
  });
});
