import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPermissionGate } from '@codeagent/permission-gate';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentCoreError,
  createClient,
  defineTool,
  registerToolMeta,
  stream,
  streamEvents,
} from '../src/index.js';
import { call, finish, recordingCallbacks, scriptedModel, text } from './helpers.js';

describe('client', () => {
  it('history is a read-only snapshot; clear() forgets the conversation but keeps tools and gate', async () => {
    const model = scriptedModel([
      [...text(['one']), finish('stop')],
      [...text(['two']), finish('stop')],
    ]);
    const client = createClient({ model, skills: false });
    await stream(client, 'first');
    const h = client.history;
    expect(Object.isFrozen(h)).toBe(true);
    expect(() => (h as unknown[]).push({})).toThrow();
    expect(client.messages).toBe(h);
    // Collections are read through methods that return a fresh copy; the old getter stays as an alias.
    expect(client.compactionDecisions()).toEqual(client.compactions);
    expect(client.compactionDecisions()).not.toBe(client.compactionDecisions());
    const gate = client.getPermissionGate();
    client.clear();
    expect(client.messages).toEqual([]);
    expect(client.getPermissionGate()).toBe(gate);
    await stream(client, 'second');
    expect(model.calls[1]?.prompt.filter((m) => m.role === 'user')).toHaveLength(1);
  });

  it('the system prompt is sent and input parts are kept as plain JSON', async () => {
    const model = scriptedModel([[...text(['ok']), finish('stop')]]);
    const client = createClient({ model, registerTools: false, system: 'You are terse.' });
    await stream(client, [
      { type: 'text', text: 'look' },
      { type: 'image', image: new Uint8Array([137, 80, 78, 71]), mediaType: 'image/png' },
    ]);
    expect(model.calls[0]?.prompt[0]).toEqual({ role: 'system', content: 'You are terse.' });
    expect(client.messages[0]).toEqual({
      role: 'user',
      content: [
        { type: 'text', text: 'look' },
        { type: 'image', image: 'iVBORw==', mediaType: 'image/png' },
      ],
    });
  });

  it('bad input goes through the error path', async () => {
    const model = scriptedModel([]);
    const client = createClient({ model, registerTools: false });
    const errors: string[] = [];
    const r = await stream(client, [{ type: 'video' } as never], { onError: (m) => errors.push(m) });
    expect(r.stopReason).toBe('error');
    expect(errors[0]).toMatch(/unknown part type "video"/);
    expect(await stream(client, [] as never)).toMatchObject({ stopReason: 'error' });
  });

  it('rejects a model that is not an AI SDK 6 provider model, and options meant for the default gate', () => {
    expect(() => createClient({ model: 'openai/gpt-5' })).toThrow(AgentCoreError);
    expect(() => createClient({ model: scriptedModel([]), registerTools: false, ask: () => true })).toThrow(
      /installPermissionGate/,
    );
  });

  it('leaving the event loop early interrupts the turn', async () => {
    const model = scriptedModel([[...text(['a', 'b', 'c', 'd']), finish('stop')]]);
    const client = createClient({ model, registerTools: false });
    const seen: string[] = [];
    for await (const e of streamEvents(client, 'go')) {
      if (e.type === 'delta') {
        seen.push(e.text);
        break;
      }
    }
    expect(seen).toEqual(['a']);
    expect(client.busy).toBe(false);
  });

  it('an abort while a tool runs interrupts; the tool sees the signal', async () => {
    const controller = new AbortController();
    let sawAbort = false;
    const slow = defineTool({
      name: 'slow',
      description: 'slow',
      inputSchema: z.object({}),
      capability: 'read',
      execute: (_a, ctx) =>
        new Promise((_resolve, reject) => {
          ctx.signal.addEventListener('abort', () => {
            sawAbort = true;
            reject(new Error('cancelled'));
          });
          controller.abort();
        }),
    });
    const model = scriptedModel([[call('c1', 'slow', {}), finish('tool-calls')]]);
    const client = createClient({ model, registerTools: false, tools: [slow] });
    const r = await stream(client, 'go', {}, { signal: controller.signal });
    expect(r.stopReason).toBe('interrupted');
    expect(sawAbort).toBe(true);
  });

  it('registerTools: true attaches use_skill, which loads a project skill, and adds the skill hint', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agent-core-skills-'));
    const home = mkdtempSync(join(tmpdir(), 'agent-core-home-'));
    mkdirSync(join(cwd, '.codeagent/skills/greet'), { recursive: true });
    writeFileSync(
      join(cwd, '.codeagent/skills/greet/SKILL.md'),
      '---\nname: greet\ndescription: Greets people warmly.\n---\nSay hello to $ARGUMENTS.\n',
    );
    const model = scriptedModel([
      [call('c1', 'use_skill', { name: 'greet', args: 'Ada' }), finish('tool-calls')],
      [...text(['Hello Ada']), finish('stop')],
    ]);
    const client = createClient({ model, cwd, skills: { homeDir: home } });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, '/greet Ada', callbacks);
    expect(r.stopReason).toBe('completed');
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({
      value: expect.stringContaining('Say hello to Ada.'),
      isError: false,
    });
    const system = model.calls[0]?.prompt[0];
    expect(system?.role).toBe('system');
    expect(JSON.stringify(system)).toContain('greet');
  });

  it('a slash command naming a skill expands to its prompt; other slash input passes through', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agent-core-slash-'));
    const home = mkdtempSync(join(tmpdir(), 'agent-core-home-'));
    mkdirSync(join(cwd, '.claude/skills/review'), { recursive: true });
    writeFileSync(
      join(cwd, '.claude/skills/review/SKILL.md'),
      '---\nname: review\ndescription: Reviews a file.\n---\nReview $ARG1 carefully.\n',
    );
    const model = scriptedModel([
      [...text(['reviewed']), finish('stop')],
      [...text(['compacting is the host job']), finish('stop')],
    ]);
    const client = createClient({ model, cwd, skills: { homeDir: home, hint: false } });
    await stream(client, '/review src/a.ts');
    expect(client.messages[0]).toEqual({
      role: 'user',
      content: '/review src/a.ts\n\n<skill name="review">\nReview src/a.ts carefully.\n</skill>',
    });
    await stream(client, '/compact now');
    expect(client.messages[2]).toEqual({ role: 'user', content: '/compact now' });
    const plain = createClient({
      model: scriptedModel([[...text(['x']), finish('stop')]]),
      cwd,
      registerTools: false,
    });
    await stream(plain, '/review src/a.ts');
    expect(plain.messages[0]).toEqual({ role: 'user', content: '/review src/a.ts' });
  });

  it('content-part input is expanded like a string; expandSlashCommand tells skills from other commands', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'agent-core-slash-parts-'));
    const home = mkdtempSync(join(tmpdir(), 'agent-core-home-'));
    mkdirSync(join(cwd, '.claude/skills/plan'), { recursive: true });
    writeFileSync(
      join(cwd, '.claude/skills/plan/SKILL.md'),
      '---\nname: plan\ndescription: Plans a change.\n---\nPlan $ARGUMENTS step by step.\n',
    );
    const model = scriptedModel([
      [...text(['planned']), finish('stop')],
      [...text(['planned again']), finish('stop')],
    ]);
    const client = createClient({ model, cwd, skills: { homeDir: home, hint: false } });
    const expanded = '/plan x\n\n<skill name="plan">\nPlan x step by step.\n</skill>';
    const image = { type: 'image' as const, image: 'aGk=', mediaType: 'image/png' };
    await stream(client, [{ type: 'text', text: '/plan x' }, image]);
    expect(client.messages[0]).toEqual({ role: 'user', content: [{ type: 'text', text: expanded }, image] });
    // The string form reaches the model as the very same text: one expansion for every host path.
    await stream(client, '/plan x');
    expect(client.messages[2]).toEqual({ role: 'user', content: expanded });

    expect(await client.expandSlashCommand('/plan x')).toEqual({
      kind: 'skill',
      name: 'plan',
      input: expanded,
    });
    expect(await client.expandSlashCommand('plain text')).toEqual({ kind: 'none', input: 'plain text' });
    expect(await client.expandSlashCommand([image])).toEqual({ kind: 'none', input: [image] });
    const unknown = await client.expandSlashCommand('/nope x');
    expect(unknown).toMatchObject({ kind: 'unknown', name: 'nope', input: '/nope x' });
    expect(unknown.kind === 'unknown' && unknown.message).toMatch(/plan/);
    const off = createClient({ model, cwd, skills: { homeDir: home, hint: false, slashCommands: false } });
    expect(await off.expandSlashCommand('/plan x')).toEqual({ kind: 'none', input: '/plan x' });
  });

  it('registerToolMeta classifies a host tool for every client gate', async () => {
    const mk = (name: string) =>
      defineTool({
        name,
        description: 'x',
        inputSchema: z.object({}),
        capability: 'read',
        execute: () => 'ran',
      });
    registerToolMeta('agent_core_test_exec', 'exec');
    const model = scriptedModel([
      [call('c1', 'agent_core_test_exec', {}), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [mk('agent_core_test_exec')] });
    let asked = 0;
    installPermissionGate(client, {
      mode: 'default',
      ask: () => {
        asked++;
        return false;
      },
    });
    const { callbacks, events } = recordingCallbacks();
    await stream(client, 'go', callbacks);
    expect(asked).toBe(1);
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ isError: true });
    expect(() => registerToolMeta('Bash', 'read')).toThrow();
  });
});

