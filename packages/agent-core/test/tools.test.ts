import { toolResult, toolResultArtifact } from '@codeagent/artifact-schema';
import { jsonSchema } from 'ai';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentCoreError,
  type AgentTool,
  createClient,
  defineTool,
  stream,
  withPresentationMeta,
} from '../src/index.js';
import { call, finish, recordingCallbacks, scriptedModel, text } from './helpers.js';

function promptToolOutputs(prompt: unknown): unknown[] {
  const out: unknown[] = [];
  for (const m of prompt as Array<{ role: string; content: unknown }>) {
    if (m.role !== 'tool') continue;
    for (const p of m.content as Array<{ type: string; output: unknown }>) out.push(p.output);
  }
  return out;
}

async function runOne(tool: AgentTool<unknown>, input: unknown, extra: Record<string, unknown> = {}) {
  const model = scriptedModel([
    [call('c1', tool.name, input), finish('tool-calls')],
    [...text(['ok']), finish('stop')],
  ]);
  const client = createClient({ model, registerTools: false, tools: [tool], ...extra });
  const { callbacks, events } = recordingCallbacks();
  const result = await stream(client, 'go', callbacks);
  const res = events.find((e) => e.type === 'tool-result');
  const req = events.find((e) => e.type === 'tool-request');
  return { model, client, events, result, res, req };
}

const table = defineTool({
  name: 'rows',
  description: 'Rows',
  inputSchema: z.object({ n: z.number().int() }),
  capability: 'read',
  execute: ({ n }) => Array.from({ length: n }, (_, i) => ({ i, sq: i * i })),
});

