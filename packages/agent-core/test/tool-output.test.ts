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
  TOOL_OUTPUT_MAX_CHUNK,
  type ToolContext,
  type ToolOutputChunk,
} from '../src/index.js';
import { call, collect, finish, recordingCallbacks, scriptedModel, text } from './helpers.js';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
const answer = () => [...text(['done']), finish('stop')];

/** A tool that runs a script of writes: a chunk, or a pause in ms. */
type Write = { stream: 'stdout' | 'stderr'; text: string } | { pause: number };

function scriptedTool(name = 'run') {
  return defineTool({
    name,
    description: 'Writes output',
    inputSchema: z.object({ writes: z.array(z.any()) }),
    capability: 'read',
    async execute({ writes }, ctx) {
      for (const w of writes as Write[]) {
        if ('pause' in w) await sleep(w.pause);
        else ctx.output?.({ stream: w.stream, text: w.text });
      }
      return `ran ${writes.length}`;
    },
  });
}

const outputs = (events: readonly AgentEvent[], id?: string) =>
  events.filter(
    (e): e is Extract<AgentEvent, { type: 'tool-output' }> =>
      e.type === 'tool-output' && (id === undefined || e.id === id),
  );

/** Every tool-output of a call lies strictly between its tool-request and its tool-result. */
function checkOrder(events: readonly AgentEvent[]): void {
  const open = new Set<string>();
  const closed = new Set<string>();
  for (const e of events) {
    if (e.type === 'tool-request') open.add(e.id);
    if (e.type === 'tool-output') {
      expect(open.has(e.id), `output of ${e.id} outside its call`).toBe(true);
      expect(closed.has(e.id)).toBe(false);
      expect(Object.keys(e)).toEqual(['type', 'id', 'name', 'stream', 'text']);
      expect(e.text.length).toBeGreaterThan(0);
    }
    if (e.type === 'tool-result') {
      open.delete(e.id);
      closed.add(e.id);
    }
  }
  expect(events.at(-1)?.type).toBe('end');
}

