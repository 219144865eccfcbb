// The tools through the real agent loop (agent-core + a scripted AI SDK mock model).
// Tool calls of one step may run concurrently, so the calls below do not depend on each other.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { type AgentEvent, createClient, streamEvents } from '@codeagent/agent-core';
import {
  BUILTIN_TOOL_META as GATE_BUILTIN_TOOL_META,
  installPermissionGate,
} from '@codeagent/permission-gate';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { BUILTIN_TOOL_META, createBuiltinToolkit } from '../src/index.js';
import { tempDir, writeTree } from './helpers.js';

type Part = LanguageModelV3StreamPart;
const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 5, text: 5, reasoning: 0 },
};
const call = (toolCallId: string, toolName: string, input: unknown): Part => ({
  type: 'tool-call',
  toolCallId,
  toolName,
  input: JSON.stringify(input),
});
const finish = (unified: 'stop' | 'tool-calls'): Part => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage,
});
const say = (text: string): Part[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: text },
  { type: 'text-end', id: 't' },
];

function scripted(turns: Part[][]) {
  let i = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      const parts = turns[i++] ?? [...say('(script exhausted)'), finish('stop')];
      return {
        stream: simulateReadableStream({
          chunks: [{ type: 'stream-start', warnings: [] }, ...parts],
          chunkDelayInMs: null,
        }),
      };
    },
  });
}

async function run(cwd: string, turns: Part[][], permissionMode: 'bypass' | 'default') {
  const toolkit = createBuiltinToolkit({ cwd, bash: { killGraceMs: 300 } });
  const client = createClient({ model: scripted(turns), cwd, tools: toolkit.tools, permissionMode });
  const events: AgentEvent[] = [];
  for await (const e of streamEvents(client, 'go')) if (e.type !== 'tick') events.push(e);
  await toolkit.dispose();
  return events;
}

describe('built-in tools in the agent loop', () => {
  it('registers alongside the default gate and produces views, artifacts and intents', async () => {
    const cwd = await tempDir();
    await writeTree(cwd, { 'a.txt': 'alpha\nbeta\n' });
    const events = await run(
      cwd,
      [
        [
          call('c1', 'Edit', {
            file_path: 'a.txt',
            old_string: 'beta',
            new_string: 'gamma',
            _intent: 'rename beta',
          }),
          call('c2', 'Bash', { command: 'printf "%s\\n" hi; exit 3', description: 'Say hi' }),
          call('c3', 'Read', { file_path: '../etc/passwd' }),
          finish('tool-calls'),
        ],
        [...say('done'), finish('stop')],
      ],
      'bypass',
    );
    expect(await readFile(path.join(cwd, 'a.txt'), 'utf8')).toBe('alpha\ngamma\n');
    const requests = events.filter((e) => e.type === 'tool-request');
    const results = events.filter((e) => e.type === 'tool-result');
    expect(requests.map((r) => [r.name, r.intent, r.view.card])).toEqual([
      ['Edit', 'rename beta', 'diff'],
      ['Bash', null, 'terminal'],
      ['Read', null, 'generic'],
    ]);
    const byId = new Map(results.map((r) => [r.id, r]));
    expect(byId.get('c1')).toMatchObject({
      isError: false,
      value: 'Edited a.txt: 1 replacement',
      artifact: { kind: 'diff', payload: { old: 'alpha\nbeta\n', new: 'alpha\ngamma\n' } },
      view: {
        card: 'diff',
        diffs: [{ path: path.join(cwd, 'a.txt'), oldText: 'alpha\nbeta\n', newText: 'alpha\ngamma\n' }],
      },
    });
    expect(byId.get('c2')).toMatchObject({
      isError: false,
      value: 'hi\n[Exit code 3]',
      artifact: { kind: 'code', payload: { exitCode: 3 } },
      view: { card: 'terminal', output: 'hi\n', exitCode: 3 },
    });
    expect(byId.get('c3')).toMatchObject({
      isError: true,
      artifact: { kind: 'error', status: 'error' },
      view: { card: 'generic' },
    });
    expect(String(byId.get('c3')?.value)).toMatch(/^Path "..\/etc\/passwd" is outside the workspace roots/);
    expect(events.at(-1)).toMatchObject({ type: 'end', result: { text: 'done', stopReason: 'completed' } });
  });

  it('the default gate denies a write and exec without an ask callback, and the tool never runs', async () => {
    const cwd = await tempDir();
    const events = await run(
      cwd,
      [
        [
          call('w', 'Write', { file_path: 'x.txt', content: 'x' }),
          call('g', 'Glob', { pattern: '*' }),
          finish('tool-calls'),
        ],
        [...say('ok'), finish('stop')],
      ],
      'default',
    );
    const results = events.filter((e) => e.type === 'tool-result');
    expect(results.find((r) => r.id === 'w')).toMatchObject({ isError: true, view: { card: 'generic' } });
    expect(String(results.find((r) => r.id === 'w')?.value)).toMatch(/^Permission denied for Write/);
    expect(results.find((r) => r.id === 'g')).toMatchObject({ isError: false, artifact: { kind: 'table' } });
    await expect(readFile(path.join(cwd, 'x.txt'))).rejects.toThrow();
  });

  it('an allow rule on a built-in tool matches its primary argument (job_kill(job-1) does not ask)', async () => {
    const cwd = await tempDir();
    const toolkit = createBuiltinToolkit({ cwd, bash: { killGraceMs: 300 } });
    const model = scripted([
      [
        call('k', 'job_kill', { job_id: 'job-1' }),
        call('o', 'job_output', { job_id: 'job-9' }),
        finish('tool-calls'),
      ],
      [...say('ok'), finish('stop')],
    ]);
    const client = createClient({ model, cwd, tools: toolkit.tools, skills: false });
    const asked: string[] = [];
    installPermissionGate(client, {
      mode: 'default',
      rules: { allow: ['job_kill(job-1)'] },
      ask: (name) => {
        asked.push(name);
        return false;
      },
    });
    const events: AgentEvent[] = [];
    for await (const e of streamEvents(client, 'go')) if (e.type !== 'tick') events.push(e);
    await toolkit.dispose();
    expect(asked).toEqual([]);
    const killed = events.find((e) => e.type === 'tool-result' && e.id === 'k');
    expect(String(killed?.type === 'tool-result' && killed.value)).not.toMatch(/Permission denied/);
  });

  it('the gate locks exactly the facts the tools declare (one table)', () => {
    for (const [name, meta] of Object.entries(BUILTIN_TOOL_META)) {
      expect(GATE_BUILTIN_TOOL_META[name as keyof typeof GATE_BUILTIN_TOOL_META], name).toBe(meta);
    }
    // Locked besides: the skills package's use_skill and the reserved WebFetch name.
    expect(Object.keys(GATE_BUILTIN_TOOL_META).sort()).toEqual(
      [...Object.keys(BUILTIN_TOOL_META), 'use_skill', 'WebFetch'].sort(),
    );
  });
});
