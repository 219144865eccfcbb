import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { toolResultArtifact } from '@codeagent/artifact-schema';
import { afterAll, describe, expect, it } from 'vitest';
import { McpServerConnection, mcpResultToToolResult, mcpSlashCommands } from '../src/index.js';
import { payloadText } from './helpers.js';

// The published reference server, which nobody here wrote. Its get-env and network tools are not called.
const require = createRequire(import.meta.url);
const pkg = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
const bin = join(
  pkg,
  (require(join(pkg, 'package.json')) as { bin: Record<string, string> }).bin[
    'mcp-server-everything'
  ] as string,
);
const everything = new McpServerConnection(
  'everything',
  { command: process.execPath, args: [bin, 'stdio'] },
  { timeoutMs: 20_000 },
);
afterAll(() => everything.close());

const call = async (tool: string, args: Record<string, unknown> = {}) =>
  mcpResultToToolResult(await everything.callTool(tool, args), { server: 'everything', tool });

describe('@modelcontextprotocol/server-everything over stdio', () => {
  it('lists its tools with their JSON Schemas', async () => {
    const tools = await everything.tools();
    expect(tools.map((t) => t.name)).toEqual(
      expect.arrayContaining(['echo', 'get-sum', 'get-tiny-image', 'get-structured-content']),
    );
    expect(tools.find((t) => t.name === 'get-sum')?.inputSchema).toMatchObject({ required: ['a', 'b'] });
  });

  it('text, structured content, an image and an embedded resource map to the three channels', async () => {
    expect((await call('get-sum', { a: 2, b: 3 })).value).toBe('The sum of 2 and 3 is 5.');
    const structured = await call('get-structured-content', { location: 'Chicago' });
    expect(toolResultArtifact(structured)).toMatchObject({ kind: 'code', payload: { lang: 'json' } });
    expect(JSON.parse(payloadText(structured))).toHaveProperty('temperature');
    const image = await call('get-tiny-image');
    expect(toolResultArtifact(image)).toMatchObject({
      kind: 'image',
      payload: { images: [{ mime: 'image/png' }] },
    });
    const resource = await call('get-resource-reference', { resourceType: 'Text', resourceId: 1 });
    expect(toolResultArtifact(resource)).toMatchObject({
      kind: 'code',
      payload: { filename: 'demo://resource/dynamic/text/1' },
    });
    const links = await call('get-resource-links', { count: 2 });
    expect(links.value).toMatch(/\[resource link demo:\/\//);
  });

  it('progress of a long-running operation reaches the caller; an abort cancels it', async () => {
    const seen: number[] = [];
    await everything.callTool(
      'trigger-long-running-operation',
      { duration: 1, steps: 3 },
      { onProgress: (p) => seen.push(p.progress) },
    );
    expect(seen.length).toBeGreaterThanOrEqual(2);
    const controller = new AbortController();
    const pending = everything.callTool(
      'trigger-long-running-operation',
      { duration: 20, steps: 4 },
      { signal: controller.signal },
    );
    setTimeout(() => controller.abort(), 200);
    await expect(pending).rejects.toThrow(/aborted/);
    expect((await call('echo', { message: 'after abort' })).value).toContain('after abort');
  });

  it('an invalid argument is an error result, not a crash', async () => {
    const out = mcpResultToToolResult(
      await everything
        .callTool('get-sum', { a: 'x' })
        .catch((e: Error) => ({ content: [{ type: 'text', text: e.message }], isError: true })),
      { server: 'everything', tool: 'get-sum' },
    );
    expect(toolResultArtifact(out)?.status).toBe('error');
  });

  it('its prompts become slash commands', async () => {
    const commands = await mcpSlashCommands([everything]);
    expect(commands.length).toBeGreaterThan(0);
    for (const c of commands) expect(c.name).toMatch(/^mcp__everything__[A-Za-z0-9_-]+$/);
  });
});
