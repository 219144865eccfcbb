import { installPermissionGate } from '@codeagent/permission-gate';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { type AgentEvent, createClient, defineTool, stream, streamEvents } from '../src/index.js';
import { call, collect, finish, scriptedModel, text } from './helpers.js';

describe('isolation', () => {
  it('50 concurrent clients never see each other’s events, history or grants', async () => {
    const N = 50;
    const runs = Array.from({ length: N }, (_, k) => {
      const marker = `client-${k}`;
      // Every client uses the same tool call ids on purpose.
      const model = scriptedModel([
        [
          ...text([`${marker} a `, `${marker} b `]),
          call('call_1', 'note', { text: marker }),
          finish('tool-calls'),
        ],
        [call('call_2', 'note', { text: `${marker} again` }), finish('tool-calls')],
        [...text([`${marker} done`]), finish('stop')],
      ]);
      const note = defineTool({
        name: 'note',
        description: 'Note',
        inputSchema: z.object({ text: z.string() }),
        capability: 'write',
        execute: async ({ text: t }) => {
          await new Promise((r) => setTimeout(r, k % 3));
          return `noted ${t}`;
        },
      });
      const client = createClient({ model, registerTools: false, tools: [note] });
      let asks = 0;
      installPermissionGate(client, {
        ask: () => {
          asks++;
          return k % 2 === 0 ? { allow: true, scope: 'session' } : true;
        },
      });
      return { k, marker, client, asks: () => asks };
    });
    const results = await Promise.all(
      runs.map(async (r) => {
        const events: AgentEvent[] =
          r.k % 2 === 0
            ? (await collect(streamEvents(r.client, `hello from ${r.marker}`))).filter(
                (e) => e.type !== 'tick',
              )
            : await (async () => {
                const out: AgentEvent[] = [];
                const res = await stream(r.client, `hello from ${r.marker}`, {
                  onDelta: (t) => out.push({ type: 'delta', text: t }),
                  onToolRequest: (e) => out.push({ type: 'tool-request', ...e }),
                  onToolResult: (e) => out.push({ type: 'tool-result', ...e }),
                });
                out.push({ type: 'end', result: res });
                return out;
              })();
        return { ...r, events };
      }),
    );
    for (const r of results) {
      const own = new RegExp(`client-${r.k}(?!\\d)`);
      const blob = JSON.stringify(r.events);
      const foreign = blob.match(/client-\d+/g)?.filter((m) => m !== r.marker) ?? [];
      expect(foreign).toEqual([]);
      expect(blob).toMatch(own);
      const end = r.events.at(-1);
      expect(end?.type === 'end' && end.result.text).toBe(`${r.marker} a ${r.marker} b ${r.marker} done`);
      const values = r.events.flatMap((e) => (e.type === 'tool-result' ? [e.value] : []));
      expect(values).toEqual([`noted ${r.marker}`, `noted ${r.marker} again`]);
      const history = JSON.stringify(r.client.messages);
      expect(history.match(/client-\d+/g)?.filter((m) => m !== r.marker) ?? []).toEqual([]);
      // Even clients granted for the session (asked once); odd ones allowed once (asked twice).
      expect(r.asks()).toBe(r.k % 2 === 0 ? 1 : 2);
      expect(r.client.getPermissionGate()?.sessionGrants()).toEqual(r.k % 2 === 0 ? ['note'] : []);
    }
  });
});