describe('tool results', () => {
  it('the model receives only value; the event carries the artifact and a view', async () => {
    const { model, res } = await runOne(table, { n: 2 });
    const value = JSON.stringify([
      { i: 0, sq: 0 },
      { i: 1, sq: 1 },
    ]);
    expect(promptToolOutputs(model.calls[1]?.prompt)).toEqual([{ type: 'text', value }]);
    expect(res).toMatchObject({
      type: 'tool-result',
      id: 'c1',
      name: 'rows',
      value,
      isError: false,
      display: null,
    });
    expect(res?.type === 'tool-result' && res.artifact?.kind).toBe('table');
    expect(res?.type === 'tool-result' && res.view.card).toBe('generic');
  });

  it('artifact passes any valid version (a future version is forwarded untouched)', async () => {
    const future = toolResult('v2 text', { kind: 'text', payload: { text: 'v2 text' } });
    const art = { ...future.extra.codeagent.artifact, version: 2 };
    const tool = defineTool({
      name: 'future',
      description: 'Returns a v2 artifact',
      inputSchema: z.object({}),
      capability: 'read',
      execute: () => ({ ...future, extra: { ...future.extra, codeagent: { artifact: art } } }),
    });
    const { res, model } = await runOne(tool, {});
    expect(res?.type === 'tool-result' && res.artifact).toEqual(art);
    expect(toolResultArtifact(res)).toBeNull();
    expect(toolResultArtifact(res, { version: [1, 2] })?.version).toBe(2);
    expect(promptToolOutputs(model.calls[1]?.prompt)).toEqual([{ type: 'text', value: 'v2 text' }]);
  });

  it('display: the option projects, else extra.display, else null', async () => {
    const withDisplay = defineTool({
      name: 'shiny',
      description: 'Has display data',
      inputSchema: z.object({}),
      capability: 'read',
      execute: () => {
        const r = toolResult('hello');
        return { ...r, extra: { ...r.extra, display: { html: '<b>x</b>' } } };
      },
    });
    expect((await runOne(withDisplay, {})).res).toMatchObject({ display: { html: '<b>x</b>' } });
    const projected = await runOne(
      withDisplay,
      {},
      { display: (r: { value: string }, v: { card: string }) => `${v.card}:${r.value}` },
    );
    expect(projected.res).toMatchObject({ display: 'generic:hello' });
  });

  it('a throwing tool becomes an error result the model sees', async () => {
    const bad = defineTool({
      name: 'bad',
      description: 'Throws',
      inputSchema: z.object({}),
      capability: 'read',
      execute: () => {
        throw new Error('disk on fire');
      },
    });
    const { res, model, result } = await runOne(bad, {});
    expect(res).toMatchObject({ isError: true, value: 'Error: disk on fire' });
    expect(res?.type === 'tool-result' && res.artifact?.status).toBe('error');
    expect(promptToolOutputs(model.calls[1]?.prompt)).toEqual([
      { type: 'error-text', value: 'Error: disk on fire' },
    ]);
    expect(result.stopReason).toBe('completed');
  });

  it('a synchronous tool during which the user aborts: no result is reported, the turn ends interrupted', async () => {
    const controller = new AbortController();
    const ran: string[] = [];
    const sync = defineTool({
      name: 'sync',
      description: 'Aborts the turn while it runs',
      inputSchema: z.object({}),
      capability: 'read',
      execute: (_args, ctx) => {
        controller.abort();
        ran.push(ctx.signal.aborted ? 'aborted' : 'live');
        return 'done anyway';
      },
    });
    const model = scriptedModel([
      [call('c1', 'sync', {}), finish('tool-calls')],
      [...text(['never']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [sync] });
    const { callbacks, events } = recordingCallbacks();
    const result = await stream(client, 'go', callbacks, { signal: controller.signal });
    expect(ran).toEqual(['aborted']);
    expect(result.stopReason).toBe('interrupted');
    expect(events.some((e) => e.type === 'tool-result' && !e.isError)).toBe(false);
    expect(model.calls).toHaveLength(1);
  });

  it('unserialisable output never leaks its contents', async () => {
    const cyc: Record<string, unknown> = { secret: 'do-not-echo' };
    cyc.self = cyc;
    const tool = defineTool({
      name: 'cyc',
      description: 'c',
      inputSchema: z.object({}),
      capability: 'read',
      execute: () => cyc,
    });
    const { res } = await runOne(tool, {});
    expect(res?.type === 'tool-result' && res.value).not.toContain('do-not-echo');
    expect(res).toMatchObject({ isError: true });
  });

  it('invalid tool JSON and schema failures become error results; the turn goes on', async () => {
    const { res, req, result, model } = await runOne(table, '{"n": 1,,');
    expect(req).toMatchObject({ id: 'c1', name: 'rows', intent: null });
    expect(res).toMatchObject({ isError: true });
    expect(result.stopReason).toBe('completed');
    const outputs = promptToolOutputs(model.calls[1]?.prompt) as Array<{ type: string }>;
    expect(outputs[0]?.type).toBe('error-text');
    const schemaFail = await runOne(table, { n: 'three' });
    expect(schemaFail.res).toMatchObject({ isError: true });
  });

  it('an unknown tool name becomes an error result', async () => {
    const model = scriptedModel([
      [call('c1', 'nope', {}), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [table] });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r.stopReason).toBe('completed');
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ name: 'nope', isError: true });
  });

  it('_intent: accepted on every tool, stripped before execute, kept in the history', async () => {
    let seen: unknown;
    let ctxIntent: unknown;
    const strict = defineTool({
      name: 'strict',
      description: 'Strict schema',
      inputSchema: z.strictObject({ path: z.string() }),
      capability: 'read',
      execute: (args, ctx) => {
        seen = args;
        ctxIntent = ctx.intent;
        return 'ok';
      },
    });
    const { req, res, client, model } = await runOne(strict, {
      path: 'a.txt',
      _intent: 'check the file',
    });
    expect(seen).toEqual({ path: 'a.txt' });
    expect(ctxIntent).toBe('check the file');
    expect(req).toMatchObject({
      intent: 'check the file',
      arguments: { path: 'a.txt', _intent: 'check the file' },
    });
    expect(res).toMatchObject({ isError: false });
    const assistant = client.messages[1];
    expect(JSON.stringify(assistant)).toContain('"_intent":"check the file"');
    const sentTools = model.calls[0]?.tools as Array<{
      inputSchema: { properties: Record<string, unknown> };
    }>;
    expect(Object.keys(sentTools[0]?.inputSchema.properties ?? {})).toEqual(['path', '_intent']);
    // A non-string _intent is dropped, not fatal.
    const again = await runOne(strict, { path: 'b', _intent: 42 });
    expect(again.req).toMatchObject({ intent: null });
    expect(again.res).toMatchObject({ isError: false });
  });

  it('accepts a non-zod Standard Schema with JSON Schema support and AI SDK jsonSchema()', async () => {
    const standard = {
      '~standard': {
        version: 1 as const,
        vendor: 'handmade',
        validate: (v: unknown) =>
          typeof v === 'object' && v !== null && typeof (v as { q?: unknown }).q === 'string'
            ? { value: v as { q: string } }
            : { issues: [{ message: 'q must be a string' }] },
        jsonSchema: {
          input: () => ({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
          output: () => ({ type: 'object', properties: { q: { type: 'string' } }, required: ['q'] }),
        },
      },
    };
    const tool = defineTool<{ q: string }>({
      name: 'search',
      description: 'Search',
      inputSchema: standard as never,
      capability: 'read',
      execute: ({ q }) => `found ${q}`,
    });
    expect((await runOne(tool, { q: 'x', _intent: 'why' })).res).toMatchObject({
      value: 'found x',
      isError: false,
    });
    expect((await runOne(tool, { q: 1 })).res).toMatchObject({ isError: true });
    const js = defineTool<{ q: string }>({
      name: 'js',
      description: 'JSON schema tool',
      inputSchema: jsonSchema({ type: 'object', properties: { q: { type: 'string' } } }),
      capability: 'read',
      execute: (a) => `js ${a.q}`,
    });
    expect((await runOne(js, { q: 'y' })).res).toMatchObject({ value: 'js y' });
  });

  it('presentCall/presentResult build the cards; presentation meta reaches presentResult', async () => {
    const tool = defineTool({
      name: 'run',
      description: 'Run',
      inputSchema: z.object({ cmd: z.string() }),
      capability: 'exec',
      execute: ({ cmd }) => withPresentationMeta(toolResult(`ran ${cmd}`), { exitCode: 3 }),
      presentCall: ({ cmd }) => ({ card: 'terminal', title: cmd }),
      presentResult: (_args, r) => ({
        card: 'terminal',
        output: r.value,
        exitCode: (r.meta as { exitCode: number }).exitCode,
      }),
    });
    const { req, res } = await runOne(tool, { cmd: 'ls' });
    expect(req).toMatchObject({ view: { card: 'terminal', title: 'ls' } });
    expect(res).toMatchObject({ view: { card: 'terminal', output: 'ran ls', exitCode: 3 } });
  });

  it('a throwing presenter falls back to the generic card', async () => {
    const tool = defineTool({
      name: 'p',
      description: 'p',
      inputSchema: z.object({}),
      capability: 'read',
      execute: () => 'v',
      presentCall: () => {
        throw new Error('bug');
      },
    });
    const { req, client } = await runOne(tool, {});
    expect(req).toMatchObject({ view: { card: 'generic', title: 'p' } });
    expect(client.presenterIssues.map((i) => i.code)).toContain('present-call-threw');
  });

  it('defineTool rejects bad definitions with clear errors', () => {
    const base = {
      name: 'ok',
      description: 'd',
      inputSchema: z.object({}),
      capability: 'read' as const,
      execute: () => 'x',
    };
    expect(() => defineTool({ ...base, name: 'bad name' })).toThrow(AgentCoreError);
    expect(() => defineTool({ ...base, name: 'x'.repeat(65) })).toThrow(/name/);
    expect(() => defineTool({ ...base, capability: 'admin' as never })).toThrow(/capability/);
    expect(() => defineTool({ ...base, execute: 1 as never })).toThrow(/execute/);
    expect(() => defineTool({ ...base, inputSchema: null as never })).toThrow(/inputSchema/);
    expect(() => defineTool(null as never)).toThrow(/expected an object/);
    const client = createClient({ model: scriptedModel([]), registerTools: false, tools: [base] });
    expect(() => client.registerTool(base)).toThrow(/already registered/);
  });

  it('tool calls of one step run in parallel but approvals are asked one at a time', async () => {
    let active = 0;
    let maxActive = 0;
    const slow = defineTool({
      name: 'slow',
      description: 's',
      inputSchema: z.object({ i: z.number() }),
      capability: 'exec',
      execute: async ({ i }) => `done ${i}`,
    });
    const model = scriptedModel([
      [
        call('a', 'slow', { i: 1 }),
        call('b', 'slow', { i: 2 }),
        call('c', 'slow', { i: 3 }),
        finish('tool-calls'),
      ],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({
      model,
      skills: false,
      tools: [slow],
      ask: async () => {
        active++;
        maxActive = Math.max(maxActive, active);
        await new Promise((r) => setTimeout(r, 2));
        active--;
        return true;
      },
    });
    const { callbacks, events } = recordingCallbacks();
    await stream(client, 'go', callbacks);
    expect(maxActive).toBe(1);
    expect(
      events
        .filter((e) => e.type === 'tool-result')
        .map((e) => e.type === 'tool-result' && e.value)
        .sort(),
    ).toEqual(['done 1', 'done 2', 'done 3']);
  });
});

describe('tool names are data', () => {
  it('a model calling toString or constructor gets an error result; __proto__ is an ordinary tool name', async () => {
    const proto = defineTool({
      name: '__proto__',
      description: 'odd name',
      inputSchema: z.object({}),
      capability: 'read',
      execute: () => 'proto ran',
    });
    const model = scriptedModel([
      [
        call('c1', 'toString', {}),
        call('c2', 'constructor', {}),
        call('c3', '__proto__', {}),
        finish('tool-calls'),
      ],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [proto] });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r.stopReason).toBe('completed');
    const results = events.flatMap((e) => (e.type === 'tool-result' ? [[e.name, e.isError, e.value]] : []));
    expect(results).toContainEqual(['__proto__', false, 'proto ran']);
    expect(
      results
        .filter(([, isError]) => isError)
        .map(([n]) => n)
        .sort(),
    ).toEqual(['constructor', 'toString']);
    expect(({} as Record<string, unknown>).execute).toBeUndefined();
  });
});
