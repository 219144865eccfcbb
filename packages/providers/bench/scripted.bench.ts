// providers bench, in the shared format (scripts/bench-lib.mjs): the scripted and demo models beside the AI SDK's own
// test mock replaying the same parts, and the limits table beside a Map lookup.
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { stepCountIs, streamText } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { expect, test } from 'vitest';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import { demoModel, modelLimits, type ScriptTurn, scriptedModel } from '../src/index.js';
import { callOptions, looseTool, readAll } from '../test/helpers.js';

const turn: ScriptTurn = {
  parts: [
    { type: 'reasoning', text: 'Think about the question for a short while before answering it.' },
    { type: 'text', text: 'Here is a reasonably long answer with a dozen words or so in it.' },
    { type: 'tool-call', toolName: 'Read', input: { file_path: 'src/greet.ts', offset: 1, limit: 40 } },
  ],
  usage: { inputTokens: 1_000, outputTokens: 50 },
};

// The baseline: the same stream parts, pre-built, replayed by the AI SDK's own test mock.
const prebuilt: LanguageModelV3StreamPart[] = await readAll(
  (await scriptedModel([turn]).doStream(callOptions())).stream,
);

const tools = Object.fromEntries(
  ['Glob', 'Read', 'Grep', 'Edit', 'Write', 'Bash', 'job_output', 'job_kill', 'TodoWrite'].map((name) => [
    name,
    looseTool((input) =>
      name === 'Bash' && input.run_in_background === true ? 'Started background job job-1' : 'ok',
    ),
  ]),
);

// Record the tour's 11 streams once, for the baseline to replay.
const recorded: LanguageModelV3StreamPart[][] = [];
{
  const demo = demoModel({ disableDelays: true });
  const recorder = new MockLanguageModelV3({
    doStream: async (options) => {
      const parts = await readAll((await demo.doStream(options)).stream);
      recorded.push(parts);
      return { stream: simulateReadableStream({ chunks: parts, chunkDelayInMs: null }) };
    },
  });
  await streamText({ model: recorder, prompt: 'tour', tools, stopWhen: stepCountIs(30) }).consumeStream();
}

const ids = ['claude-sonnet-4-5-20250929', 'gpt-4o-mini', 'qwen2.5-coder:7b', 'unknown-model'];
const map = new Map(ids.map((id) => [id, { contextWindow: 1, maxOutputTokens: 1 }]));
let sink = 0;

test('providers beside the AI SDK test mock', async () => {
  const suite = benchSuite(
    '@codeagent/providers',
    'scripted and demo models beside MockLanguageModelV3 + simulateReadableStream replaying the same parts',
  );
  await suite.compare({
    name: 'scripted turn',
    what: 'scriptedModel: plan, chunk and stream one turn (reasoning, text, a tool call), read to the end',
    baselineName: 'MockLanguageModelV3 + simulateReadableStream of the pre-built parts',
    ours: async () => {
      await readAll((await scriptedModel([turn]).doStream(callOptions())).stream);
    },
    baseline: async () => {
      const mock = new MockLanguageModelV3({
        doStream: async () => ({
          stream: simulateReadableStream({ chunks: prebuilt, chunkDelayInMs: null }),
        }),
      });
      await readAll((await mock.doStream(callOptions())).stream);
    },
    // Both streams wait on timers between parts: a short CPU sample keeps the wall time of a pair reasonable.
    minSampleMs: 4,
    goal: { max: 1.5 },
  });
  await suite.compare({
    name: 'demo tour',
    what: 'the whole demo tour through streamText (11 requests, in-memory tools)',
    baselineName: 'MockLanguageModelV3 replaying the recorded tour through streamText',
    ours: async () => {
      const model = demoModel({ disableDelays: true });
      await streamText({ model, prompt: 'tour', tools, stopWhen: stepCountIs(30) }).consumeStream();
    },
    baseline: async () => {
      let i = 0;
      const model = new MockLanguageModelV3({
        doStream: async () => ({
          stream: simulateReadableStream({ chunks: recorded[i++] ?? [], chunkDelayInMs: null }),
        }),
      });
      await streamText({ model, prompt: 'tour', tools, stopWhen: stepCountIs(30) }).consumeStream();
    },
    goal: { max: 1.2 },
  });
  await suite.compare({
    name: 'limits lookup',
    what: 'modelLimits of 4 ids (longest-prefix scan of the table)',
    baselineName: 'Map.get of the exact ids',
    ours: () => {
      for (const id of ids) sink += modelLimits(id).contextWindow;
    },
    baseline: () => {
      for (const id of ids) sink += map.get(id)?.contextWindow ?? 0;
    },
    note: 'no goal: nanoseconds either way, called once per model switch',
  });
  suite.finish();
  expect(sink).toBeGreaterThan(0);
});
