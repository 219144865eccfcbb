import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { scriptedModel } from '@codeagent/providers';
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { type HostConfig, parseWebArgs } from '../src/server/config.ts';
import { startWebMcp, type WebMcp } from '../src/server/mcp.ts';
import { startWebHost } from '../src/server/server.ts';

const FIXTURE = fileURLToPath(
  new URL('../../../packages/adapter-mcp/test/fixtures/server.mjs', import.meta.url),
);
const servers = (pidFile = '') =>
  JSON.stringify({
    mcpServers: {
      fixture: {
        command: 'node',
        args: [FIXTURE, 'stdio'],
        env: pidFile ? { FIXTURE_PID_FILE: pidFile } : {},
      },
    },
  });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function dirs() {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-web-mcp-'));
  const work = join(root, 'work');
  const data = join(root, 'data');
  await mkdir(work);
  await mkdir(data);
  cleanups.push(() => rm(root, { recursive: true, force: true }));
  return { root, work, data };
}

async function started(mcp: Promise<WebMcp>): Promise<WebMcp> {
  const m = await mcp;
  cleanups.push(() => m.close());
  return m;
}

describe('the web host takes the CLI MCP config', () => {
  it('parses --mcp-config and --approve-mcp (repeatable)', () => {
    const o = parseWebArgs(
      ['--mcp-config', 'a.json', '--mcp-config', '/b.json', '--approve-mcp', 'x'],
      '/s',
      {},
    );
    expect(o.mcpConfig).toEqual(['/s/a.json', '/b.json']);
    expect(o.approveMcp).toEqual(['x']);
    expect(() => parseWebArgs(['--approve-mcp'], '/s', {})).toThrow(/needs a value/);
  });

  it("starts a project's .mcp.json server only when approved (flag, or remembered), never by default", async () => {
    const { root, work, data } = await dirs();
    const pidFile = join(root, 'pid');
    await writeFile(join(work, '.mcp.json'), servers(pidFile));
    const held = await started(
      startWebMcp({ cwd: work, dataDir: data, explicitFiles: [], approve: [], env: {} }),
    );
    expect(held.tools()).toEqual([]);
    expect(held.lines).toEqual([
      `mcp: fixture of ${join(work, '.mcp.json')} not started: not approved for this workspace (restart with --approve-mcp fixture, or approve it in the codeagent CLI)`,
    ]);
    expect(existsSync(pidFile)).toBe(false);
    const approved = await started(
      startWebMcp({ cwd: work, dataDir: data, explicitFiles: [], approve: ['fixture'], env: {} }),
    );
    expect(approved.tools().map((t) => t.name)).toContain('mcp__fixture__echo');
    const n = approved.tools().length;
    expect(n).toBeGreaterThan(10);
    expect(approved.lines).toEqual([`mcp: fixture ready · ${n} tools`]);
    // The approval is the CLI's (same file): the next start needs no flag.
    expect(existsSync(join(data, 'mcp-approvals.json'))).toBe(true);
    const again = await started(
      startWebMcp({ cwd: work, dataDir: data, explicitFiles: [], approve: [], env: {} }),
    );
    expect(again.lines).toEqual([`mcp: fixture ready · ${n} tools`]);
  }, 30_000);

  it('loads CODEAGENT_MCP_CONFIG and --mcp-config files without asking; a missing one is an error', async () => {
    const { root, work, data } = await dirs();
    const file = join(root, 'servers.json');
    await writeFile(file, servers());
    const viaEnv = await started(
      startWebMcp({
        cwd: work,
        dataDir: data,
        explicitFiles: [],
        approve: [],
        env: { CODEAGENT_MCP_CONFIG: file },
      }),
    );
    expect(viaEnv.tools().map((t) => t.name)).toContain('mcp__fixture__echo');
    await expect(
      startWebMcp({
        cwd: work,
        dataDir: data,
        explicitFiles: [join(root, 'none.json')],
        approve: [],
        env: {},
      }),
    ).rejects.toThrow(/cannot be read/);
  }, 30_000);

  it("a session's turn calls the server's tool, and the gate parks it for approval first (MCP tools are exec)", async () => {
    const { root, work, data } = await dirs();
    const file = join(root, 'servers.json');
    await writeFile(file, servers());
    const mcp = await started(
      startWebMcp({ cwd: work, dataDir: data, explicitFiles: [file], approve: [], env: {} }),
    );
    const clientDir = join(root, 'client');
    await mkdir(clientDir);
    await writeFile(join(clientDir, 'index.html'), '<!doctype html><title>stand-in</title>');
    const config: HostConfig = {
      cwd: work,
      model: () => ({
        model: scriptedModel([
          {
            parts: [{ type: 'tool-call', toolName: 'mcp__fixture__echo', input: { text: 'hello over MCP' } }],
          },
          { parts: [{ type: 'text', text: 'Echoed.' }] },
        ]),
        contextWindow: 200_000,
        maxOutputTokens: 8_000,
      }),
      modelLabel: 'scripted',
      demo: false,
      note: null,
      deny: [],
      tools: mcp.tools,
    };
    const host = await startWebHost({ config, database: join(root, 'sessions.db'), clientDir });
    cleanups.push(() => host.close());
    const headers = { Authorization: `Bearer ${host.token}`, 'Content-Type': 'application/json' };
    const created = await fetch(`${host.origin}/api/sessions`, { method: 'POST', headers, body: '{}' });
    const id = ((await created.json()) as { id: string }).id;
    const send = async (messages: UIMessage[]) => {
      const transport = new DefaultChatTransport({ api: `${host.origin}/api/sessions/${id}/chat`, headers });
      const stream = await transport.sendMessages({
        chatId: id,
        messages,
        trigger: 'submit-message',
        messageId: undefined,
        abortSignal: undefined,
      });
      const last = messages.at(-1);
      let message: UIMessage | undefined;
      for await (const m of readUIMessageStream({
        stream,
        ...(last?.role === 'assistant' ? { message: structuredClone(last) } : {}),
      }))
        message = m;
      return message as UIMessage;
    };
    const user: UIMessage = { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'echo it' }] };
    const parked = await send([user]);
    const part = parked.parts.find((p) => p.type === 'dynamic-tool');
    expect(part).toMatchObject({ toolName: 'mcp__fixture__echo', state: 'approval-requested' });
    const answered = structuredClone(parked);
    for (const p of answered.parts) {
      if (p.type === 'dynamic-tool' && p.state === 'approval-requested')
        Object.assign(p, { state: 'approval-responded', approval: { id: p.approval.id, approved: true } });
    }
    const done = await send([user, answered]);
    const result = done.parts.find((p) => p.type === 'dynamic-tool');
    expect(result).toMatchObject({ toolName: 'mcp__fixture__echo', state: 'output-available' });
    expect(JSON.stringify(result)).toContain('hello over MCP');
    expect(JSON.stringify(done.parts)).toContain('Echoed.');
  }, 60_000);
});
