import type { LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { createClient, stream, type ToolResultEvent } from '@codeagent/agent-core';
import { toolResultArtifact } from '@codeagent/artifact-schema';
import { installPermissionGate } from '@codeagent/permission-gate';
import { MockLanguageModelV3 } from 'ai/test';
import { simulateReadableStream } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type AttachedMcpServers, attachMcpServers, type McpToolOptions } from '../src/index.js';
import { stdioFixture } from './helpers.js';

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 1, text: 1, reasoning: 0 },
};

/** A model that calls one tool, then answers with text. */
function callingModel(toolName: string, input: unknown) {
  let n = 0;
  return new MockLanguageModelV3({
    doStream: async () => {
      n++;
      const chunks: LanguageModelV3StreamPart[] =
        n === 1
          ? [
              { type: 'tool-call', toolCallId: 'c1', toolName, input: JSON.stringify(input) },
              {
                type: 'finish',
                finishReason: { unified: 'tool-calls', raw: 'tool_calls' },
                usage,
              },
            ]
          : [
              { type: 'text-start', id: 't' },
              { type: 'text-delta', id: 't', delta: 'done' },
              { type: 'text-end', id: 't' },
              { type: 'finish', finishReason: { unified: 'stop', raw: 'stop' }, usage },
            ];
      return { stream: simulateReadableStream({ chunks, initialDelayInMs: null, chunkDelayInMs: null }) };
    },
  });
}

let attached: AttachedMcpServers | undefined;
afterEach(async () => {
  await attached?.close();
  attached = undefined;
});

async function turn(
  toolName: string,
  input: unknown,
  gate: Parameters<typeof installPermissionGate>[1],
  options: McpToolOptions = {},
) {
  const client = createClient({ model: callingModel(toolName, input), registerTools: false });
  attached = await attachMcpServers(client, { fixture: stdioFixture }, { restartDelayMs: 50, ...options });
  const asked: string[] = [];
  installPermissionGate(client, {
    ...gate,
    ask: (name) => {
      asked.push(name);
      return true;
    },
  });
  const results: ToolResultEvent[] = [];
  const result = await stream(client, 'go', { onToolResult: (e) => results.push(e) });
  return { result, results, asked };
}

describe('MCP tools in a codeagent turn, governed by the gate', () => {
  it('registers mcp__<server>__<tool> names; an MCP tool is exec: the gate asks; the result reaches every channel', async () => {
    const { results, asked, result } = await turn('mcp__fixture__rows', {}, { mode: 'default' });
    expect(attached?.tools).toContain('mcp__fixture__echo');
    expect(attached?.failures).toEqual([]);
    expect(asked).toEqual(['mcp__fixture__rows']);
    expect(results[0]).toMatchObject({ name: 'mcp__fixture__rows', value: '2 rows', isError: false });
    expect(toolResultArtifact(results[0])).toMatchObject({ kind: 'table', title: 'fixture · rows' });
    expect(results[0]?.view).toMatchObject({ card: 'generic' });
    expect(result.text).toBe('done');
  });

  it('a readOnlyHint is ignored unless the user trusts the server', async () => {
    const untrusted = await turn('mcp__fixture__lookup', { q: 'x' }, { mode: 'default' });
    expect(untrusted.asked).toEqual(['mcp__fixture__lookup']);
    await attached?.close();
    const trusted = await turn(
      'mcp__fixture__lookup',
      { q: 'x' },
      { mode: 'default' },
      { policies: { fixture: { trusted: true } } },
    );
    expect(trusted.asked).toEqual([]);
    expect(trusted.results[0]?.value).toBe('found x');
  });

  it('rules like mcp__fixture__* deny; a per-tool allow rule allows', async () => {
    const denied = await turn(
      'mcp__fixture__echo',
      { text: 'x' },
      { mode: 'default', rules: { deny: ['mcp__fixture__*'] } },
    );
    expect(denied.asked).toEqual([]);
    expect(denied.results[0]).toMatchObject({ isError: true });
    expect(denied.results[0]?.value).toMatch(/Permission denied for mcp__fixture__echo/);
    await attached?.close();
    const allowed = await turn(
      'mcp__fixture__echo',
      { text: 'y' },
      { mode: 'default', rules: { allow: ['mcp__fixture__echo'] } },
    );
    expect(allowed.asked).toEqual([]);
    expect(allowed.results[0]?.value).toBe('y');
  });

  it('a crash mid-call is an error result the model sees; the turn goes on', async () => {
    const { results, result } = await turn('mcp__fixture__crash', {}, { mode: 'bypass' });
    expect(results[0]).toMatchObject({ isError: true });
    expect(toolResultArtifact(results[0])).toMatchObject({ kind: 'error' });
    expect(result.stopReason).toBe('completed');
  });

  it('a server that cannot start is reported, never thrown', async () => {
    const client = createClient({ model: callingModel('x', {}), registerTools: false });
    attached = await attachMcpServers(client, { broken: { command: '/nonexistent/server' } });
    expect(attached.tools).toEqual([]);
    expect(attached.failures).toEqual([
      { server: 'broken', reason: expect.stringMatching(/broken could not start/) },
    ]);
  });
});

describe('MCP progress as live output', () => {
  it('progress notifications become tool-output lines between the request and the result', async () => {
    const client = createClient({
      model: callingModel('mcp__fixture__slow', { steps: 4 }),
      registerTools: false,
    });
    attached = await attachMcpServers(client, { fixture: stdioFixture }, { restartDelayMs: 50 });
    installPermissionGate(client, { mode: 'bypass' });
    const order: string[] = [];
    const lines: string[] = [];
    const result = await stream(client, 'go', {
      onToolRequest: () => order.push('request'),
      onToolOutput: (e) => {
        order.push('output');
        expect(e.stream).toBe('stderr');
        lines.push(e.text);
      },
      onToolResult: (e) => {
        order.push('result');
        // The model gets the tool's answer only, never the progress lines.
        expect(e.value).toBe('done 4');
      },
    });
    expect(result.stopReason).toBe('completed');
    // The last notification may race the answer (the SDK drops the handler with it).
    expect(lines.join('')).toMatch(/^step 1 \(1\/4\)\nstep 2 \(2\/4\)\nstep 3 \(3\/4\)\n/);
    expect(order[0]).toBe('request');
    expect(order.at(-1)).toBe('result');
    expect(order.filter((x) => x === 'result')).toHaveLength(1);
  });
});

describe('MCP progress from a hostile server', () => {
  it('is cleaned, kept on one line each, and bounded per call', async () => {
    const client = createClient({ model: callingModel('mcp__fixture__noisy', {}), registerTools: false });
    attached = await attachMcpServers(client, { fixture: stdioFixture }, { restartDelayMs: 50 });
    installPermissionGate(client, { mode: 'bypass' });
    let live = '';
    let value = '';
    await stream(client, 'go', {
      onToolOutput: (e) => {
        live += e.text;
      },
      onToolResult: (e) => {
        value = e.value;
      },
    });
    expect(value).toBe('noisy done');
    expect(live.length).toBeGreaterThan(0);
    expect(live.length).toBeLessThanOrEqual(16 * 1024);
    expect(live).not.toMatch(/[\u001b\u202e]/);
    for (const line of live.split('\n').filter(Boolean)) expect(line).toMatch(/^evil line x+… \(\d+\)$/);
  });
});
