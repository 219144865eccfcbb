import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { APICallError, generateText, stepCountIs, streamText } from 'ai';
import { describe, expect, it } from 'vitest';
import {
  chunkText,
  isProvidersError,
  promptToolResults,
  ProvidersError,
  SCRIPT_EXHAUSTED_TEXT,
  type Script,
  type ScriptContext,
  scriptedModel,
} from '../src/index.js';
import { callOptions, comparable, looseTool, readAll, streamOnce, userPrompt } from './helpers.js';

const twoStepScript: Script = [
  {
    parts: [
      { type: 'reasoning', text: 'I should look first.' },
      { type: 'text', text: 'Let me check the weather.' },
      { type: 'tool-call', toolName: 'weather', input: { city: 'Paris' } },
    ],
    usage: { inputTokens: 100, outputTokens: 20, reasoningTokens: 5, cacheReadTokens: 40 },
  },
  (context: ScriptContext) => `The tool said: ${context.toolResults[0]?.text ?? 'nothing'}`,
];

describe('scriptedModel through streamText', () => {
  it('streams reasoning, text, a tool call, the tool result and the follow-up turn', async () => {
    const model = scriptedModel(twoStepScript);
    const seen: unknown[] = [];
    const result = streamText({
      model,
      prompt: 'weather in Paris?',
      tools: { weather: looseTool((input) => ({ city: input.city, sky: 'sunny' })) },
      stopWhen: stepCountIs(5),
    });
    for await (const part of result.fullStream) seen.push(part.type);
    expect(await result.text).toBe('The tool said: {"city":"Paris","sky":"sunny"}');
    const steps = await result.steps;
    expect(steps).toHaveLength(2);
    expect(steps[0]?.reasoningText).toBe('I should look first.');
    expect(steps[0]?.toolCalls.map((c) => [c.toolName, c.input])).toEqual([['weather', { city: 'Paris' }]]);
    expect(steps[0]?.finishReason).toBe('tool-calls');
    expect(steps[0]?.usage).toMatchObject({ inputTokens: 100, outputTokens: 20, reasoningTokens: 5 });
    expect(steps[0]?.usage.inputTokenDetails).toMatchObject({ cacheReadTokens: 40, noCacheTokens: 60 });
    expect(steps[1]?.finishReason).toBe('stop');
    // The part types arrive in protocol order: reasoning, then text, then the tool call, its result, step 2 text.
    const order = seen.filter((t) =>
      [
        'reasoning-start',
        'text-start',
        'tool-input-start',
        'tool-call',
        'tool-result',
        'finish-step',
      ].includes(String(t)),
    );
    expect(order).toEqual([
      'reasoning-start',
      'text-start',
      'tool-input-start',
      'tool-call',
      'tool-result',
      'finish-step',
      'text-start',
      'finish-step',
    ]);
    expect(model.requestCount).toBe(2);
    expect(model.remaining).toBe(0);
  });

  it('lets a step function see a denied tool result and react to it', async () => {
    const model = scriptedModel([
      { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'rm -rf build' } }] },
      (context) => (context.toolResults[0]?.denied ? 'Denied, so I stopped.' : 'It ran.'),
    ]);
    const result = streamText({
      model,
      prompt: 'clean up',
      tools: {
        Bash: looseTool(() => {
          throw new Error('Permission denied for Bash (rule Bash(rm *))');
        }),
      },
      stopWhen: stepCountIs(5),
    });
    expect(await result.text).toBe('Denied, so I stopped.');
    const secondPrompt = model.prompts[1] ?? [];
    const results = promptToolResults(secondPrompt);
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ toolName: 'Bash', isError: true, denied: true });
  });

  it('works with generateText (doGenerate) too', async () => {
    const model = scriptedModel(twoStepScript);
    const result = await generateText({
      model,
      prompt: 'weather?',
      tools: { weather: looseTool(() => 'rain') },
      stopWhen: stepCountIs(5),
    });
    expect(result.text).toBe('The tool said: rain');
    expect(result.steps[0]?.reasoningText).toBe('I should look first.');
  });

  it('surfaces an injected error part without ending the stream early', async () => {
    const model = scriptedModel([
      {
        parts: [
          { type: 'text', text: 'partial' },
          { type: 'error', message: 'upstream hiccup' },
        ],
      },
    ]);
    const errors: unknown[] = [];
    const result = streamText({ model, prompt: 'x', onError: ({ error }) => void errors.push(error) });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toContain('error');
    expect(types.at(-1)).toBe('finish');
    expect(String(errors[0])).toContain('upstream hiccup');
  });

  it('rejects doStream for a `throws` turn and consumes that turn', async () => {
    const model = scriptedModel([{ throws: 'HTTP 529 overloaded' }, 'recovered']);
    await expect(model.doStream(callOptions())).rejects.toThrow('HTTP 529 overloaded');
    const parts = await streamOnce(model);
    expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.delta)).toEqual(['recovered']);
  });
});