describe('tool-output: live output of a running call', () => {
  it('arrives while the tool runs, between request and result; the model still sees only the result', async () => {
    let released: () => void = () => undefined;
    const gate = new Promise<void>((r) => {
      released = r;
    });
    const waits = defineTool({
      name: 'waits',
      description: 'Writes, then waits until the host saw the output',
      inputSchema: z.object({}),
      capability: 'read',
      async execute(_args, ctx) {
        ctx.output?.({ stream: 'stdout', text: 'line1\n' });
        // Resolved by the host's onToolOutput: the output is delivered before the tool ends.
        await gate;
        ctx.output?.({ stream: 'stderr', text: 'warn\n' });
        return 'final value';
      },
    });
    const model = scriptedModel([[call('c1', 'waits', {}), finish('tool-calls')], answer()]);
    const client = createClient({ model, registerTools: false, tools: [waits] });
    const { callbacks, events } = recordingCallbacks();
    const result = await stream(client, 'go', {
      ...callbacks,
      onToolOutput: (e) => {
        callbacks.onToolOutput?.(e);
        released();
      },
    });
    expect(result.stopReason).toBe('completed');
    checkOrder([...events, { type: 'end', result }]);
    expect(outputs(events).map((e) => [e.stream, e.text])).toEqual([
      ['stdout', 'line1\n'],
      ['stderr', 'warn\n'],
    ]);
    const res = events.find((e) => e.type === 'tool-result');
    expect(res?.type === 'tool-result' && res.value).toBe('final value');
    // What the model got back is the tool's return value, not the live output.
    expect(JSON.stringify(model.calls[1]?.prompt)).toContain('final value');
    expect(JSON.stringify(model.calls[1]?.prompt)).not.toContain('line1');
  });

  it('coalesces a flood of tiny writes into few events without losing a character', async () => {
    const n = 200_000;
    const flood = defineTool({
      name: 'flood',
      description: 'Many tiny writes',
      inputSchema: z.object({}),
      capability: 'read',
      async execute(_args, ctx) {
        for (let i = 0; i < n; i++) {
          ctx.output?.({ stream: 'stdout', text: 'x' });
          if (i % 20_000 === 0) await sleep(1);
        }
        return 'ok';
      },
    });
    const model = scriptedModel([[call('c1', 'flood', {}), finish('tool-calls')], answer()]);
    const client = createClient({ model, registerTools: false, tools: [flood] });
    const events = await collect(streamEvents(client, 'go'));
    checkOrder(events);
    const out = outputs(events);
    expect(out.map((e) => e.text).join('')).toBe('x'.repeat(n));
    // One per 64 Ki at most for the size bound, plus the timed and final deliveries of the awaits.
    expect(out.length).toBeLessThanOrEqual(Math.ceil(n / TOOL_OUTPUT_MAX_CHUNK) + 12);
    expect(out.every((e) => e.text.length <= TOOL_OUTPUT_MAX_CHUNK)).toBe(true);
  });

  it('keeps the two streams apart and delivers each in order', async () => {
    const writes: Write[] = [];
    for (let i = 0; i < 50; i++) writes.push({ stream: i % 3 === 0 ? 'stderr' : 'stdout', text: `${i};` });
    const model = scriptedModel([[call('c1', 'run', { writes }), finish('tool-calls')], answer()]);
    const client = createClient({ model, registerTools: false, tools: [scriptedTool()] });
    const events = await collect(streamEvents(client, 'go'));
    checkOrder(events);
    for (const s of ['stdout', 'stderr'] as const) {
      const want = writes
        .filter((w): w is Exclude<Write, { pause: number }> => 'stream' in w && w.stream === s)
        .map((w) => w.text)
        .join('');
      expect(
        outputs(events)
          .filter((e) => e.stream === s)
          .map((e) => e.text)
          .join(''),
      ).toBe(want);
    }
  });

  it('drops writes after the call ended and malformed chunks, and never throws into the tool', async () => {
    let keep: ToolContext['output'];
    const leaky = defineTool({
      name: 'leaky',
      description: 'Keeps its output function',
      inputSchema: z.object({}),
      capability: 'read',
      execute(_args, ctx) {
        keep = ctx.output;
        const out = ctx.output as (c: unknown) => void;
        out(null);
        out('text');
        out({ stream: 'stdin', text: 'no' });
        out({ stream: 'stdout', text: 42 });
        out({ stream: 'stdout', text: '' });
        out({ stream: 'stdout', text: 'yes' });
        return 'ok';
      },
    });
    const model = scriptedModel([
      [call('c1', 'leaky', {}), finish('tool-calls')],
      () => {
        // The next model request runs after the result: a late write must not appear.
        keep?.({ stream: 'stdout', text: 'late' });
        return answer();
      },
    ]);
    const client = createClient({ model, registerTools: false, tools: [leaky] });
    const events = await collect(streamEvents(client, 'go'));
    checkOrder(events);
    expect(outputs(events).map((e) => e.text)).toEqual(['yes']);
  });

  it('hands tools a silent output when the host has no onToolOutput', async () => {
    let got: ToolContext['output'];
    const probe = defineTool({
      name: 'probe',
      description: 'Records its context',
      inputSchema: z.object({}),
      capability: 'read',
      execute(_args, ctx) {
        got = ctx.output;
        ctx.output?.({ stream: 'stdout', text: 'ignored' });
        return 'ok';
      },
    });
    const model = scriptedModel([[call('c1', 'probe', {}), finish('tool-calls')], answer()]);
    const client = createClient({ model, registerTools: false, tools: [probe] });
    const { callbacks, events } = recordingCallbacks();
    const { onToolOutput: _dropped, ...withoutOutput } = callbacks;
    const r = await stream(client, 'go', withoutOutput);
    expect(r.stopReason).toBe('completed');
    expect(typeof got).toBe('function');
    expect(outputs(events)).toEqual([]);
  });

  it('an abort mid-output ends the turn interrupted and no output follows the abort', async () => {
    const endless = defineTool({
      name: 'endless',
      description: 'Writes until the end of time, ignoring its signal',
      inputSchema: z.object({}),
      capability: 'read',
      async execute(_args, ctx) {
        for (let i = 0; i < 10_000; i++) {
          ctx.output?.({ stream: 'stdout', text: `tick ${i}\n` });
          await sleep(2);
        }
        return 'never';
      },
    });
    const model = scriptedModel([[call('c1', 'endless', {}), finish('tool-calls')], answer()]);
    const client = createClient({ model, registerTools: false, tools: [endless] });
    const controller = new AbortController();
    const events: AgentEvent[] = [];
    let abortedAt = -1;
    for await (const e of streamEvents(client, 'go', { signal: controller.signal })) {
      if (e.type === 'tick') continue;
      events.push(e);
      if (e.type === 'tool-output' && outputs(events).length === 3 && abortedAt < 0) {
        abortedAt = events.length;
        controller.abort();
      }
    }
    await sleep(30);
    checkOrder(events);
    expect(abortedAt).toBeGreaterThan(0);
    expect(outputs(events.slice(abortedAt))).toEqual([]);
    const end = events.at(-1);
    expect(end?.type === 'end' && end.result.stopReason).toBe('interrupted');
  });

  it('a throwing onToolOutput ends the turn through the error path', async () => {
    const model = scriptedModel([
      [call('c1', 'run', { writes: [{ stream: 'stdout', text: 'a' }] }), finish('tool-calls')],
      answer(),
    ]);
    const client = createClient({ model, registerTools: false, tools: [scriptedTool()] });
    const errors: string[] = [];
    const r = await stream(client, 'go', {
      onToolOutput: () => {
        throw new Error('renderer broke');
      },
      onError: (m) => errors.push(m),
    });
    expect(r.stopReason).toBe('error');
    expect(errors.join('\n')).toContain('renderer broke');
  });

  it('property: output only between its request and result, lossless per stream, callbacks = iterator', async () => {
    const writeArb: fc.Arbitrary<Write> = fc.oneof(
      fc.record({
        stream: fc.constantFrom('stdout' as const, 'stderr' as const),
        text: fc.string({ minLength: 1, maxLength: 12 }),
      }),
      fc.record({ pause: fc.constantFrom(0, 1, 60) }),
    );
    const callsArb = fc.array(fc.array(writeArb, { maxLength: 12 }), { minLength: 1, maxLength: 3 });
    await fc.assert(
      fc.asyncProperty(fc.array(callsArb, { minLength: 1, maxLength: 2 }), async (steps) => {
        let n = 0;
        const plan = new Map<string, Write[]>();
        const script = steps.map((calls) => {
          const parts = calls.map((writes) => {
            const id = `call_${n++}`;
            plan.set(id, writes);
            return call(id, 'run', { writes });
          });
          return [...parts, finish('tool-calls')];
        });
        const padded = [...script, answer()];
        const viaCallbacks = recordingCallbacks();
        const a = createClient({
          model: scriptedModel(padded),
          registerTools: false,
          tools: [scriptedTool()],
        });
        const result = await stream(a, 'go', viaCallbacks.callbacks);
        expect(STOP_REASONS).toContain(result.stopReason);
        const all = [...viaCallbacks.events, { type: 'end' as const, result }];
        checkOrder(all);
        for (const [id, writes] of plan) {
          const out = outputs(all, id);
          expect(out.length).toBeLessThanOrEqual(writes.length);
          for (const s of ['stdout', 'stderr'] as const) {
            const want = writes.map((w) => ('stream' in w && w.stream === s ? w.text : '')).join('');
            const got = out
              .filter((e) => e.stream === s)
              .map((e) => e.text)
              .join('');
            expect(got).toBe(want);
          }
        }
        const b = createClient({
          model: scriptedModel(padded),
          registerTools: false,
          tools: [scriptedTool()],
        });
        const iterated = (await collect(streamEvents(b, 'go'))).filter((e) => e.type !== 'tick');
        // Coalescing depends on timing; the concatenated output per call and stream does not.
        const joined = (evs: readonly AgentEvent[]) =>
          [...plan.keys()].map((id) =>
            ['stdout', 'stderr'].map((s) =>
              outputs(evs, id)
                .filter((e) => e.stream === s)
                .map((e) => e.text)
                .join(''),
            ),
          );
        expect(joined(iterated)).toEqual(joined(all));
        checkOrder(iterated);
      }),
      { numRuns: 15 },
    );
  });
});

// Type-level: a chunk is exactly {stream, text}.
const _chunk: ToolOutputChunk = { stream: 'stdout', text: '' };
void _chunk;
