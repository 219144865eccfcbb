import { installPermissionGate } from '@codeagent/permission-gate';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, defineTool, stream } from '../src/index.js';
import { call, finish, recordingCallbacks, scriptedModel, text } from './helpers.js';

function writeTool(log: string[]) {
  return defineTool({
    name: 'write_note',
    description: 'Write a note',
    inputSchema: z.object({ note: z.string() }),
    capability: 'write',
    execute: ({ note }) => {
      log.push(note);
      return `wrote ${note}`;
    },
  });
}

function toolResultValues(prompt: unknown): string[] {
  const out: string[] = [];
  for (const m of prompt as Array<{ role: string; content: unknown }>) {
    if (m.role !== 'tool') continue;
    for (const p of m.content as Array<{ type: string; output: { value: string } }>) out.push(p.output.value);
  }
  return out;
}

describe('permission gate wiring', () => {
  it('a harness-only client has zero tools and no gate; the host installs one later', async () => {
    const model = scriptedModel([[...text(['hi']), finish('stop')]]);
    const client = createClient({ model, registerTools: false });
    expect(client.toolNames).toEqual([]);
    expect(client.getPermissionGate()).toBeNull();
    await stream(client, 'hello');
    expect(model.calls[0]?.tools ?? []).toEqual([]);
  });

  it('registerTools: true installs the default gate with permissionMode and the use_skill tool', () => {
    const model = scriptedModel([]);
    const client = createClient({ model, permissionMode: 'plan', skills: { hint: false } });
    expect(client.getPermissionGate()?.mode).toBe('plan');
    expect(client.toolNames).toEqual(['use_skill']);
  });

  it('the ask callback gets the call id; onToolRequest fires before it; allow once asks every time', async () => {
    const order: string[] = [];
    const log: string[] = [];
    const model = scriptedModel([
      [call('c1', 'write_note', { note: 'a' }), finish('tool-calls')],
      [call('c2', 'write_note', { note: 'b' }), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [writeTool(log)] });
    installPermissionGate(client, {
      ask: (name, input, id) => {
        order.push(`ask:${name}:${id}:${JSON.stringify(input)}`);
        return true;
      },
    });
    const result = await stream(client, 'go', {
      onToolRequest: (e) => order.push(`request:${e.id}`),
      onToolResult: (e) => order.push(`result:${e.id}:${e.value}`),
    });
    expect(result.stopReason).toBe('completed');
    expect(order).toEqual([
      'request:c1',
      'ask:write_note:c1:{"note":"a"}',
      'result:c1:wrote a',
      'request:c2',
      'ask:write_note:c2:{"note":"b"}',
      'result:c2:wrote b',
    ]);
    expect(log).toEqual(['a', 'b']);
  });

  it('allow for the session asks once', async () => {
    let asks = 0;
    const log: string[] = [];
    const model = scriptedModel([
      [call('c1', 'write_note', { note: 'a' }), finish('tool-calls')],
      [call('c2', 'write_note', { note: 'b' }), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [writeTool(log)] });
    installPermissionGate(client, {
      ask: () => {
        asks++;
        return { allow: true, scope: 'session' } as const;
      },
    });
    await stream(client, 'go');
    expect(asks).toBe(1);
    expect(log).toEqual(['a', 'b']);
    expect(client.getPermissionGate()?.sessionGrants()).toEqual(['write_note']);
  });

  it('a denial becomes an error result the model sees, and the turn goes on', async () => {
    const log: string[] = [];
    const model = scriptedModel([
      [call('c1', 'write_note', { note: 'a' }), finish('tool-calls')],
      [...text(['I could not write.']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [writeTool(log)] });
    installPermissionGate(client, { ask: () => false });
    const { callbacks, events } = recordingCallbacks();
    const result = await stream(client, 'go', callbacks);
    expect(log).toEqual([]);
    expect(result.stopReason).toBe('completed');
    expect(result.text).toBe('I could not write.');
    const res = events.find((e) => e.type === 'tool-result');
    expect(res).toMatchObject({
      isError: true,
      value: 'Permission denied for write_note (declined by the user)',
    });
    expect(res?.type === 'tool-result' && res.artifact?.status).toBe('error');
    expect(toolResultValues(model.calls[1]?.prompt)).toEqual([
      'Permission denied for write_note (declined by the user)',
    ]);
  });

  it('a rejected ask promise denies', async () => {
    const log: string[] = [];
    const model = scriptedModel([
      [call('c1', 'write_note', { note: 'a' }), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [writeTool(log)] });
    installPermissionGate(client, { ask: () => Promise.reject(new Error('UI crashed')) });
    const { callbacks, events } = recordingCallbacks();
    await stream(client, 'go', callbacks);
    expect(log).toEqual([]);
    const res = events.find((e) => e.type === 'tool-result');
    expect(res?.type === 'tool-result' && res.value).toMatch(
      /^Permission denied for write_note \(approval callback failed/,
    );
  });

  it('an abort during a pending approval interrupts the turn without running the tool', async () => {
    const log: string[] = [];
    const model = scriptedModel([[call('c1', 'write_note', { note: 'a' }), finish('tool-calls')]]);
    const client = createClient({ model, registerTools: false, tools: [writeTool(log)] });
    const controller = new AbortController();
    let askedId: string | undefined;
    installPermissionGate(client, {
      ask: (_name, _input, id) => {
        askedId = id;
        controller.abort();
        return new Promise<boolean>(() => undefined);
      },
    });
    const result = await stream(client, 'go', {}, { signal: controller.signal });
    expect(askedId).toBe('c1');
    expect(result.stopReason).toBe('interrupted');
    expect(log).toEqual([]);
    expect(client.busy).toBe(false);
  });

  it('installPermissionGate is idempotent and refreshes mode and ask in place', async () => {
    const log: string[] = [];
    const model = scriptedModel([
      [call('c1', 'write_note', { note: 'a' }), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [writeTool(log)] });
    const g1 = installPermissionGate(client, { mode: 'plan', ask: () => false });
    const g2 = installPermissionGate(client, { mode: 'accept_edits' });
    expect(g2).toBe(g1);
    expect(client.getPermissionGate()).toBe(g1);
    expect(client.permissionMode).toBe('accept_edits');
    await stream(client, 'go');
    expect(log).toEqual(['a']);
    client.setPermissionMode('plan');
    expect(g1.mode).toBe('plan');
    // One place: the gate's mode is the client's mode, whichever side changed it.
    g1.configure({ mode: 'bypass' });
    expect(client.permissionMode).toBe('bypass');
    expect(JSON.parse(client.save()).permissionMode).toBe('bypass');
  });

  it('default gate in plan mode denies writes without asking', async () => {
    const log: string[] = [];
    let asked = false;
    const model = scriptedModel([
      [call('c1', 'write_note', { note: 'a' }), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({
      model,
      permissionMode: 'plan',
      skills: false,
      tools: [writeTool(log)],
      ask: () => {
        asked = true;
        return true;
      },
    });
    const { callbacks, events } = recordingCallbacks();
    await stream(client, 'go', callbacks);
    expect(asked).toBe(false);
    expect(log).toEqual([]);
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({
      value: 'Permission denied for write_note (plan mode: deny for write)',
    });
  });
});

describe('tool classification precedence', () => {
  const tool = (capability: 'read' | 'write', log: string[]) =>
    defineTool({
      name: 'classified',
      description: 'c',
      inputSchema: z.object({}),
      capability,
      execute: () => {
        log.push('ran');
        return 'ran';
      },
    });
  const script = () =>
    scriptedModel([
      [call('c1', 'classified', {}), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);

  it('the host gate toolMeta beats the capability the tool declared (both directions)', async () => {
    const log: string[] = [];
    let asks = 0;
    const ask = () => {
      asks++;
      return false;
    };
    const tighter = createClient({ model: script(), registerTools: false, tools: [tool('read', log)] });
    installPermissionGate(tighter, { toolMeta: { classified: 'exec' }, ask });
    await stream(tighter, 'go');
    expect(asks).toBe(1);
    expect(log).toEqual([]);
    const looser = createClient({ model: script(), registerTools: false, tools: [tool('write', log)] });
    installPermissionGate(looser, { toolMeta: { classified: 'read' }, ask });
    await stream(looser, 'go');
    expect(asks).toBe(1);
    expect(log).toEqual(['ran']);
  });

  it('without host metadata the declared capability applies', async () => {
    const log: string[] = [];
    const client = createClient({ model: script(), registerTools: false, tools: [tool('write', log)] });
    const gate = installPermissionGate(client, { ask: () => false });
    await stream(client, 'go');
    expect(gate.toolMeta.get('classified')?.capability).toBe('write');
    expect(log).toEqual([]);
  });
});

describe('precheck', () => {
  it('a call whose precheck refuses ends with that error and the gate never asks', async () => {
    const asked: string[] = [];
    const ran: string[] = [];
    const tool = defineTool({
      name: 'edit_thing',
      description: 'Edit',
      inputSchema: z.object({ target: z.string() }),
      capability: 'write',
      precheck: ({ target }, ctx) =>
        target === 'bad' ? `Error: ${target} cannot change (${ctx.callId})` : undefined,
      execute: ({ target }) => {
        ran.push(target);
        return `changed ${target}`;
      },
    });
    const model = scriptedModel([
      [
        call('c1', 'edit_thing', { target: 'bad' }),
        call('c2', 'edit_thing', { target: 'good' }),
        finish('tool-calls'),
      ],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [tool] });
    installPermissionGate(client, {
      ask: (_name, input) => {
        asked.push(JSON.stringify(input));
        return true;
      },
    });
    const { callbacks, events } = recordingCallbacks();
    await stream(client, 'go', callbacks);
    const results = events.flatMap((e) =>
      e.type === 'tool-result' ? [{ id: e.id, value: e.value, isError: e.isError }] : [],
    );
    expect(asked).toEqual(['{"target":"good"}']);
    expect(ran).toEqual(['good']);
    expect(results).toContainEqual({ id: 'c1', value: 'Error: bad cannot change (c1)', isError: true });
    expect(toolResultValues(model.calls[1]?.prompt)).toContain('Error: bad cannot change (c1)');
  });

  it('runs only when the gate would ask: a denied call gets the denial, an allowed one runs', async () => {
    const prechecked: string[] = [];
    const tool = defineTool({
      name: 'edit_thing',
      description: 'Edit',
      inputSchema: z.object({ target: z.string() }),
      capability: 'write',
      precheck: ({ target }) => {
        prechecked.push(target);
        return 'Error: doomed';
      },
      execute: ({ target }) => `changed ${target}`,
    });
    const results = async (mode: 'plan' | 'bypass') => {
      const model = scriptedModel([
        [call('c1', 'edit_thing', { target: mode }), finish('tool-calls')],
        [...text(['ok']), finish('stop')],
      ]);
      const client = createClient({ model, registerTools: false, tools: [tool] });
      installPermissionGate(client, { mode, ask: () => true });
      const { callbacks, events } = recordingCallbacks();
      await stream(client, 'go', callbacks);
      return events.flatMap((e) => (e.type === 'tool-result' ? [e.value] : []));
    };
    expect(await results('plan')).toEqual([expect.stringMatching(/^Permission denied for edit_thing/)]);
    expect(await results('bypass')).toEqual(['changed bypass']);
    expect(prechecked).toEqual([]);
  });

  it('runs every precheck at once: a refused call ends while an earlier call waits for its answer', async () => {
    const tool = defineTool({
      name: 'edit_thing',
      description: 'Edit',
      inputSchema: z.object({ target: z.string() }),
      capability: 'write',
      precheck: ({ target }) => (target.startsWith('bad') ? `Error: ${target} is doomed` : undefined),
      execute: ({ target }) => `changed ${target}`,
    });
    const model = scriptedModel([
      [
        call('c1', 'edit_thing', { target: 'good' }),
        call('c2', 'edit_thing', { target: 'bad' }),
        call('c3', 'edit_thing', { target: 'also good' }),
        finish('tool-calls'),
      ],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [tool] });
    const order: string[] = [];
    let answer: (ok: boolean) => void = () => undefined;
    const verdicts: Record<string, boolean> = {};
    installPermissionGate(client, {
      ask: (_name, input, id) => {
        order.push(`ask ${id ?? ''} ${JSON.stringify(input)}`);
        if (id !== 'c1') return true;
        // While c1 waits: c2 already ended with its refusal, and the verdicts of all three are known.
        return Promise.all(
          ['c1', 'c2', 'c3'].map(async (c) => {
            verdicts[c] = await client.prechecked(c);
          }),
        ).then(
          () =>
            new Promise<boolean>((resolve) => {
              answer = resolve;
              setTimeout(() => answer(true), 20);
            }),
        );
      },
    });
    await stream(client, 'go', {
      onToolResult: (e) => order.push(`result ${e.id} ${String(e.value)}`),
    });
    expect(verdicts).toEqual({ c1: true, c2: false, c3: true });
    // The refusal is out before c1 is answered; c3 is asked after c1 (the asks keep the order of the calls).
    expect(order.slice(0, 3)).toEqual([
      'ask c1 {"target":"good"}',
      'result c2 Error: bad is doomed',
      'ask c3 {"target":"also good"}',
    ]);
    expect(order.slice(3).sort()).toEqual(['result c1 changed good', 'result c3 changed also good']);
    // Outside a turn, and for a call the turn never saw, there is nothing to wait for.
    expect(await client.prechecked('c1')).toBe(false);
  });

  it('defineTool checks the type of precheck', async () => {
    expect(() =>
      defineTool({
        name: 't',
        description: 'd',
        inputSchema: z.object({}),
        capability: 'read',
        precheck: 'no' as never,
        execute: () => 'x',
      }),
    ).toThrow(/precheck must be a function/);
  });
});

describe('the bash grammar behind the gate', () => {
  it('is loaded before the first permission check, so compound commands are decided by the rules', async () => {
    const { isShellGrammarLoaded } = await import('@codeagent/permission-gate');
    const ran: string[] = [];
    const bash = defineTool({
      name: 'Bash',
      description: 'Run a command',
      inputSchema: z.object({ command: z.string() }),
      capability: 'exec',
      execute: ({ command }) => {
        ran.push(command);
        return 'ok';
      },
    });
    const model = scriptedModel([
      [call('c1', 'Bash', { command: 'git status "src" | head -n 3' }), finish('tool-calls')],
      [call('c2', 'Bash', { command: "'rm' -rf build" }), finish('tool-calls')],
      [...text(['done']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [bash] });
    // No ask callback: whatever the rules do not allow is denied.
    installPermissionGate(client, {
      rules: { allow: ['Bash(git status*)', 'Bash(head*)'], deny: ['Bash(rm:*)'] },
    });
    const results: string[] = [];
    await stream(client, 'go', { onToolResult: (e) => results.push(`${e.id}:${String(e.value)}`) });
    expect(isShellGrammarLoaded()).toBe(true);
    // Without the grammar the first line would be asked for (and denied, with no callback): it ran.
    expect(ran).toEqual(['git status "src" | head -n 3']);
    expect(results[1]).toMatch(/^c2:Permission denied for Bash \(deny rule Bash\(rm:\*\)\)/);
  });
});
