import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  createClient,
  defineTool,
  STOP_REASONS,
  stream,
  streamEvents,
} from '../src/index.js';
import { call, collect, finish, reasoning, recordingCallbacks, scriptedModel, text } from './helpers.js';

const echo = defineTool({
  name: 'echo',
  description: 'Echo',
  inputSchema: z.object({ text: z.string() }),
  capability: 'read',
  execute: ({ text: t }) => (t.startsWith('!') ? Promise.reject(new Error(`bad ${t}`)) : `echo ${t}`),
});

// One model response: text/reasoning chunks, tool calls (valid, invalid JSON, unknown tool), a finish reason.
const stepArb = fc.record({
  thinking: fc.array(fc.string({ maxLength: 8 }), { maxLength: 3 }),
  chunks: fc.array(fc.string({ maxLength: 8 }), { maxLength: 5 }),
  calls: fc.array(
    fc.oneof(
      fc.record({
        kind: fc.constant('ok' as const),
        text: fc.string({ maxLength: 6 }),
        intent: fc.option(fc.string({ maxLength: 6 })),
      }),
      fc.record({ kind: fc.constant('bad-json' as const) }),
      fc.record({ kind: fc.constant('unknown' as const) }),
    ),
    { maxLength: 3 },
  ),
  finish: fc.constantFrom('stop', 'length', 'content-filter', 'tool-calls', 'other'),
});

type Step = typeof stepArb extends fc.Arbitrary<infer T> ? T : never;

function toParts(steps: Step[]): LanguageModelV3StreamPart[][] {
  let id = 0;
  return steps.map((s) => {
    const parts: LanguageModelV3StreamPart[] = [];
    if (s.thinking.length) parts.push(...reasoning(s.thinking));
    if (s.chunks.length) parts.push(...text(s.chunks));
    for (const c of s.calls) {
      const callId = `call_${id++}`;
      if (c.kind === 'ok')
        parts.push(
          call(callId, 'echo', c.intent === null ? { text: c.text } : { text: c.text, _intent: c.intent }),
        );
      else if (c.kind === 'bad-json') parts.push(call(callId, 'echo', '{"text": '));
      else parts.push(call(callId, 'missing_tool', {}));
    }
    const unified = s.calls.length > 0 && s.finish === 'stop' ? 'tool-calls' : s.finish;
    parts.push(finish(unified as 'stop'));
    return parts;
  });
}

function checkInvariants(events: AgentEvent[]): void {
  const end = events.at(-1);
  expect(end?.type).toBe('end');
  expect(events.filter((e) => e.type === 'end')).toHaveLength(1);
  if (end?.type !== 'end') return;
  expect(STOP_REASONS).toContain(end.result.stopReason);
  const requested = new Set<string>();
  let text = '';
  for (const e of events) {
    if (e.type === 'delta') text += e.text;
    if (e.type === 'tool-request') {
      expect(requested.has(e.id)).toBe(false);
      requested.add(e.id);
    }
    if (e.type === 'tool-result') {
      // Every result follows its request; keys exactly as the contract says.
      expect(requested.has(e.id)).toBe(true);
      expect(Object.keys(e)).toEqual([
        'type',
        'id',
        'name',
        'display',
        'value',
        'isError',
        'artifact',
        'view',
      ]);
      expect(typeof e.value).toBe('string');
    }
  }
  expect(end.result.text).toBe(text);
  if (end.result.stopReason === 'error') expect(end.result.usage).toBeNull();
  else expect(events.filter((e) => e.type === 'usage')).toHaveLength(1);
}

describe('event stream invariants (property)', () => {
  it('callbacks and iterator agree, end is last, results follow requests, text is the deltas', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(stepArb, { minLength: 1, maxLength: 4 }), async (steps) => {
        const script = toParts(steps);
        // Pad with a final answer so a continuing loop never runs out of script.
        const padded = [...script, [...text(['end']), finish('stop')]];
        const viaCallbacks = recordingCallbacks();
        const a = createClient({ model: scriptedModel(padded), registerTools: false, tools: [echo] });
        const result = await stream(a, 'go', viaCallbacks.callbacks);
        const b = createClient({ model: scriptedModel(padded), registerTools: false, tools: [echo] });
        const iterated = (await collect(streamEvents(b, 'go'))).filter((e) => e.type !== 'tick');
        expect(iterated).toEqual([...viaCallbacks.events, { type: 'end', result }]);
        checkInvariants(iterated);
        expect(JSON.stringify(a.messages)).toBe(JSON.stringify(b.messages));
      }),
      { numRuns: 60 },
    );
  });
});
