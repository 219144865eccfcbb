import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { McpServerConnection, mcpResultToToolResult } from '../src/index.js';
import { httpFixture, stdioFixture, payloadText } from './helpers.js';

const open: McpServerConnection[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((c) => c.close()));
});
const connect = (config = stdioFixture, options = {}) => {
  const c = new McpServerConnection('fixture', config, { restartDelayMs: 50, ...options });
  open.push(c);
  return c;
};

describe('McpServerConnection over stdio (a real server process)', () => {
  it('lists tools with their schemas and cleaned texts, and calls them', async () => {
    const c = connect();
    const tools = await c.tools();
    expect(tools.map((t) => t.name)).toContain('echo');
    const echo = tools.find((t) => t.name === 'echo');
    expect(echo?.inputSchema).toMatchObject({ type: 'object', properties: { text: { type: 'string' } } });
    expect(tools.find((t) => t.name === 'lookup')?.readOnlyHint).toBe(true);
    const hostile = tools.find((t) => t.name === 'hostile');
    expect(hostile?.description).not.toMatch(/[\u001b\u0007\u202e]/);
    expect(hostile?.title).toBe('evil');
    const r = await c.callTool('echo', { text: 'hi' });
    expect(mcpResultToToolResult(r, { server: 'fixture', tool: 'echo' }).value).toBe('hi');
    expect(c.state).toBe('ready');
    expect(c.stderr).toContain('fixture server started');
  });

  it('a crash mid-call is an error, and the server is restarted on the next use', async () => {
    const c = connect();
    await expect(c.callTool('crash', {})).rejects.toMatchObject({ code: 'tool-call-failed' });
    expect(c.state).toBe('failed');
    // During the backoff the server is not hammered: a clear error says when it restarts.
    await expect(c.callTool('echo', { text: 'x' })).rejects.toMatchObject({ code: 'server-unavailable' });
    await new Promise((r) => setTimeout(r, 80));
    const r = await c.callTool('echo', { text: 'back' });
    expect(mcpResultToToolResult(r, { server: 'f', tool: 'echo' }).value).toBe('back');
  });

  it('a hang past the timeout is an error and restarts the server; an abort cancels the call', async () => {
    const c = connect(stdioFixture, { timeoutMs: 300 });
    await expect(c.callTool('hang', {})).rejects.toThrow(/hang failed: .*(timed out|Request timed out)/i);
    await new Promise((r) => setTimeout(r, 80));
    const controller = new AbortController();
    const pending = c.callTool('slow', { steps: 100 }, { signal: controller.signal, timeoutMs: 10_000 });
    setTimeout(() => controller.abort(), 120);
    await expect(pending).rejects.toThrow(/aborted/);
    const r = await c.callTool('echo', { text: 'still fine' });
    expect(mcpResultToToolResult(r, { server: 'f', tool: 'echo' }).value).toBe('still fine');
  });

  it('progress notifications reach the caller, cleaned', async () => {
    const c = connect();
    const seen: string[] = [];
    await c.callTool(
      'slow',
      { steps: 3 },
      { onProgress: (p) => seen.push(`${p.progress}/${p.total}:${p.message}`) },
    );
    // The last notification may race the response (the SDK drops the handler with the answer).
    expect(seen.slice(0, 2)).toEqual(['1/3:step 1', '2/3:step 2']);
  });

  it('a flood of notifications does not stall the call', async () => {
    const c = connect();
    const r = await c.callTool('flood', {});
    expect(mcpResultToToolResult(r, { server: 'f', tool: 'flood' }).value).toBe('flooded');
  });

  it('garbage on the wire fails the call (timeout) and the server restarts', async () => {
    const c = connect(stdioFixture, { timeoutMs: 400 });
    await expect(c.callTool('garbage', {})).rejects.toMatchObject({ code: 'tool-call-failed' });
    await new Promise((r) => setTimeout(r, 80));
    await expect(c.callTool('echo', { text: 'ok' })).resolves.toBeTruthy();
  });

  it('a stdio message over the 10 MiB limit fails the call cleanly and the server restarts', async () => {
    const c = connect();
    await expect(c.callTool('huge', { mb: 50 })).rejects.toMatchObject({ code: 'tool-call-failed' });
    await new Promise((r) => setTimeout(r, 80));
    await expect(c.callTool('echo', { text: 'after' })).resolves.toBeTruthy();
  }, 30_000);

  it('list_changed: a tool added at run time is reported', async () => {
    const changes: string[][] = [];
    const c = connect(stdioFixture, {
      onToolsChanged: (tools: readonly { name: string }[]) => changes.push(tools.map((t) => t.name)),
    });
    await c.tools();
    await c.callTool('add_tool', {});
    await expect.poll(() => changes.at(-1)?.includes('late'), { timeout: 5000 }).toBe(true);
    expect((await c.tools()).map((t) => t.name)).toContain('late');
  });

  it('a server that cannot start is a clear error naming it', async () => {
    const c = connect({ command: '/nonexistent/mcp-server' });
    await expect(c.tools()).rejects.toMatchObject({
      code: 'server-unavailable',
      message: /fixture could not start/,
    });
  });

  it('prompts are listed and expanded', async () => {
    const c = connect();
    const prompts = await c.prompts();
    expect(prompts).toEqual([
      {
        name: 'review',
        description: 'Review a file',
        arguments: [
          { name: 'file', required: true, description: '' },
          { name: 'focus', required: false, description: '' },
        ],
      },
    ]);
    expect(await c.getPrompt('review', { file: 'a.ts', focus: 'bugs' })).toBe('Review a.ts for bugs');
  });
});

describe('McpServerConnection over Streamable HTTP on 127.0.0.1', () => {
  let server: Awaited<ReturnType<typeof httpFixture>>;
  beforeAll(async () => {
    server = await httpFixture({ FIXTURE_TOKEN: 'secret-token' });
  });
  afterAll(() => server.stop());

  it('sends the configured headers (auth) and calls tools', async () => {
    const c = connect({ type: 'http', url: server.url, headers: { Authorization: 'Bearer secret-token' } });
    expect((await c.tools()).map((t) => t.name)).toContain('rows');
    const r = mcpResultToToolResult(await c.callTool('rows', {}), { server: 'f', tool: 'rows' });
    expect(r.extra.codeagent.artifact).toMatchObject({
      kind: 'table',
      payload: {
        df: [
          { id: 1, name: 'a' },
          { id: 2, name: 'b' },
        ],
      },
    });
  });

  it('a 50 MB result is capped for the model', async () => {
    const c = connect(
      { type: 'http', url: server.url, headers: { Authorization: 'Bearer secret-token' } },
      { timeoutMs: 60_000 },
    );
    const out = mcpResultToToolResult(await c.callTool('huge', { mb: 50 }), { server: 'f', tool: 'huge' });
    expect(out.value.length).toBeLessThan(31_000);
    expect(out.value).toMatch(/characters omitted/);
    expect(payloadText(out).length).toBeLessThan(1_100_000);
  }, 60_000);

  it('a wrong token is a clear start error, never a hang', async () => {
    const c = connect({ type: 'http', url: server.url, headers: { Authorization: 'Bearer wrong' } });
    await expect(c.tools()).rejects.toMatchObject({ code: 'server-unavailable' });
  });
});
