import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentEvent, createClient } from '@codeagent/agent-core';
import { scriptedModel } from '@codeagent/providers';
import { createBuiltinToolkit } from '@codeagent/tools';
import { readUIMessageStream, type UIMessage, type UIMessageChunk } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { readToolPart } from '../src/client.ts';
import {
  createAgentUIChat,
  createEventMapper,
  LIVE_OUTPUT_INTERVAL_MS,
  LIVE_OUTPUT_TAIL,
} from '../src/index.ts';
import { readBack, toolParts, userMessage } from './helpers.js';

const cleanups: Array<() => Promise<unknown>> = [];
afterEach(async () => {
  while (cleanups.length > 0) await cleanups.pop()?.();
});

const view = { card: 'terminal' as const, title: 'npm test', command: 'npm test' };
const request: AgentEvent = {
  type: 'tool-request',
  id: 'c1',
  name: 'Bash',
  arguments: {},
  intent: null,
  view,
};
const output = (text: string): AgentEvent => ({
  type: 'tool-output',
  id: 'c1',
  name: 'Bash',
  stream: 'stdout',
  text,
});

describe('live tool output on the tool part (preliminary outputs)', () => {
  it('sends the first output at once, then at most one per interval (the tick sends what waited); plain output, raw tail', () => {
    let clock = 0;
    const mapper = createEventMapper({ now: () => clock });
    mapper.map(request);
    const first = mapper.map(output('\u001b[31mred\u001b[0m\n'));
    expect(first).toEqual([
      {
        type: 'tool-output-available',
        toolCallId: 'c1',
        output: 'red\n',
        dynamic: true,
        preliminary: true,
        toolMetadata: { codeagent: { call: view, intent: null, live: '\u001b[31mred\u001b[0m\n' } },
      },
    ]);
    clock += 10;
    expect(mapper.map(output('two\n'))).toEqual([]);
    expect(mapper.map({ type: 'tick' })).toEqual([]);
    clock += LIVE_OUTPUT_INTERVAL_MS;
    const waited = mapper.map({ type: 'tick' });
    expect(waited).toHaveLength(1);
    expect(waited[0]).toMatchObject({ output: 'red\ntwo\n', preliminary: true });
    // Nothing new: the next tick sends nothing.
    clock += LIVE_OUTPUT_INTERVAL_MS;
    expect(mapper.map({ type: 'tick' })).toEqual([]);
    // A flood keeps only the tail.
    clock += LIVE_OUTPUT_INTERVAL_MS;
    const flood = mapper.map(output(`${'x'.repeat(LIVE_OUTPUT_TAIL * 3)}END`));
    const tail = (flood[0] as unknown as { toolMetadata: { codeagent: { live: string } } }).toolMetadata
      .codeagent.live;
    expect(tail.length).toBe(LIVE_OUTPUT_TAIL);
    expect(tail.endsWith('END')).toBe(true);
    // After the result nothing live is sent for the call, also for output that waited.
    clock += 1;
    mapper.map(output('late\n'));
    mapper.map({
      type: 'tool-result',
      id: 'c1',
      name: 'Bash',
      display: null,
      value: 'done',
      isError: false,
      artifact: null,
      view: { card: 'terminal', output: 'done', exitCode: 0 },
    });
    clock += LIVE_OUTPUT_INTERVAL_MS;
    expect(mapper.map({ type: 'tick' })).toEqual([]);
    expect(mapper.map(output('after\n'))).toEqual([]);
  });

  it('the AI SDK reader shows the live output as running, then the result replaces it', async () => {
    let clock = 0;
    const mapper = createEventMapper({ now: () => clock });
    const events: AgentEvent[] = [
      request,
      output('one\n'),
      { type: 'tick' },
      output('two\n'),
      {
        type: 'tool-result',
        id: 'c1',
        name: 'Bash',
        display: null,
        value: 'one\ntwo',
        isError: false,
        artifact: null,
        view: { card: 'terminal', output: 'one\ntwo\n', exitCode: 0 },
      },
    ];
    const chunks: UIMessageChunk[] = [{ type: 'start', messageId: 'm1' }];
    for (const e of events) {
      chunks.push(...(mapper.map(e) as UIMessageChunk[]));
      clock += LIVE_OUTPUT_INTERVAL_MS;
    }
    chunks.push({ type: 'finish' });
    const seen: Array<ReturnType<typeof readToolPart>> = [];
    const stream = new ReadableStream<UIMessageChunk>({
      start(c) {
        for (const chunk of chunks) c.enqueue(chunk);
        c.close();
      },
    });
    let last: UIMessage | undefined;
    for await (const snapshot of readUIMessageStream({ stream })) {
      last = snapshot;
      const part = snapshot.parts.find((p) => p.type === 'dynamic-tool');
      if (part) seen.push(readToolPart(structuredClone(part)));
    }
    const live = seen.filter((s) => s?.liveOutput !== null);
    expect(live.map((s) => s?.liveOutput)).toEqual(['one\n', 'one\ntwo\n']);
    expect(live.every((s) => s?.status === 'running' && s.value === '' && s.result === null)).toBe(true);
    const final = readToolPart(last?.parts.find((p) => p.type === 'dynamic-tool'));
    expect(final).toMatchObject({ status: 'done', value: 'one\ntwo', liveOutput: null });
  });

  it('a real Bash call through the chat: live parts while it runs, between the call and its result, none stored', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'adapter-live-'));
    cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const toolkit = createBuiltinToolkit({ cwd });
    cleanups.push(() => toolkit.dispose());
    const command = 'for i in $(seq 1 12); do echo line$i; sleep 0.05; done';
    const model = scriptedModel([
      { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command } }] },
      { parts: [{ type: 'text', text: 'ran' }] },
    ]);
    const client = createClient({ model, cwd, tools: toolkit.tools, permissionMode: 'bypass' });
    const stored: UIMessage[][] = [];
    const chat = createAgentUIChat({
      client,
      onChange: (m) => stored.push(structuredClone([...m]) as UIMessage[]),
    });
    const { message, chunks } = await readBack(chat.respond(userMessage('go')));
    const live = chunks.filter((c) => c.type === 'tool-output-available' && c.preliminary === true);
    expect(live.length).toBeGreaterThanOrEqual(1);
    const lastLive = live.at(-1) as unknown as { toolMetadata: { codeagent: { live: string } } };
    expect(lastLive.toolMetadata.codeagent.live).toMatch(/^line1\n/);
    // Live chunks come between the call and its result.
    const call = chunks.findIndex((c) => c.type === 'tool-input-available');
    const result = chunks.findIndex((c) => c.type === 'tool-output-available' && c.preliminary !== true);
    expect(live.every((c) => chunks.indexOf(c) > call && chunks.indexOf(c) < result)).toBe(true);
    expect(toolParts(message)[0]).toMatchObject({
      state: 'output-available',
      output: expect.stringContaining('line12'),
    });
    expect(toolParts(message)[0]?.preliminary).not.toBe(true);
    // Nothing live was stored: every stored copy has the call running or finished, never preliminary.
    for (const snapshot of stored)
      for (const m of snapshot) for (const p of toolParts(m)) expect(p.preliminary).not.toBe(true);
    await chat.idle();
  }, 30_000);

  it('a replay after a reload starts from the latest live output, not from every earlier one', async () => {
    const cwd = await mkdtemp(join(tmpdir(), 'adapter-live-'));
    cleanups.push(() => rm(cwd, { recursive: true, force: true }));
    const toolkit = createBuiltinToolkit({ cwd });
    cleanups.push(() => toolkit.dispose());
    const command = 'for i in $(seq 1 30); do echo line$i; sleep 0.05; done';
    const model = scriptedModel([
      { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command } }] },
      { parts: [{ type: 'text', text: 'ran' }] },
    ]);
    const client = createClient({ model, cwd, tools: toolkit.tools, permissionMode: 'bypass' });
    const chat = createAgentUIChat({ client, interruptOnDisconnect: false });
    const request = new AbortController();
    const reader = chat.respond(userMessage('go'), { signal: request.signal }).getReader();
    const firstLive: string[] = [];
    while (firstLive.length < 2) {
      const { value, done } = await reader.read();
      if (done) break;
      if (value.type === 'tool-output-available' && value.preliminary === true)
        firstLive.push((value.toolMetadata as { codeagent: { live: string } }).codeagent.live);
    }
    request.abort(); // the page reloads
    await reader.cancel();
    await new Promise((r) => setTimeout(r, 600));
    const stream = chat.reconnect();
    expect(stream).not.toBeNull();
    const { chunks } = await readBack(stream as ReadableStream);
    const replayed = chunks
      .filter((c) => c.type === 'tool-output-available' && c.preliminary === true)
      .map((c) => (c.toolMetadata as { codeagent: { live: string } }).codeagent.live);
    expect(firstLive[0]).toBe('line1\n');
    // The earlier snapshots were dropped from the log: the replay's first one is the latest, with more lines.
    expect(replayed[0]?.startsWith(firstLive[1] ?? '')).toBe(true);
    expect(replayed[0]).not.toBe(firstLive[1]);
    // Each snapshot replaces the one before: they only grow.
    for (let i = 1; i < replayed.length; i++)
      expect(replayed[i]?.startsWith(replayed[i - 1] ?? '') || (replayed[i]?.length ?? 0) >= 16_000).toBe(
        true,
      );
    expect(chunks.some((c) => c.type === 'finish')).toBe(true);
    await chat.idle();
  }, 30_000);
});
