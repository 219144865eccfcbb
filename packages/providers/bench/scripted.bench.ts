import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { stepCountIs, streamText } from 'ai';
import { MockLanguageModelV3, simulateReadableStream } from 'ai/test';
import { bench, describe } from 'vitest';
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

describe('one turn through doStream (parts read to the end)', () => {
  bench('scriptedModel (plans, chunks and streams the turn)', async () => {
    await readAll((await scriptedModel([turn]).doStream(callOptions())).stream);
  });
  bench('baseline: MockLanguageModelV3 + simulateReadableStream of pre-built parts', async () => {
    const mock = new MockLanguageModelV3({
      doStream: async () => ({ stream: simulateReadableStream({ chunks: prebuilt, chunkDelayInMs: null }) }),
    });
    await readAll((await mock.doStream(callOptions())).stream);
  });
});

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

describe('the whole demo tour through streamText (11 requests, in-memory tools)', () => {
  bench('demoModel + streamText', async () => {
    const model = demoModel({ disableDelays: true });
    await streamText({ model, prompt: 'tour', tools, stopWhen: stepCountIs(30) }).consumeStream();
  });
  bench('baseline: MockLanguageModelV3 replaying the recorded tour + streamText', async () => {
    let i = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({ chunks: recorded[i++] ?? [], chunkDelayInMs: null }),
      }),
    });
    await streamText({ model, prompt: 'tour', tools, stopWhen: stepCountIs(30) }).consumeStream();
  });
});

describe('limits lookup', () => {
  const ids = ['claude-sonnet-4-5-20250929', 'gpt-4o-mini', 'qwen2.5-coder:7b', 'unknown-model'];
  bench('modelLimits (longest-prefix scan of the table)', () => {
    for (const id of ids) modelLimits(id);
  });
  const map = new Map(ids.map((id) => [id, { contextWindow: 1, maxOutputTokens: 1 }]));
  bench('baseline: Map.get of the exact id', () => {
    for (const id of ids) map.get(id);
  });
});
