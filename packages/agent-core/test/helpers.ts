import type { LanguageModelV3CallOptions, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import type { AgentEvent, StreamCallbacks } from '../src/index.js';

/** V3 usage with the given token totals. */
export function usage(input: number, output: number) {
  return {
    inputTokens: { total: input, noCache: input, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: output, text: output, reasoning: 0 },
  };
}

type Part = LanguageModelV3StreamPart;

/** Text chunks of one text block. */
export function text(chunks: readonly string[], id = 't'): Part[] {
  return [
    { type: 'text-start', id },
    ...chunks.map((delta): Part => ({ type: 'text-delta', id, delta })),
    { type: 'text-end', id },
  ];
}

/** Reasoning chunks of one block. */
export function reasoning(chunks: readonly string[], id = 'r'): Part[] {
  return [
    { type: 'reasoning-start', id },
    ...chunks.map((delta): Part => ({ type: 'reasoning-delta', id, delta })),
    { type: 'reasoning-end', id },
  ];
}

/** A tool call part (input is serialised unless it is already a string). */
export function call(toolCallId: string, toolName: string, input: unknown): Part {
  return {
    type: 'tool-call',
    toolCallId,
    toolName,
    input: typeof input === 'string' ? input : JSON.stringify(input),
  };
}

/** A finish part. */
export function finish(
  unified: 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other',
  raw?: string,
  u = usage(10, 5),
): Part {
  return { type: 'finish', finishReason: { unified, raw: raw ?? unified }, usage: u };
}

/** One scripted response: stream parts, a thrown error, or a function of the call options. */
export type Scripted =
  | Part[]
  | Error
  | ((options: LanguageModelV3CallOptions) => Part[] | Error | ReadableStream<Part>);

/** A mock model that answers each doStream call with the next scripted response. */
export function scriptedModel(
  script: readonly Scripted[],
): MockLanguageModelV3 & { calls: LanguageModelV3CallOptions[] } {
  let i = 0;
  const calls: LanguageModelV3CallOptions[] = [];
  const model = new MockLanguageModelV3({
    doStream: async (options) => {
      calls.push(options);
      const next = script[i++];
      if (next === undefined) throw new Error(`script exhausted after ${i - 1} responses`);
      const value = typeof next === 'function' ? next(options) : next;
      if (value instanceof Error) throw value;
      if (value instanceof ReadableStream) return { stream: value };
      return {
        stream: simulateReadableStream({
          chunks: [{ type: 'stream-start', warnings: [] }, ...value],
          chunkDelayInMs: null,
        }),
      };
    },
  });
  return Object.assign(model, { calls });
}

/** Callbacks that record every event in the shape of the event union (ticks dropped by default). */
export function recordingCallbacks(opts: { ticks?: boolean } = {}): {
  callbacks: StreamCallbacks;
  events: AgentEvent[];
} {
  const events: AgentEvent[] = [];
  const callbacks: StreamCallbacks = {
    onDelta: (t) => events.push({ type: 'delta', text: t }),
    onThinking: (t) => events.push({ type: 'thinking', text: t }),
    onToolRequest: (e) => events.push({ type: 'tool-request', ...e }),
    onToolOutput: (e) => events.push({ type: 'tool-output', ...e }),
    onToolResult: (e) => events.push({ type: 'tool-result', ...e }),
    onError: (message, recovered) => events.push({ type: 'error', message, recovered }),
    onUsage: (u) => events.push({ type: 'usage', usage: u }),
    onTick: () => {
      if (opts.ticks) events.push({ type: 'tick' });
    },
    onCompaction: (decision) => events.push({ type: 'compaction', decision }),
  };
  return { callbacks, events };
}

/** Collects an async iterable. */
export async function collect<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

/** Sleep that resolves immediately and records the requested delays. */
export function instantSleep(): { sleep: (ms: number) => Promise<void>; delays: number[] } {
  const delays: number[] = [];
  return {
    delays,
    sleep: async (ms: number) => {
      delays.push(ms);
    },
  };
}
