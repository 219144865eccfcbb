import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type AgentEvent, createClient, streamEvents, type ToolContext } from '@codeagent/agent-core';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { type BuiltinToolkit, createBuiltinToolkit } from '../src/index.js';
import { LIVE_OUTPUT_CUT, runCommand } from '../src/process.js';
import { tempDir } from './helpers.js';

const base = { timeoutMs: 20_000, maxOutputBytes: 30_000, killGraceMs: 300 };

type Chunk = { stream: 'stdout' | 'stderr'; text: string };

describe('runCommand live output', () => {
  it('delivers output while the command runs (the command waits for the listener to answer)', async () => {
    const cwd = await tempDir();
    const go = path.join(cwd, 'go');
    const chunks: Chunk[] = [];
    // The command only goes on once the test saw its first line: the output is live, not collected at the end.
    const r = await runCommand(
      `echo ready; while [ ! -f ${go} ]; do sleep 0.02; done; echo after; echo oops >&2`,
      {
        ...base,
        cwd,
        onOutput: (stream, text) => {
          chunks.push({ stream, text });
          if (text.includes('ready') && !existsSync(go)) writeFileSync(go, '');
        },
      },
    );
    expect(r.exitCode).toBe(0);
    const by = (s: Chunk['stream']) =>
      chunks
        .filter((c) => c.stream === s)
        .map((c) => c.text)
        .join('');
    expect(by('stdout')).toBe('ready\nafter\n');
    expect(by('stderr')).toBe('oops\n');
  });

  it('never splits a character across chunks and keeps escapes like the raw output', async () => {
    const cwd = await tempDir();
    const chunks: string[] = [];
    const r = await runCommand(`printf '\\303'; sleep 0.1; printf '\\251 \\033[31mred\\033[0m\\n'`, {
      ...base,
      cwd,
      onOutput: (_s, text) => chunks.push(text),
    });
    expect(chunks.join('')).toBe('é \u001b[31mred\u001b[0m\n');
    expect(chunks.join('')).toBe(r.output);
    expect(chunks.some((c) => c.includes('\ufffd'))).toBe(false);
  });

  it('streams at most the output cap, then one note (the result keeps head and tail)', async () => {
    const cwd = await tempDir();
    let live = '';
    const r = await runCommand(`for i in $(seq 1 5000); do echo "line $i é"; done`, {
      ...base,
      cwd,
      maxOutputBytes: 1000,
      onOutput: (_s, text) => {
        live += text;
      },
    });
    expect(r.droppedBytes).toBeGreaterThan(0);
    expect(live.endsWith(LIVE_OUTPUT_CUT)).toBe(true);
    const body = live.slice(0, -LIVE_OUTPUT_CUT.length);
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(1000);
    expect(body.startsWith('line 1 é\nline 2 é\n')).toBe(true);
    expect(body.includes('\ufffd')).toBe(false);
    expect(r.output).toContain('line 5000 é');
  });

  it('property: whatever bytes a command writes, live output is the raw output within the cap', async () => {
    const cwd = await tempDir();
    await fc.assert(
      fc.asyncProperty(
        fc.string({ unit: 'binary', maxLength: 200 }),
        fc.integer({ min: 2, max: 400 }),
        async (s, cap) => {
          const file = path.join(cwd, 'data');
          writeFileSync(file, s);
          let live = '';
          const r = await runCommand(`cat ${file}`, {
            ...base,
            cwd,
            maxOutputBytes: cap,
            onOutput: (_x, text) => {
              live += text;
            },
          });
          if (r.droppedBytes === 0 && Buffer.byteLength(s) <= cap) expect(live).toBe(r.output);
          else {
            expect(live.endsWith(LIVE_OUTPUT_CUT)).toBe(true);
            expect(Buffer.byteLength(live.slice(0, -LIVE_OUTPUT_CUT.length))).toBeLessThanOrEqual(cap);
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('a listener that throws does not break the command', async () => {
    const cwd = await tempDir();
    const r = await runCommand('echo a; echo b', {
      ...base,
      cwd,
      onOutput: () => {
        throw new Error('listener broke');
      },
    });
    expect(r.exitCode).toBe(0);
    expect(r.output).toBe('a\nb\n');
  });
});

const kits: BuiltinToolkit[] = [];
afterEach(async () => {
  while (kits.length > 0) await kits.pop()?.dispose();
});

describe('Bash live output', () => {
  it('feeds ctx.output as the command runs; the model value is unchanged', async () => {
    const cwd = await tempDir();
    const kit = createBuiltinToolkit({ cwd, bash: { killGraceMs: 300 } });
    kits.push(kit);
    const bash = kit.tools.find((t) => t.name === 'Bash');
    const chunks: Chunk[] = [];
    const ctx: ToolContext = {
      callId: 'c1',
      name: 'Bash',
      signal: new AbortController().signal,
      cwd,
      intent: null,
      output: (c) => chunks.push(c),
    };
    const r = (await bash?.execute({ command: 'echo one; echo two >&2; exit 2' }, ctx)) as { value: string };
    expect(r.value).toBe('one\ntwo\n[Exit code 2]');
    expect(chunks).toEqual([
      { stream: 'stdout', text: 'one\n' },
      { stream: 'stderr', text: 'two\n' },
    ]);
  });

  it('through the agent loop: tool-output events between the Bash request and its result', async () => {
    const cwd = await tempDir();
    const kit = createBuiltinToolkit({ cwd, bash: { killGraceMs: 300 } });
    kits.push(kit);
    const turns: LanguageModelV3StreamPart[][] = [
      [
        {
          type: 'tool-call',
          toolCallId: 'b1',
          toolName: 'Bash',
          input: JSON.stringify({ command: 'for i in 1 2 3; do echo line$i; sleep 0.1; done' }),
        },
        { type: 'finish', finishReason: { unified: 'tool-calls', raw: 'tool_calls' }, usage: usage() },
      ],
      [
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'done' },
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage: usage() },
      ],
    ];
    let i = 0;
    const model = new MockLanguageModelV3({
      doStream: async () => ({
        stream: simulateReadableStream({
          chunks: [{ type: 'stream-start', warnings: [] }, ...(turns[i++] ?? [])],
          chunkDelayInMs: null,
        }),
      }),
    });
    const client = createClient({ model, cwd, tools: kit.tools, permissionMode: 'bypass' });
    const events: AgentEvent[] = [];
    for await (const e of streamEvents(client, 'go')) if (e.type !== 'tick') events.push(e);
    const types = events.map((e) => e.type);
    const req = types.indexOf('tool-request');
    const res = types.indexOf('tool-result');
    const outs = events.flatMap((e, k) => (e.type === 'tool-output' ? [k] : []));
    // Lines 100 ms apart, more than the 50 ms coalescing window: usually one event each (fewer on a loaded machine).
    expect(outs.length).toBeGreaterThanOrEqual(1);
    expect(outs.length).toBeLessThanOrEqual(3);
    expect(outs.every((k) => k > req && k < res)).toBe(true);
    expect(
      events
        .filter((e) => e.type === 'tool-output')
        .map((e) => (e.type === 'tool-output' ? e.text : ''))
        .join(''),
    ).toBe('line1\nline2\nline3\n');
    const result = events[res];
    expect(result?.type === 'tool-result' && result.value).toBe('line1\nline2\nline3');
  });
});

function usage() {
  return {
    inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
    outputTokens: { total: 1, text: 1, reasoning: 0 },
  };
}