describe('abort with a stubborn tool', () => {
  it('a tool that ignores its signal does not hold the interrupted turn open', async () => {
    const controller = new AbortController();
    const stubborn = defineTool({
      name: 'stubborn',
      description: 'never finishes',
      inputSchema: z.object({}),
      capability: 'read',
      execute: () => {
        controller.abort();
        return new Promise(() => undefined);
      },
    });
    const model = scriptedModel([[call('c1', 'stubborn', {}), finish('tool-calls')]]);
    const client = createClient({ model, registerTools: false, tools: [stubborn] });
    const r = await stream(client, 'go', {}, { signal: controller.signal });
    expect(r.stopReason).toBe('interrupted');
    expect(client.busy).toBe(false);
    // The unanswered call is not left dangling in the history.
    expect(client.messages.map((m) => m.role)).toEqual(['user']);
  });
});

describe('bad turn options', () => {
  it('a signal that is not an AbortSignal resolves through the error path', async () => {
    const client = createClient({ model: scriptedModel([]), registerTools: false });
    const errors: string[] = [];
    const r = await stream(client, 'go', { onError: (m) => errors.push(m) }, { signal: {} as AbortSignal });
    expect(r.stopReason).toBe('error');
    expect(errors).toEqual(['options.signal must be an AbortSignal']);
    expect(client.busy).toBe(false);
    const events = [];
    for await (const e of streamEvents(client, 'go', { signal: 'nope' as never })) events.push(e);
    expect(events).toMatchObject([
      { type: 'error', message: 'options.signal must be an AbortSignal' },
      { type: 'end' },
    ]);
  });
});