describe('scriptedModel stream parts', () => {
  it('emits the exact V3 part sequence for a turn', async () => {
    const model = scriptedModel(
      [
        {
          parts: [
            { type: 'text', text: 'ab cd' },
            { type: 'tool-call', toolName: 't', input: { a: 1 }, toolCallId: 'c1' },
          ],
          finishReason: { unified: 'other', raw: 'weird' },
          usage: { inputTokens: 7, outputTokens: 3 },
        },
      ],
      { modelId: 'm' },
    );
    const parts = await streamOnce(model);
    expect(parts).toEqual([
      { type: 'stream-start', warnings: [] },
      { type: 'response-metadata', id: 'scripted-0', modelId: 'm' },
      { type: 'text-start', id: 'txt-0-0' },
      { type: 'text-delta', id: 'txt-0-0', delta: 'ab ' },
      { type: 'text-delta', id: 'txt-0-0', delta: 'cd' },
      { type: 'text-end', id: 'txt-0-0' },
      { type: 'tool-input-start', id: 'c1', toolName: 't' },
      { type: 'tool-input-delta', id: 'c1', delta: '{"a":1}' },
      { type: 'tool-input-end', id: 'c1' },
      { type: 'tool-call', toolCallId: 'c1', toolName: 't', input: '{"a":1}' },
      {
        type: 'finish',
        finishReason: { unified: 'other', raw: 'weird' },
        usage: {
          inputTokens: { total: 7, noCache: 7, cacheRead: 0, cacheWrite: 0 },
          outputTokens: { total: 3, text: 3, reasoning: 0 },
        },
      },
    ]);
  });

  it('is deterministic: the same script gives the same stream, also after reset()', async () => {
    const run = async () => {
      const model = scriptedModel(twoStepScript);
      return [comparable(await streamOnce(model)), comparable(await streamOnce(model))];
    };
    expect(await run()).toEqual(await run());
    const model = scriptedModel(twoStepScript);
    const first = comparable(await streamOnce(model));
    model.reset();
    expect(model.requestCount).toBe(0);
    expect(comparable(await streamOnce(model))).toEqual(first);
  });

  it('answers a clear final text once the script runs out, never throwing', async () => {
    const model = scriptedModel(['only turn'], { exhaustedText: 'all done' });
    await streamOnce(model);
    for (let i = 0; i < 3; i++) {
      const parts = await streamOnce(model);
      expect(parts.filter((p) => p.type === 'text-delta').map((p) => p.delta)).toEqual(['all ', 'done']);
      expect(parts.at(-1)).toMatchObject({ type: 'finish', finishReason: { unified: 'stop' } });
    }
    const fresh = scriptedModel([]);
    const text = (await streamOnce(fresh))
      .flatMap((p) => (p.type === 'text-delta' ? [p.delta] : []))
      .join('');
    expect(text).toBe(SCRIPT_EXHAUSTED_TEXT);
  });

  it('estimates usage from text length when the turn gives none', async () => {
    const model = scriptedModel([
      {
        parts: [
          { type: 'text', text: 'x'.repeat(40) },
          { type: 'reasoning', text: 'y'.repeat(8) },
        ],
      },
    ]);
    const parts = await streamOnce(model, callOptions(userPrompt('z'.repeat(400))));
    const finish = parts.at(-1);
    expect(finish?.type).toBe('finish');
    if (finish?.type !== 'finish') return;
    expect(finish.usage.inputTokens.total).toBe(100);
    expect(finish.usage.outputTokens).toEqual({ total: 12, text: 10, reasoning: 2 });
  });

  it('honours per-chunk delays and aborts mid-stream', async () => {
    const model = scriptedModel([{ parts: [{ type: 'text', text: 'one two three' }], delayMs: 1 }, 'next']);
    const slow = await streamOnce(model);
    expect(slow.filter((p) => p.type === 'text-delta')).toHaveLength(3);
    const controller = new AbortController();
    const model2 = scriptedModel([{ parts: [{ type: 'text', text: 'a b c d e f' }], delayMs: 5 }]);
    const { stream } = await model2.doStream({ ...callOptions(), abortSignal: controller.signal });
    const reader = stream.getReader();
    await reader.read();
    controller.abort(new Error('stop now'));
    await expect(
      (async () => {
        for (;;) if ((await reader.read()).done) return 'done';
      })(),
    ).rejects.toThrow('stop now');
    const aborted = AbortSignal.abort();
    await expect(
      scriptedModel(['x']).doStream({ ...callOptions(), abortSignal: aborted }),
    ).rejects.toBeDefined();
  });

  it('skips every delay with disableDelays, including the turns own', async () => {
    const model = scriptedModel([{ parts: [{ type: 'text', text: 'a b' }], delayMs: 60_000 }], {
      disableDelays: true,
    });
    const parts = await streamOnce(model);
    expect(
      parts.filter((p) => p.type === 'text-delta').map((p) => p.type === 'text-delta' && p.delta),
    ).toEqual(['a ', 'b']);
    expect(() => scriptedModel([], { disableDelays: 'yes' as never })).toThrow(/disableDelays/u);
  });

  it('gives concurrent requests distinct turns in call order', async () => {
    const model = scriptedModel(['first', 'second']);
    const [a, b] = await Promise.all([model.doStream(callOptions()), model.doStream(callOptions())]);
    const text = async (s: ReadableStream<LanguageModelV3StreamPart>) =>
      (await readAll(s)).flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join('');
    expect([await text(a.stream), await text(b.stream)]).toEqual(['first', 'second']);
  });

  it('streams malformed raw tool input verbatim so hosts can test their repair path', async () => {
    const model = scriptedModel([{ parts: [{ type: 'tool-call', toolName: 't', rawInput: '{"a":' }] }]);
    const parts = await streamOnce(model);
    expect(parts.find((p) => p.type === 'tool-call')).toMatchObject({ input: '{"a":' });
  });
});

