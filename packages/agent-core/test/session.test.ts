import { installPermissionGate } from '@codeagent/permission-gate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AgentCoreError, createClient, defineTool, loadSession, parseSession, stream } from '../src/index.js';
import { call, finish, scriptedModel, text } from './helpers.js';

const rows = defineTool({
  name: 'rows',
  description: 'Rows',
  inputSchema: z.object({ n: z.number() }),
  capability: 'write',
  execute: ({ n }) => Array.from({ length: n }, (_, i) => ({ i })),
  presentCall: ({ n }) => ({ card: 'generic', title: `rows ${n}`, kind: 'read' }),
});

async function sessionWithToolCall() {
  const model = scriptedModel([
    [...text(['Reading. ']), call('call_1', 'rows', { n: 2, _intent: 'list' }), finish('tool-calls')],
    [...text(['Two rows.']), finish('stop')],
  ]);
  const client = createClient({ model, registerTools: false, tools: [rows] });
  installPermissionGate(client, { ask: () => ({ allow: true, scope: 'session' }) });
  await stream(client, 'list rows');
  return client;
}

describe('sessions', () => {
  it('save -> loadSession restores history byte for byte, records and cards', async () => {
    const client = await sessionWithToolCall();
    const json = client.save();
    const data = JSON.parse(json);
    expect(data).toMatchObject({ format: 'codeagent.session', version: 1, permissionMode: 'default' });
    const model2 = scriptedModel([[...text(['again']), finish('stop')]]);
    const restored = loadSession(json, { model: model2, registerTools: false, tools: [rows] });
    expect(JSON.stringify(restored.messages)).toBe(JSON.stringify(client.messages));
    expect(restored.toolResults()).toEqual(client.toolResults());
    expect(restored.toolRecords()[0]?.callView).toEqual({ card: 'generic', title: 'rows 2', kind: 'read' });
    // The next request sends the same provider-facing history.
    await stream(restored, 'more');
    const sent = model2.calls[0]?.prompt as unknown[];
    const model3 = scriptedModel([[...text(['again']), finish('stop')]]);
    const original = createClient({ model: model3, registerTools: false, tools: [rows] });
    await stream(original, 'more').catch(() => undefined);
    expect(JSON.stringify(sent.slice(0, 3))).toContain('call_1');
    // Saving again after load gives the same messages JSON.
    const again = JSON.parse(
      loadSession(json, { model: model2, registerTools: false, tools: [rows] }).save(),
    );
    expect(JSON.stringify(again.messages)).toBe(JSON.stringify(data.messages));
  });

  it('session-scoped grants are not restored', async () => {
    const client = await sessionWithToolCall();
    expect(client.getPermissionGate()?.sessionGrants()).toEqual(['rows']);
    const json = client.save();
    expect(json).not.toContain('sessionGrants');
    const model = scriptedModel([
      [call('call_2', 'rows', { n: 1 }), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const restored = loadSession(json, { model, registerTools: false, tools: [rows] });
    let asks = 0;
    installPermissionGate(restored, {
      ask: () => {
        asks++;
        return true;
      },
    });
    expect(restored.getPermissionGate()?.sessionGrants()).toEqual([]);
    await stream(restored, 'again');
    expect(asks).toBe(1);
  });

  it('restores legacy and malformed artifacts on the display copy only', async () => {
    const client = await sessionWithToolCall();
    const data = JSON.parse(client.save());
    const value = data.toolResults[0].result.value;
    data.toolResults[0].result = {
      value,
      extra: { codeagent: { artifact: { kind: 'table', payload: { df: [{ i: 0 }, { i: 1 }] } } } },
    };
    data.messages.push(
      { role: 'user', content: 'x' },
      {
        role: 'assistant',
        content: [{ type: 'tool-call', toolCallId: 'call_9', toolName: 'rows', input: { n: 1 } }],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_9',
            toolName: 'rows',
            output: { type: 'text', value: 'plain' },
          },
        ],
      },
    );
    data.toolResults.push({
      id: 'call_9',
      name: 'rows',
      arguments: { n: 1 },
      result: {
        value: 'plain',
        extra: { codeagent: { artifact: { schema: 'codeagent.tool-artifact', version: '1', kind: 42 } } },
      },
      isError: false,
      callView: null,
      view: 'garbage',
    });
    const messagesBefore = JSON.stringify(data.messages);
    const restored = loadSession(JSON.stringify(data), {
      model: scriptedModel([]),
      registerTools: false,
      tools: [rows],
    });
    expect(JSON.stringify(restored.messages)).toBe(messagesBefore);
    const [legacy, malformed] = restored.toolResults();
    expect(legacy?.artifact).toMatchObject({
      schema: 'codeagent.tool-artifact',
      version: 1,
      kind: 'table',
      status: 'success',
    });
    expect(legacy?.value).toBe(value);
    expect(malformed?.artifact).toMatchObject({ version: 1, kind: 'text', payload: { text: 'plain' } });
    expect(malformed?.view.card).toBe('generic');
    expect(restored.toolRecords()[1]?.callView).toEqual({ card: 'generic', title: 'rows 1', kind: 'read' });
  });

  it('keeps compaction decisions in the session', async () => {
    const model = scriptedModel([
      [...text(['a1']), finish('stop')],
      [...text(['a2']), finish('stop')],
      [...text(['sum']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, compaction: { keepRecentTurns: 1 } });
    await stream(client, 'one');
    await stream(client, 'two');
    const d = await client.compact();
    const restored = loadSession(client.save(), { model, registerTools: false });
    expect(restored.compactions).toEqual([d]);
  });

  it('validates with clear errors', () => {
    const ok = { model: scriptedModel([]), registerTools: false } as const;
    const bad = (json: unknown, re: RegExp) => {
      expect(() => loadSession(json, ok)).toThrow(AgentCoreError);
      expect(() => loadSession(json, ok)).toThrow(re);
    };
    bad('{', /invalid session: not JSON/);
    bad('[]', /expected a JSON object/);
    bad({ format: 'other' }, /format must be "codeagent.session"/);
    bad({ format: 'codeagent.session', version: 2 }, /version 2 is newer/);
    bad({ format: 'codeagent.session', version: '1' }, /version must be 1/);
    const base = {
      format: 'codeagent.session',
      version: 1,
      savedAt: 'now',
      cwd: '/tmp',
      permissionMode: 'default',
      messages: [],
      toolResults: [],
      compactions: [],
      compactionFailures: 0,
      lastReportedTokens: 0,
    };
    expect(() => loadSession(base, ok)).not.toThrow();
    bad({ ...base, permissionMode: 'yolo' }, /permissionMode/);
    bad({ ...base, messages: [{ role: 'robot', content: 'x' }] }, /messages\.0/);
    bad(
      {
        ...base,
        messages: [
          { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: {} }] },
        ],
      },
      /tool call a has no result/,
    );
    bad(
      {
        ...base,
        toolResults: [
          { id: 'a', name: 't', isError: false },
          { id: 'a', name: 't', isError: false },
        ],
      },
      /duplicate id/,
    );
    let deep: unknown = 'x';
    for (let i = 0; i < 10_000; i++) deep = [deep];
    bad(
      { ...base, messages: [{ role: 'user', content: 'x', providerOptions: { a: { b: deep } } }] },
      /nested deeper/,
    );
    expect(() => parseSession('x'.repeat(100), { maxChars: 10 })).toThrow(/larger than 10 characters/);
  });

  it('never throws anything but invalid-session on arbitrary input (property)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.string(), fc.anything()), (x) => {
        try {
          parseSession(x);
        } catch (e) {
          expect(e).toBeInstanceOf(AgentCoreError);
          expect((e as AgentCoreError).code).toBe('invalid-session');
        }
      }),
      { numRuns: 300 },
    );
  });

  it('mutated valid sessions either load or fail cleanly, and loaded ones round-trip (property)', async () => {
    const client = await sessionWithToolCall();
    const good = JSON.parse(client.save());
    const paths: string[][] = [];
    const walk = (v: unknown, p: string[]) => {
      paths.push(p);
      if (typeof v === 'object' && v !== null) for (const [k, c] of Object.entries(v)) walk(c, [...p, k]);
    };
    walk(good, []);
    fc.assert(
      fc.property(
        fc.constantFrom(...paths.filter((p) => p.length > 0)),
        fc.jsonValue(),
        (path, replacement) => {
          const copy = structuredClone(good);
          let cur = copy;
          for (const k of path.slice(0, -1)) cur = cur[k];
          cur[path.at(-1) as string] = replacement;
          let restored: ReturnType<typeof loadSession> | undefined;
          try {
            restored = loadSession(JSON.stringify(copy), {
              model: scriptedModel([]),
              registerTools: false,
              tools: [rows],
            });
          } catch (e) {
            expect(e).toBeInstanceOf(AgentCoreError);
            return;
          }
          expect(JSON.stringify(restored.messages)).toBe(JSON.stringify(copy.messages));
          for (const r of restored.toolResults()) expect(typeof r.value).toBe('string');
          const again = loadSession(restored.save(), {
            model: scriptedModel([]),
            registerTools: false,
            tools: [rows],
          });
          expect(JSON.stringify(again.messages)).toBe(JSON.stringify(restored.messages));
        },
      ),
      { numRuns: 100 },
    );
  });

  it('adversarial payloads stay data: no prototype pollution, escapes kept verbatim', async () => {
    const client = await sessionWithToolCall();
    const data = JSON.parse(client.save());
    data.toolResults[0].result.extra.codeagent.artifact.title =
      '\u001b]52;c;ZXZpbA==\u0007<script>alert(1)</script>\u202e';
    const json = JSON.stringify(data).replace('"savedAt"', '"__proto__":{"polluted":true},"savedAt"');
    const restored = loadSession(json, { model: scriptedModel([]), registerTools: false, tools: [rows] });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(restored.toolResults()[0]?.artifact?.title).toBe(
      '\u001b]52;c;ZXZpbA==\u0007<script>alert(1)</script>\u202e',
    );
  });
});
