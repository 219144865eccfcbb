import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createClient, defineTool, loadSession, stream, streamEvents } from '../src/index.js';
import { call, collect, finish, reasoning, recordingCallbacks, scriptedModel, text } from './helpers.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo text back',
  inputSchema: z.object({ text: z.string() }),
  capability: 'read',
  execute: ({ text }) => `echo: ${text}`,
});

describe('the loop', () => {
  it('streams text, runs a tool and continues', async () => {
    const model = scriptedModel([
      [
        ...reasoning(['hmm']),
        ...text(['Let me ', 'echo.']),
        call('c1', 'echo', { text: 'hi', _intent: 'to test' }),
        finish('tool-calls', 'tool_calls'),
      ],
      [...text(['Done.']), finish('stop', 'end_turn')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [echo] });
    const { callbacks, events } = recordingCallbacks();
    const result = await stream(client, 'go', callbacks);
    expect(result.stopReason).toBe('completed');
    expect(result.finishReason).toBe('end_turn');
    expect(result.text).toBe('Let me echo.Done.');
    expect(events.map((e) => e.type)).toEqual([
      'thinking',
      'delta',
      'delta',
      'tool-request',
      'tool-result',
      'delta',
      'usage',
    ]);
    const req = events[3];
    expect(req).toMatchObject({
      id: 'c1',
      name: 'echo',
      arguments: { text: 'hi', _intent: 'to test' },
      intent: 'to test',
    });
    const res = events[4];
    expect(res && res.type === 'tool-result' && Object.keys(res)).toEqual([
      'type',
      'id',
      'name',
      'display',
      'value',
      'isError',
      'artifact',
      'view',
    ]);
  });

  it('iterator matches callbacks', async () => {
    const mk = () =>
      scriptedModel([
        [...text(['a', 'b']), call('c1', 'echo', { text: 'x' }), finish('tool-calls')],
        [...text(['c']), finish('stop')],
      ]);
    const c1 = createClient({ model: mk(), registerTools: false, tools: [echo] });
    const { callbacks, events } = recordingCallbacks();
    const r1 = await stream(c1, 'go', callbacks);
    const c2 = createClient({ model: mk(), registerTools: false, tools: [echo] });
    const evs = (await collect(streamEvents(c2, 'go'))).filter((e) => e.type !== 'tick');
    expect(evs.at(-1)).toEqual({ type: 'end', result: r1 });
    expect(evs.slice(0, -1)).toEqual(events);
  });
});

describe('raw text stays raw', () => {
  it('escape sequences, markup and bidi controls reach the host verbatim, once (renderers escape at render time)', async () => {
    const nasty = [
      '\u001b]52;c;ZXZpbA==\u0007',
      '<img src=x onerror=alert(1)>',
      '\u202eevil\u202c',
      '\u001b[31mred\u001b[0m',
    ];
    const tool = defineTool({
      name: 'nasty',
      description: 'returns hostile text',
      inputSchema: z.object({}),
      capability: 'read',
      execute: () => nasty.join(''),
    });
    const model = scriptedModel([
      [...text(nasty), call('c1', 'nasty', {}), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [tool] });
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'go', callbacks);
    expect(r.text).toBe(`${nasty.join('')}ok`);
    expect(events.find((e) => e.type === 'tool-result')).toMatchObject({ value: nasty.join('') });
    const saved = loadSession(client.save(), {
      model: scriptedModel([]),
      registerTools: false,
      tools: [tool],
    });
    expect(saved.toolResults()[0]?.value).toBe(nasty.join(''));
  });
});

describe('callback payloads', () => {
  it('onToolRequest and onToolResult get exactly the contract keys, in order', async () => {
    const model = scriptedModel([
      [call('c1', 'echo', { text: 'x' }), finish('tool-calls')],
      [...text(['ok']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, tools: [echo] });
    const keys: string[][] = [];
    await stream(client, 'go', {
      onToolRequest: (e) => keys.push(Object.keys(e)),
      onToolResult: (e) => keys.push(Object.keys(e)),
    });
    expect(keys).toEqual([
      ['id', 'name', 'arguments', 'intent', 'view'],
      ['id', 'name', 'display', 'value', 'isError', 'artifact', 'view'],
    ]);
  });
});