describe('chunkText', () => {
  it('splits after whitespace and never inside a surrogate pair', () => {
    expect(chunkText('hello big world', 24)).toEqual(['hello ', 'big ', 'world']);
    expect(chunkText('😀😀😀', 2)).toEqual(['😀😀', '😀']);
    expect(chunkText('', 4)).toEqual([]);
  });
});

describe('script validation', () => {
  const bad: Array<[string, unknown]> = [
    ['not an array', { parts: [] }],
    ['a number step', [42]],
    ['an unknown part type', [{ parts: [{ type: 'image' }] }]],
    ['a text part without text', [{ parts: [{ type: 'text' }] }]],
    ['an empty tool name', [{ parts: [{ type: 'tool-call', toolName: '' }] }]],
    [
      'duplicate tool call ids',
      [
        {
          parts: [
            { type: 'tool-call', toolName: 'a', toolCallId: 'x' },
            { type: 'tool-call', toolName: 'b', toolCallId: 'x' },
          ],
        },
      ],
    ],
    ['an unknown finish reason', [{ finishReason: 'done' }]],
    ['negative usage', [{ usage: { inputTokens: -1 } }]],
    ['fractional usage', [{ usage: { outputTokens: 1.5 } }]],
    ['a huge delay', [{ delayMs: 1e9 }]],
    ['a zero chunk size', [{ chunkSize: 0 }]],
    ['a function as tool input', [{ parts: [{ type: 'tool-call', toolName: 't', input: { f: () => 1 } }] }]],
    ['NaN in tool input', [{ parts: [{ type: 'tool-call', toolName: 't', input: { n: Number.NaN } }] }]],
    ['a Date in tool input', [{ parts: [{ type: 'tool-call', toolName: 't', input: { d: new Date(0) } }] }]],
    ['a typo in a turn field (part for parts)', [{ part: [{ type: 'text', text: 'lost' }] }]],
    ['a typo in a part field', [{ parts: [{ type: 'text', txt: 'lost' }] }]],
    ['a typo in a usage field', [{ usage: { inputToken: 3 } }]],
    ['a typo in a failure field', [{ throws: { message: 'x', status: 500 } }]],
  ];
  it.each(bad)('rejects %s with a clear invalid-script error', (_name, script) => {
    let caught: unknown;
    try {
      scriptedModel(script as Script);
    } catch (error) {
      caught = error;
    }
    expect(isProvidersError(caught)).toBe(true);
    expect(caught).toMatchObject({ code: 'invalid-script' });
  });

  it('rejects cyclic and absurdly deep tool input without a stack overflow', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() =>
      scriptedModel([{ parts: [{ type: 'tool-call', toolName: 't', input: cyclic as never }] }]),
    ).toThrow(/cycle/);
    let deep: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(() =>
      scriptedModel([{ parts: [{ type: 'tool-call', toolName: 't', input: deep as never }] }]),
    ).toThrow(/deeper than/);
  });

  it('rejects a step function that returns garbage at request time, naming the step', async () => {
    const model = scriptedModel([() => ({ parts: 'nope' }) as never]);
    await expect(model.doStream(callOptions())).rejects.toMatchObject({
      code: 'invalid-script',
      message: expect.stringContaining('script[0](context).parts'),
    });
  });

  it('keeps hostile text verbatim (escaping is the renderer’s job)', async () => {
    const hostile = '<script>alert(1)</script>\u001b]52;c;AAAA\u0007\u202Eevil';
    const parts = await streamOnce(scriptedModel([hostile]));
    expect(parts.flatMap((p) => (p.type === 'text-delta' ? [p.delta] : [])).join('')).toBe(hostile);
  });
});

