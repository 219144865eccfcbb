import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { chunk, type FakeOpenAI, openaiUsage, sse, startFakeOpenAI } from './fake-openai.js';

// README quick start, verbatim between the markers (a test below checks the README has the same lines).
// --- readme:start
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';
import { createClient, defineTool, stream } from '@codeagent/agent-core';
import { toolResult, toolResultArtifact, toolResultValue } from '@codeagent/artifact-schema';
import { installPermissionGate } from '@codeagent/permission-gate';
import { z } from 'zod';

async function hostExample(hostApproval: (id: string | undefined, name: string) => Promise<boolean>) {
  const provider = createOpenAICompatible({ name: 'local', baseURL: process.env.MY_BASE_URL ?? '' });
  const summarise = defineTool({
    name: 'Summarise',
    description: 'Summarise a named dataset.',
    inputSchema: z.object({ name: z.string() }),
    capability: 'read',
    execute: ({ name }) => toolResult(`summary of ${name}`, { kind: 'table', payload: { df: [{ n: 150 }] } }),
  });
  const client = createClient({
    model: provider.chatModel('my-model'),
    registerTools: false,
    tools: [summarise],
  });
  installPermissionGate(client, { ask: (name, _input, id) => hostApproval(id, name) });
  const result = await stream(client, 'Summarise iris', {
    onDelta: (text) => process.stdout.write(text),
    onToolResult: (event) => {
      const artifact = toolResultArtifact(event); // v1 artifact, or null: then fall back to the value
      console.log(artifact?.kind === 'table' ? artifact.payload : toolResultValue(event));
    },
    onError: (message, recovered) => console.error(recovered ? 'retrying:' : 'failed:', message),
  });
  console.log(result.stopReason, result.usage?.nTokens);
  return result;
}
// --- readme:end

let server: FakeOpenAI | undefined;
afterEach(async () => {
  await server?.close();
  vi.restoreAllMocks();
});

describe('README', () => {
  it('the quick start runs against an OpenAI-compatible server', async () => {
    server = await startFakeOpenAI([
      sse([
        chunk({
          tool_calls: [
            {
              index: 0,
              id: 'call_1',
              type: 'function',
              function: { name: 'Summarise', arguments: '{"name":"iris","_intent":"look"}' },
            },
          ],
        }),
        chunk({}, 'tool_calls', openaiUsage(40, 10)),
      ]),
      sse([chunk({ content: 'iris has 150 rows.' }), chunk({}, 'stop', openaiUsage(60, 6))]),
    ]);
    process.env.MY_BASE_URL = server.baseURL;
    process.env.MY_API_KEY = 'test';
    const logs: unknown[] = [];
    vi.spyOn(console, 'log').mockImplementation((...a) => void logs.push(a));
    vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    const approvals: Array<[string | undefined, string]> = [];
    const result = await hostExample(async (id, name) => {
      approvals.push([id, name]);
      return true;
    });
    expect(result).toMatchObject({ text: 'iris has 150 rows.', stopReason: 'completed' });
    // Summarise declared `read`, so the default mode allows it without asking.
    expect(approvals).toEqual([]);
    expect(logs).toContainEqual([{ df: [{ n: 150 }] }]);
    expect(logs).toContainEqual(['completed', expect.any(Number)]);
  });

  it('README.md shows the same code', () => {
    const src = readFileSync(new URL('./readme.test.ts', import.meta.url), 'utf8');
    const example = src.split('// --- readme:start\n')[1]?.split('// --- readme:end')[0] ?? '';
    const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
    expect(example.split('\n').length).toBeGreaterThan(20);
    for (const line of example.split('\n')) expect(readme).toContain(line);
  });
});
