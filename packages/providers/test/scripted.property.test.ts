import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  isProvidersError,
  type JsonValue,
  type Script,
  type ScriptPart,
  type ScriptTurn,
  scriptedModel,
} from '../src/index.js';
import { callOptions, comparable, readAll } from './helpers.js';

const text = fc.string({ unit: 'grapheme', maxLength: 60 });
const hostile = fc.oneof(
  text,
  fc.constantFrom(
    '<img src=x onerror=alert(1)>',
    '\u001b[2J\u001b]0;title\u0007',
    '\u202Egnp.exe',
    '\u0000\uD800',
    '',
  ),
);
const json = fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<JsonValue>;

const part: fc.Arbitrary<ScriptPart> = fc.oneof(
  fc.record({ type: fc.constant('text' as const), text: hostile }),
  fc.record({ type: fc.constant('reasoning' as const), text: hostile }),
  fc.record({
    type: fc.constant('tool-call' as const),
    toolName: fc.string({ minLength: 1, maxLength: 12 }),
    input: json,
  }),
);

const turn: fc.Arbitrary<ScriptTurn> = fc.record(
  {
    parts: fc.array(part, { maxLength: 5 }),
    finishReason: fc.constantFrom('stop', 'length', 'content-filter', 'tool-calls', 'error', 'other'),
    usage: fc.record(
      {
        inputTokens: fc.nat(1_000_000),
        outputTokens: fc.nat(100_000),
        reasoningTokens: fc.nat(100_000),
        cacheReadTokens: fc.nat(1_000_000),
      },
      { requiredKeys: [] },
    ),
    chunkSize: fc.integer({ min: 1, max: 40 }),
  },
  { requiredKeys: [] },
);

/** A script step, sometimes with an injected error part or a rejected request. */
const step = fc.oneof(
  { weight: 6, arbitrary: turn },
  { weight: 1, arbitrary: text },
  {
    weight: 1,
    arbitrary: turn.map((t) => ({
      ...t,
      parts: [...(t.parts ?? []), { type: 'error' as const, message: 'injected' }],
    })),
  },
  { weight: 1, arbitrary: fc.constant<ScriptTurn>({ throws: 'injected throw' }) },
);
const script = fc.array(step, { maxLength: 6 });

type Outcome = { rejected: string } | { parts: unknown[] };

async function play(s: Script, requests: number): Promise<Outcome[]> {
  const model = scriptedModel(s);
  const outcomes: Outcome[] = [];
  for (let i = 0; i < requests; i++) {
    try {
      const { stream } = await model.doStream(callOptions());
      outcomes.push({ parts: comparable(await readAll(stream)) });
    } catch (error) {
      outcomes.push({ rejected: String(error) });
    }
  }
  return outcomes;
}

function wellFormed(parts: LanguageModelV3StreamPart[]): boolean {
  // stream-start first, finish last and only once; every start has its end before the finish.
  if (parts[0]?.type !== 'stream-start' || parts.at(-1)?.type !== 'finish') return false;
  if (parts.filter((p) => p.type === 'finish').length !== 1) return false;
  const open = new Set<string>();
  for (const p of parts) {
    if (p.type === 'text-start' || p.type === 'reasoning-start' || p.type === 'tool-input-start')
      open.add(p.id);
    if (p.type === 'text-end' || p.type === 'reasoning-end' || p.type === 'tool-input-end') {
      if (!open.delete(p.id)) return false;
    }
    if (p.type === 'tool-call') JSON.parse(p.input);
  }
  return open.size === 0;
}

describe('scriptedModel properties', () => {
  it('never rejects or errors a stream except where the script injects it, and always ends with finish', async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        const model = scriptedModel(s);
        // One request more than the script has: the last one must be the exhausted answer.
        for (let i = 0; i <= s.length; i++) {
          const current = s[i];
          const throws = typeof current === 'object' && current.throws !== undefined;
          let result: Awaited<ReturnType<typeof model.doStream>>;
          try {
            result = await model.doStream(callOptions());
          } catch (error) {
            expect(throws).toBe(true);
            expect(String(error)).toContain('injected throw');
            continue;
          }
          expect(throws).toBe(false);
          const parts = await readAll(result.stream);
          expect(wellFormed(parts)).toBe(true);
          const injected =
            typeof current === 'object' && (current.parts ?? []).some((p) => p.type === 'error');
          expect(parts.some((p) => p.type === 'error')).toBe(injected);
        }
      }),
      { numRuns: 120 },
    );
  });

  it('replays the same script to the same stream (determinism)', async () => {
    await fc.assert(
      fc.asyncProperty(script, async (s) => {
        expect(await play(s, s.length + 1)).toEqual(await play(s, s.length + 1));
      }),
      { numRuns: 60 },
    );
  });

  it('streams deltas that concatenate back to the scripted text and tool input', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 1, max: 8 }),
        async (parts, chunkSize) => {
          const model = scriptedModel([{ parts, chunkSize }]);
          const streamed = await readAll((await model.doStream(callOptions())).stream);
          parts.forEach((p, i) => {
            if (p.type === 'text' || p.type === 'reasoning') {
              const id = `${p.type === 'text' ? 'txt' : 'rsn'}-0-${i}`;
              const joined = streamed
                .flatMap((s) =>
                  (s.type === 'text-delta' || s.type === 'reasoning-delta') && s.id === id ? [s.delta] : [],
                )
                .join('');
              expect(joined).toBe(p.text);
            } else if (p.type === 'tool-call') {
              const id = `call_0_${i}`;
              const joined = streamed
                .flatMap((s) => (s.type === 'tool-input-delta' && s.id === id ? [s.delta] : []))
                .join('');
              expect(JSON.parse(joined)).toEqual(JSON.parse(JSON.stringify(p.input ?? {})));
            }
          });
        },
      ),
      { numRuns: 120 },
    );
  });

  it('turns any garbage script into a ProvidersError at construction, never another crash', () => {
    fc.assert(
      fc.property(fc.anything({ maxDepth: 4 }), (garbage) => {
        try {
          scriptedModel(garbage as Script);
          return true;
        } catch (error) {
          return isProvidersError(error) && error.code === 'invalid-script';
        }
      }),
      { numRuns: 300 },
    );
  });

  it('agrees between doGenerate and doStream on content and finish', async () => {
    await fc.assert(
      fc.asyncProperty(turn, async (t) => {
        const generated = await scriptedModel([t]).doGenerate(callOptions());
        const streamed = await readAll((await scriptedModel([t]).doStream(callOptions())).stream);
        const finish = streamed.at(-1);
        expect(finish?.type === 'finish' && finish.finishReason).toEqual(generated.finishReason);
        expect(finish?.type === 'finish' && finish.usage).toEqual(generated.usage);
        expect(
          generated.content
            .filter((c) => c.type === 'tool-call')
            .map((c) => c.type === 'tool-call' && c.input),
        ).toEqual(
          streamed.filter((s) => s.type === 'tool-call').map((s) => s.type === 'tool-call' && s.input),
        );
      }),
      { numRuns: 80 },
    );
  });
});