describe('injected request failures', () => {
  it('throws an APICallError with the status when the turn gives one, and the SDK surfaces it', async () => {
    const model = scriptedModel([
      { throws: { message: 'prompt is too long: 250000 tokens > 200000 maximum', statusCode: 400 } },
      'after',
    ]);
    let caught: unknown;
    try {
      await generateText({ model, prompt: 'x', maxRetries: 3 });
    } catch (error) {
      caught = error;
    }
    expect(APICallError.isInstance(caught)).toBe(true);
    expect(caught).toMatchObject({ statusCode: 400, isRetryable: false });
    // Not retryable, so the SDK did not consume the next step.
    expect(model.remaining).toBe(1);
  });

  it('lets the SDK retry a retryable failure, which consumes the next step', async () => {
    const model = scriptedModel([
      { throws: { message: 'overloaded', statusCode: 529, isRetryable: true, retryAfterMs: 0 } },
      'second try',
    ]);
    const result = await generateText({ model, prompt: 'x', maxRetries: 1 });
    expect(result.text).toBe('second try');
    expect(model.requestCount).toBe(2);
  });

  it.each([
    [{ message: 'x', statusCode: 700 }],
    [{ message: 'x', statusCode: 0 }],
    [{ message: 'x', isRetryable: 'yes' }],
    [{ statusCode: 500 }],
    [{ message: 'x', statusCode: 429, retryAfterMs: -1 }],
    [42],
  ])('rejects the malformed failure %j', (throws) => {
    expect(() => scriptedModel([{ throws: throws as never }])).toThrow(ProvidersError);
  });
});

describe('host-facing edge cases through streamText', () => {
  it('calls a tool that was not offered, and the SDK reports it as a tool error', async () => {
    const model = scriptedModel([
      { parts: [{ type: 'tool-call', toolName: 'nope', input: {} }] },
      (context) => `saw ${context.toolResults.length} result(s), error: ${context.toolResults[0]?.isError}`,
    ]);
    const result = streamText({
      model,
      prompt: 'x',
      tools: { yes: looseTool(() => 'ok') },
      stopWhen: stepCountIs(3),
    });
    const types: string[] = [];
    for await (const part of result.fullStream) types.push(part.type);
    expect(types).toContain('tool-error');
    expect(await result.text).toBe('saw 1 result(s), error: true');
  });

  it('stops mid-turn when the host aborts, with the SDK reporting an abort', async () => {
    const controller = new AbortController();
    const model = scriptedModel([
      { parts: [{ type: 'text', text: 'one two three four five six' }], delayMs: 2 },
    ]);
    let aborted = false;
    const result = streamText({
      model,
      prompt: 'x',
      abortSignal: controller.signal,
      onAbort: () => {
        aborted = true;
      },
    });
    const deltas: string[] = [];
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') {
        deltas.push(part.text);
        if (deltas.length === 2) controller.abort();
      }
    }
    expect(aborted).toBe(true);
    expect(deltas.length).toBeLessThan(6);
  });
});
