import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { describe, expect, it } from 'vitest';
import { schemaFailures, spawnAcp, tappedStream, updatesOf, wireLog } from './acp-harness.js';

// The published reference MCP server, which nobody here wrote (its get-env and network tools are not called).
const require = createRequire(import.meta.url);
const pkg = dirname(require.resolve('@modelcontextprotocol/server-everything/package.json'));
const bin = join(
  pkg,
  (require(join(pkg, 'package.json')) as { bin: Record<string, string> }).bin[
    'mcp-server-everything'
  ] as string,
);

describe('codeagent acp with MCP servers from the editor', () => {
  it('starts the stdio server the editor names in session/new; its tools are asked about and run', async () => {
    const root = await mkdtemp(join(tmpdir(), 'codeagent-acp-mcp-'));
    const work = join(root, 'work');
    await mkdir(work);
    const script = join(root, 'script.json');
    await writeFile(
      script,
      JSON.stringify([
        {
          parts: [
            { type: 'tool-call', toolName: 'mcp__everything__echo', input: { message: 'hello over MCP' } },
          ],
        },
        {
          parts: [
            { type: 'tool-call', toolName: 'mcp__everything__echo', input: { message: 'not approved' } },
          ],
        },
        { parts: [{ type: 'text', text: 'Echoed.' }] },
      ]),
    );
    const child = spawnAcp(['--script', script, '--data-dir', join(root, 'data')]);
    const log = wireLog();
    const answers = ['allow_once', 'reject_once'];
    const permissions: acp.RequestPermissionRequest[] = [];
    await acp
      .client({ name: 'mcp-editor' })
      .onNotification(acp.methods.client.session.update, () => undefined)
      .onRequest(acp.methods.client.session.requestPermission, async ({ params }) => {
        permissions.push(params);
        return { outcome: { outcome: 'selected', optionId: answers.shift() ?? 'reject_once' } };
      })
      .connectWith(tappedStream(child.child, log), async (ctx) => {
        const init = await ctx.request(acp.methods.agent.initialize, {
          protocolVersion: 1,
          clientCapabilities: {},
        });
        expect(init.agentCapabilities?.mcpCapabilities).toEqual({ http: true, sse: false });
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, {
          cwd: work,
          mcpServers: [
            { name: 'everything', command: process.execPath, args: [bin, 'stdio'], env: [] },
            { type: 'sse', name: 'legacy', url: 'http://127.0.0.1:9/sse', headers: [] },
          ],
        });
        const { stopReason } = await ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'echo something' }],
        });
        expect(stopReason).toBe('end_turn');
        const updates = updatesOf(log, sessionId);
        // The server's prompts are listed as slash commands beside the skills.
        const commands = updates.find((u) => u.sessionUpdate === 'available_commands_update') as
          | acp.AvailableCommandsUpdate
          | undefined;
        expect(commands?.availableCommands.map((c) => c.name)).toEqual(
          expect.arrayContaining(['mcp__everything__simple-prompt', 'mcp__everything__args-prompt']),
        );
        const results = updates.filter((u) => u.sessionUpdate === 'tool_call_update');
        expect(results.map((u) => u.status)).toEqual(['completed', 'failed']);
        expect(JSON.stringify(results[0])).toContain('hello over MCP');
        expect(JSON.stringify(results[1])).toContain('Permission denied for mcp__everything__echo');
      });
    // MCP tools are exec: both calls were asked about, with the exact input.
    expect(permissions.map((p) => p.toolCall.rawInput)).toEqual([
      { message: 'hello over MCP' },
      { message: 'not approved' },
    ]);
    expect(permissions[0]?.options.map((o) => o.optionId)).toEqual(['allow_once', 'reject_once']);
    expect(child.stderr()).toContain('SSE transport is not supported');
    child.child.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(schemaFailures([log])).toEqual([]);
  }, 60_000);
});
