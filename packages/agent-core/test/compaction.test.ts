import { APICallError } from '@ai-sdk/provider';
import type { ModelMessage } from 'ai';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  CLEARED_TOOL_RESULT,
  type CompactionDecision,
  createClient,
  defineTool,
  stream,
  validateToolPairs,
} from '../src/index.js';
import {
  Compactor,
  droppedMessage,
  isCollapsed,
  resolveCompaction,
  roundStarts,
  snipToolResults,
} from '../src/compaction.js';
import { estimateRequestTokens } from '../src/usage.js';
import { call, finish, recordingCallbacks, scriptedModel, text, usage } from './helpers.js';

// Window 60k, max output 20k: effective 40k, threshold 27k, blocking 37k.
const small = { contextWindow: 60_000, maxOutputTokens: 20_000 } as const;

const big = defineTool({
  name: 'big',
  description: 'Returns n characters',
  inputSchema: z.object({ n: z.number() }),
  capability: 'read',
  execute: ({ n }) => 'x'.repeat(n),
});

function promptText(prompt: unknown): string {
  return JSON.stringify(prompt);
}

describe('compaction in the loop', () => {
  it('snips old large tool results before a request over the threshold', async () => {
    const model = scriptedModel([
      [call('c1', 'big', { n: 100_000 }), finish('tool-calls', 'tool_calls', usage(10, 5))],
      [...text(['first done']), finish('stop', 'stop', usage(10, 5))],
      [call('c2', 'big', { n: 40_000 }), finish('tool-calls', 'tool_calls', usage(10, 5))],
      [...text(['second done']), finish('stop', 'stop', usage(10, 5))],
    ]);
    const client = createClient({
      model,
      registerTools: false,
      tools: [big],
      ...small,
      compaction: { keepRecentTurns: 1 },
    });
    await stream(client, 'one');
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'two', callbacks);
    expect(r.stopReason).toBe('completed');
    const decisions = events
      .filter((e) => e.type === 'compaction')
      .map((e) => (e.type === 'compaction' ? e.decision : null));
    expect(decisions).toHaveLength(1);
    const d = decisions[0] as CompactionDecision;
    expect(d.action).toBe('snip');
    expect(d.beforeTokens).toBeGreaterThanOrEqual(27_000);
    expect(d.afterTokens).toBeLessThan(27_000);
    expect(d.threshold).toBe(27_000);
    expect(d.dropped).toEqual([
      { kind: 'tool-result', index: 2, toolCallId: 'c1', toolName: 'big', tokens: expect.any(Number) },
    ]);
    // The request after the decision carries the placeholder, the call id is intact, pairs stay valid.
    const sent = model.calls[3]?.prompt as unknown;
    expect(promptText(sent)).toContain(CLEARED_TOOL_RESULT);
    expect(promptText(sent)).toContain('"toolCallId":"c1"');
    expect(validateToolPairs(client.messages)).toEqual([]);
    expect(JSON.stringify(client.messages)).toContain(CLEARED_TOOL_RESULT);
    expect(client.compactions).toEqual([d]);
    // The display copy keeps the full result.
    expect(client.toolRecords()[0]?.result.value.length).toBe(100_000);
  });

  it('summarises older turns through the model when a snip is not enough', async () => {
    const long = (c: string) => c.repeat(30_000); // ~7.5k tokens per user message
    const model = scriptedModel([
      [...text(['a1']), finish('stop')],
      [...text(['a2']), finish('stop')],
      [...text(['a3']), finish('stop')],
      [...text(['SUMMARY: user sent three long messages']), finish('stop')],
      [...text(['a4']), finish('stop')],
    ]);
    const client = createClient({
      model,
      registerTools: false,
      ...small,
      compaction: { keepRecentTurns: 1 },
    });
    await stream(client, long('a'));
    await stream(client, long('b'));
    await stream(client, long('c'));
    const seen: CompactionDecision[] = [];
    const r = await stream(client, long('d'), { onCompaction: (d) => seen.push(d) });
    expect(r.text).toBe('a4');
    // The summary request is billed in the turn's usage (two requests of 10 input / 5 output each).
    expect(r.usage).toMatchObject({ inputTokens: 20, outputTokens: 10 });
    expect(seen.map((d) => d.action)).toEqual(['summary']);
    expect(seen[0]?.dropped.map((d) => (d.kind === 'message' ? `${d.index}:${d.role}` : ''))).toEqual([
      '0:user',
      '1:assistant',
      '2:user',
      '3:assistant',
      '4:user',
      '5:assistant',
    ]);
    const summaryPrompt = promptText(model.calls[3]?.prompt);
    expect(summaryPrompt).toContain('Summarise this conversation');
    const after = model.calls[4]?.prompt as Array<{ role: string; content: Array<{ text?: string }> }>;
    expect(after.filter((m) => m.role !== 'system').map((m) => m.role)).toEqual(['user', 'user']);
    expect(JSON.stringify(after)).toContain('SUMMARY: user sent three long messages');
    expect(JSON.stringify(after)).not.toContain('bbbbbbbbbb');
    expect(client.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
  });

  it('falls back to a full summary keeping only the last user turn', async () => {
    const model = scriptedModel([
      [...text(['a1']), finish('stop')],
      [...text(['a2']), finish('stop')],
      [...text(['S1']), finish('stop')],
      [...text(['S2 full']), finish('stop')],
      [...text(['a3']), finish('stop')],
    ]);
    const client = createClient({
      model,
      registerTools: false,
      ...small,
      compaction: { keepRecentTurns: 2 },
    });
    await stream(client, 'small first');
    await stream(client, 'b'.repeat(80_000)); // ~20k tokens
    const seen: CompactionDecision[] = [];
    await stream(client, 'c'.repeat(40_000), { onCompaction: (d) => seen.push(d) }); // ~10k tokens
    expect(seen.map((d) => d.action)).toEqual(['full-summary']);
    expect(JSON.stringify(model.calls[4]?.prompt)).toContain('S2 full');
    expect(JSON.stringify(model.calls[4]?.prompt)).not.toContain('bbbbbbbbbb');
    expect(validateToolPairs(client.messages)).toEqual([]);
  });

  it('recovers from a prompt-too-long error by dropping the oldest rounds and retrying once', async () => {
    const tooLong = new APICallError({
      message: 'prompt is too long: 250000 tokens > 200000 maximum',
      url: 'http://127.0.0.1/v1/messages',
      requestBodyValues: {},
      statusCode: 400,
      isRetryable: false,
    });
    const model = scriptedModel([
      [...text(['a1']), finish('stop')],
      [...text(['a2']), finish('stop')],
      tooLong,
      [...text(['a3']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false });
    await stream(client, 'first');
    await stream(client, 'second');
    const { callbacks, events } = recordingCallbacks();
    const r = await stream(client, 'third', callbacks);
    expect(r.stopReason).toBe('completed');
    expect(r.text).toBe('a3');
    const d = events.find((e) => e.type === 'compaction');
    expect(d?.type === 'compaction' && d.decision.action).toBe('drop-oldest');
    expect(d?.type === 'compaction' && d.decision.dropped.map((x) => x.index)).toEqual([0, 1]);
    expect(events.filter((e) => e.type === 'error')).toMatchObject([{ recovered: true }]);
    expect(JSON.stringify(model.calls[3]?.prompt)).not.toContain('first');
    expect(JSON.stringify(model.calls[3]?.prompt)).toContain('second');
    expect(client.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });

  it('retries prompt-too-long only once', async () => {
    const tooLong = () =>
      new APICallError({
        message: 'prompt is too long',
        url: 'u',
        requestBodyValues: {},
        statusCode: 400,
        isRetryable: false,
      });
    const model = scriptedModel([
      [...text(['a1']), finish('stop')],
      [...text(['a2']), finish('stop')],
      tooLong(),
      tooLong(),
    ]);
    const client = createClient({ model, registerTools: false });
    await stream(client, 'first');
    await stream(client, 'second');
    const r = await stream(client, 'third');
    expect(r.stopReason).toBe('error');
    expect(model.calls).toHaveLength(4);
  });

  it('refuses a request at the blocking level when compaction cannot help: budget_exceeded', async () => {
    const model = scriptedModel([]);
    const client = createClient({ model, registerTools: false, ...small, compaction: false });
    const r = await stream(client, 'z'.repeat(160_000)); // ~40k tokens > 37k blocking
    expect(r.stopReason).toBe('budget_exceeded');
    expect(model.calls).toHaveLength(0);
    expect(r.usage?.warningState.atBlocking).toBe(true);
  });

  it('three failed compactions open the circuit breaker; later turns skip and still answer', async () => {
    const model = scriptedModel([
      [...text(['a1']), finish('stop')],
      new Error('summary model down'),
      [...text(['a2']), finish('stop')],
      new Error('summary model down'),
      [...text(['a3']), finish('stop')],
      [...text(['a4']), finish('stop')],
    ]);
    const client = createClient({
      model,
      registerTools: false,
      ...small,
      compaction: { keepRecentTurns: 1 },
      retry: { maxRetries: 0 },
    });
    const actions: string[] = [];
    const texts: string[] = [];
    for (const input of ['w'.repeat(120_000), 'two', 'three', 'four']) {
      const r = await stream(client, input, { onCompaction: (d) => actions.push(d.action) });
      texts.push(r.text);
    }
    expect(texts).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(actions).toEqual(['failed', 'failed', 'failed', 'skipped']);
    expect(client.compactions.at(-1)?.reason).toMatch(/circuit breaker open after 3 consecutive failures/);
    expect(model.calls).toHaveLength(6);
  });

  it('manual compact() summarises now and is recorded', async () => {
    const model = scriptedModel([
      [...text(['a1']), finish('stop')],
      [...text(['a2']), finish('stop')],
      [...text(['manual summary']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, compaction: { keepRecentTurns: 1 } });
    await stream(client, 'first');
    await stream(client, 'second');
    const d = await client.compact();
    expect(d.action).toBe('summary');
    expect(d.reason).toBe('manual compaction');
    expect(client.messages.map((m) => m.role)).toEqual(['user', 'user', 'assistant']);
    expect(client.compactions).toEqual([d]);
  });

  it("compact({instructions}) puts the user's instructions into the summary request and the decision", async () => {
    const model = scriptedModel([
      [...text(['a1']), finish('stop')],
      [...text(['a2']), finish('stop')],
      [...text(['focused summary']), finish('stop')],
    ]);
    const client = createClient({ model, registerTools: false, compaction: { keepRecentTurns: 1 } });
    await stream(client, 'first');
    await stream(client, 'second');
    const d = await client.compact({ instructions: '  keep the failing test names  ' });
    expect(d.reason).toBe('manual compaction: keep the failing test names');
    const summaryCall = model.calls.at(-1);
    const system = JSON.stringify(summaryCall?.prompt.filter((m) => m.role === 'system'));
    expect(system).toContain('The user asked for this summary: keep the failing test names');
    expect(JSON.stringify(client.messages[0])).toContain('focused summary');
  });
});

describe('Compactor', () => {
  const msgs = (n: number): ModelMessage[] =>
    Array.from({ length: n }, (_, i) => [
      { role: 'user' as const, content: `question ${i} ${'q'.repeat(4000)}` },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: `answer ${i}` }] },
    ]).flat();
  const est = (m: readonly ModelMessage[]) => estimateRequestTokens(m, undefined, 0);

  it('opens the circuit breaker after three consecutive failures; manual compaction still runs', async () => {
    let calls = 0;
    const c = new Compactor(resolveCompaction({ keepRecentTurns: 1 }), 100, async () => {
      calls++;
      throw new Error('summary model down');
    });
    const run = { messages: msgs(4), beforeTokens: 5000, estimate: est, reason: 'over' };
    const actions: string[] = [];
    for (let i = 0; i < 4; i++) actions.push((await c.compact(run)).decision.action);
    expect(actions).toEqual(['failed', 'failed', 'failed', 'skipped']);
    expect(calls).toBe(3);
    expect(c.circuitOpen).toBe(true);
    await c.compact({ ...run, force: true });
    expect(calls).toBe(4);
  });

  it('a success closes the breaker again', async () => {
    let fail = true;
    const c = new Compactor(resolveCompaction({ keepRecentTurns: 1 }), 2000, async () => {
      if (fail) throw new Error('x');
      return 'ok';
    });
    const run = { messages: msgs(4), beforeTokens: 5000, estimate: est, reason: 'over' };
    await c.compact(run);
    await c.compact(run);
    expect(c.consecutiveFailures).toBe(2);
    fail = false;
    expect((await c.compact(run)).decision.action).toBe('summary');
    expect(c.consecutiveFailures).toBe(0);
  });

  it('rejects bad settings', () => {
    expect(() => resolveCompaction({ keepRecentTurns: -1 })).toThrow(/keepRecentTurns/);
    expect(() => resolveCompaction({ maxConsecutiveFailures: 0 })).toThrow(/maxConsecutiveFailures/);
    expect(resolveCompaction(false).enabled).toBe(false);
  });

  // Random histories of rounds with tool calls: every rewrite keeps call/result pairs valid.
  const historyArb = fc
    .array(
      fc.record({
        user: fc.string({ maxLength: 50 }),
        steps: fc.array(fc.array(fc.nat(6000), { maxLength: 3 }), { maxLength: 3 }),
        answer: fc.string({ maxLength: 50 }),
      }),
      { minLength: 1, maxLength: 6 },
    )
    .map((rounds) => {
      const out: ModelMessage[] = [];
      let id = 0;
      for (const r of rounds) {
        out.push({ role: 'user', content: r.user });
        for (const step of r.steps) {
          if (step.length === 0) continue;
          const ids = step.map(() => `id${id++}`);
          out.push({
            role: 'assistant',
            content: ids.map((toolCallId) => ({
              type: 'tool-call' as const,
              toolCallId,
              toolName: 't',
              input: {},
            })),
          });
          out.push({
            role: 'tool',
            content: ids.map((toolCallId, k) => ({
              type: 'tool-result' as const,
              toolCallId,
              toolName: 't',
              output: { type: 'text' as const, value: 'r'.repeat(step[k] ?? 0) },
            })),
          });
        }
        out.push({ role: 'assistant', content: [{ type: 'text', text: r.answer }] });
      }
      return out;
    });

  it('snip, summaries and drop-oldest keep pairs valid (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        historyArb,
        fc.nat(3),
        fc.integer({ min: 10, max: 3000 }),
        async (history, keep, threshold) => {
          expect(validateToolPairs(history)).toEqual([]);
          const snipped = snipToolResults(history, keep, 100);
          expect(validateToolPairs(snipped.messages)).toEqual([]);
          expect(snipped.messages).toHaveLength(history.length);
          const c = new Compactor(
            resolveCompaction({ keepRecentTurns: keep }),
            threshold,
            async () => 'summary',
          );
          const out = await c.compact({
            messages: history,
            beforeTokens: est(history),
            estimate: est,
            reason: 'p',
          });
          expect(validateToolPairs(out.messages)).toEqual([]);
          // The last user turn is always kept verbatim.
          const last = roundStarts(history).at(-1) ?? 0;
          expect(out.messages.slice(-(history.length - last))).toEqual(history.slice(last));
          const dropped = c.dropOldest(history, 0, est(history));
          if (dropped) {
            expect(validateToolPairs(dropped.messages)).toEqual([]);
            // The one-pass suffix sums give the same figure as estimating the kept messages.
            expect(dropped.decision.afterTokens).toBe(est(dropped.messages));
            const kept = history.length - dropped.messages.length;
            // Whole rounds only: what is kept starts a round and is a suffix of the history.
            expect(roundStarts(history)).toContain(kept);
            expect(dropped.messages).toEqual(history.slice(kept));
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('the preview of a dropped message reads a bounded prefix but equals the full-text preview (property)', () => {
    // The definition: whitespace collapsed over the whole text, trimmed, 199 characters and an ellipsis.
    const fullPreview = (m: ModelMessage): string => {
      const t = (
        typeof m.content === 'string'
          ? m.content
          : m.content
              .map((p) =>
                p.type === 'text' || p.type === 'reasoning'
                  ? p.text
                  : p.type === 'tool-call'
                    ? `[tool call ${p.toolName}]`
                    : p.type === 'tool-result'
                      ? `[tool result ${p.toolName}]`
                      : undefined,
              )
              .filter((x) => x !== undefined)
              .join(' ')
      )
        .replace(/\s+/g, ' ')
        .trim();
      return t.length > 200 ? `${t.slice(0, 199)}…` : t;
    };
    const chunk = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.constantFrom(' '.repeat(900), '\n\t '.repeat(400), 'x'.repeat(1000), ' a'),
    );
    const textArb = fc.array(chunk, { maxLength: 6 }).map((xs) => xs.join(''));
    const messageArb: fc.Arbitrary<ModelMessage> = fc.oneof(
      textArb.map((content): ModelMessage => ({ role: 'user', content })),
      fc
        .array(
          fc.oneof(
            textArb.map((t) => ({ type: 'text' as const, text: t })),
            fc.constant({ type: 'tool-call' as const, toolCallId: 'c', toolName: 'Read', input: {} }),
          ),
          { maxLength: 5 },
        )
        .map((content): ModelMessage => ({ role: 'assistant', content })),
    );
    fc.assert(
      fc.property(messageArb, (m) => {
        const d = droppedMessage(m, 0);
        expect(d.kind === 'message' && d.preview).toBe(fullPreview(m));
      }),
      { numRuns: 400 },
    );
  });

  it('detects broken pairs', () => {
    expect(
      validateToolPairs([
        { role: 'user', content: 'x' },
        { role: 'assistant', content: [{ type: 'tool-call', toolCallId: 'a', toolName: 't', input: {} }] },
        { role: 'user', content: 'y' },
      ]).map((p) => p.message),
    ).toEqual(['tool call a has no result before message 2']);
    expect(
      validateToolPairs([
        {
          role: 'tool',
          content: [
            { type: 'tool-result', toolCallId: 'z', toolName: 't', output: { type: 'text', value: '' } },
          ],
        },
      ]).map((p) => p.message),
    ).toEqual(['tool result z has no matching call']);
  });
});

describe('isCollapsed (the preview fast path)', () => {
  const OLD = /\s\s|[^\S ]|^\s|\s$/;
  it('answers like the whitespace regex it replaced, for any string', () => {
    const spaces = [
      ' ',
      '\t',
      '\n',
      '\r',
      '\v',
      '\f',
      '\u00a0',
      '\u2028',
      '\u3000',
      '\ufeff',
      '\u200b',
      '\u180e',
    ];
    const char = fc.oneof(
      fc.constantFrom(...spaces),
      fc.constantFrom('a', 'b', '\u202e', '…'),
      fc.string({ maxLength: 1 }),
    );
    fc.assert(
      fc.property(fc.array(char, { maxLength: 40 }), (chars) => {
        const s = chars.join('');
        expect(isCollapsed(s)).toBe(!OLD.test(s));
      }),
      { numRuns: 3000 },
    );
    for (const s of ['', ' ', 'a', 'a b', 'a  b', ' a', 'a ', 'a\tb', '\u00a0', 'x\u3000'])
      expect(isCollapsed(s)).toBe(!OLD.test(s));
  });
});
