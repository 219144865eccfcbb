import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatRequest, type OpenAIServer, startOpenAIServer } from './chat-server.js';
import { BIN, runBin, tempRoot } from './run.js';

const FIXTURE = fileURLToPath(
  new URL('../../../packages/adapter-mcp/test/fixtures/server.mjs', import.meta.url),
);

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

async function until(test: () => boolean | Promise<boolean>, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!(await test())) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

async function pidOf(file: string): Promise<number> {
  let pid = 0;
  await until(async () => {
    const text = (await readFile(file, 'utf8').catch(() => '')).trim();
    pid = /^\d+$/u.test(text) ? Number(text) : 0;
    return pid > 0;
  });
  if (pid === 0) throw new Error(`no pid in ${file}`);
  return pid;
}

const hadToolResult = (request: ChatRequest) => (request.body.messages ?? []).some((m) => m.role === 'tool');

async function echoModel(): Promise<OpenAIServer> {
  const server = await startOpenAIServer({
    replies: (request) =>
      hadToolResult(request)
        ? { text: 'The fixture echoed it.' }
        : { tools: [{ name: 'mcp__fixture__echo', args: { text: 'hello over MCP' } }] },
  });
  servers.push(server);
  return server;
}

function serverFile(pidFile: string, env: Record<string, string> = {}): string {
  return JSON.stringify({
    mcpServers: {
      fixture: { command: 'node', args: [FIXTURE, 'stdio'], env: { FIXTURE_PID_FILE: pidFile, ...env } },
    },
  });
}

describe('MCP servers in one-shot runs (-p)', () => {
  it("never start a project's server without approval, say how to approve, and --approve-mcp starts it (remembered)", async () => {
    const { root, home, work, data } = await tempRoot('codeagent-mcp-p-');
    const pidFile = join(root, 'fixture.pid');
    await writeFile(join(work, '.mcp.json'), serverFile(pidFile));
    await writeFile(
      join(data, 'settings.json'),
      JSON.stringify({ rules: { allow: ['mcp__fixture__echo'] } }),
    );
    const model = await echoModel();
    const env = { HOME: home, CODEAGENT_BASE_URL: model.baseURL, CODEAGENT_MODEL: 'gpt-4o' };
    const args = ['-p', 'echo it', '--cwd', work, '--data-dir', data];

    const held = await runBin(args, env);
    expect(held.stderr).toContain(
      `codeagent: mcp: fixture of ${join(work, '.mcp.json')} not started: not approved for this workspace (approve it with --approve-mcp fixture, or /mcp approve fixture in the REPL)`,
    );
    expect(existsSync(pidFile)).toBe(false);
    // The model was not offered the server's tools.
    expect(JSON.stringify(model.requests[0]?.body.tools)).not.toContain('mcp__fixture__');

    const approved = await runBin([...args, '--approve-mcp', 'fixture'], env);
    expect(approved.code).toBe(0);
    expect(approved.stdout).toBe('The fixture echoed it.\n');
    const pid = await pidOf(pidFile);
    expect(alive(pid)).toBe(false);

    // Remembered: the next -p run starts it without the flag.
    await writeFile(pidFile, '');
    const again = await runBin(args, env);
    expect(again.stdout).toBe('The fixture echoed it.\n');
    expect(again.stderr).not.toContain('not approved');
    expect(await pidOf(pidFile)).toBeGreaterThan(0);

    // A changed env value in the project file is a new definition: held again.
    await writeFile(join(work, '.mcp.json'), serverFile(pidFile, { NODE_OPTIONS: '--require ./evil.js' }));
    const changed = await runBin(args, env);
    expect(changed.stderr).toContain('fixture of');
    expect(changed.stderr).toContain('not approved for this workspace');
  }, 60_000);

  it('--mcp-config loads a file without asking, may be repeated, and an MCP prompt is expanded for -p', async () => {
    const { root, home, work, data } = await tempRoot('codeagent-mcp-x-');
    const pidFile = join(root, 'fixture.pid');
    const file = join(root, 'servers.json');
    await writeFile(file, serverFile(pidFile));
    const other = join(root, 'other.json');
    await writeFile(other, JSON.stringify({ mcpServers: {} }));
    const model = await echoModel();
    const env = { HOME: home, CODEAGENT_BASE_URL: model.baseURL, CODEAGENT_MODEL: 'gpt-4o' };
    // Without a rule the gate asks, and -p cannot ask: denied, exit 3.
    const denied = await runBin(
      ['-p', 'echo it', '--cwd', work, '--data-dir', data, '--mcp-config', other, '--mcp-config', file],
      env,
    );
    expect(denied.code).toBe(3);
    expect(denied.stderr).toContain('approval needed for mcp__fixture__echo');
    expect(existsSync(join(data, 'mcp-approvals.json'))).toBe(false);

    const review = await runBin(
      ['-p', '/mcp__fixture__review src/a.ts', '--cwd', work, '--data-dir', data, '--mcp-config', file],
      env,
    );
    const last = model.requests.at(-1)?.body.messages ?? [];
    expect(JSON.stringify(last.filter((m) => m.role === 'user'))).toContain('Review src/a.ts');
    expect(JSON.stringify(last)).not.toContain('/mcp__fixture__review');
    expect(review.code).toBe(3);

    const unknown = await runBin(
      ['-p', '/mcp__fixture__nope', '--cwd', work, '--data-dir', data, '--mcp-config', file],
      env,
    );
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown MCP prompt /mcp__fixture__nope');

    const missing = await runBin(
      ['-p', 'hi', '--cwd', work, '--data-dir', data, '--mcp-config', join(root, 'none.json')],
      env,
    );
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`MCP config ${join(root, 'none.json')} cannot be read`);
  }, 60_000);

  it('a user server in ~/.codeagent/mcp.json wins over a project server of the same name, which never starts', async () => {
    const { root, home, work, data } = await tempRoot('codeagent-mcp-u-');
    const userPid = join(root, 'user.pid');
    const projectPid = join(root, 'project.pid');
    await writeFile(join(data, 'mcp.json'), serverFile(userPid));
    await writeFile(join(work, '.mcp.json'), serverFile(projectPid));
    await writeFile(join(data, 'settings.json'), JSON.stringify({ rules: { allow: ['mcp__fixture__*'] } }));
    const model = await echoModel();
    const run = await runBin(['-p', 'echo it', '--cwd', work, '--data-dir', data, '--approve-mcp', 'all'], {
      HOME: home,
      CODEAGENT_BASE_URL: model.baseURL,
      CODEAGENT_MODEL: 'gpt-4o',
    });
    expect(run.stdout).toBe('The fixture echoed it.\n');
    expect(await pidOf(userPid)).toBeGreaterThan(0);
    expect(existsSync(projectPid)).toBe(false);
    expect(run.stderr).toContain(
      `server fixture is also defined in ${join(data, 'mcp.json')}, which is used`,
    );
  }, 60_000);
});

describe("a server's question without a terminal", () => {
  it('-p declines it and says so on stderr; the server gets the decline', async () => {
    const { root, home, work, data } = await tempRoot('codeagent-mcp-ask-');
    const file = join(root, 'servers.json');
    await writeFile(file, serverFile(join(root, 'pid')));
    await writeFile(join(data, 'settings.json'), JSON.stringify({ rules: { allow: ['mcp__fixture__ask'] } }));
    const model = await startOpenAIServer({
      replies: (request) =>
        hadToolResult(request)
          ? { text: 'Nothing to do.' }
          : { tools: [{ name: 'mcp__fixture__ask', args: {} }] },
    });
    servers.push(model);
    const run = await runBin(['-p', 'deploy', '--cwd', work, '--data-dir', data, '--mcp-config', file], {
      HOME: home,
      CODEAGENT_BASE_URL: model.baseURL,
      CODEAGENT_MODEL: 'gpt-4o',
    });
    expect(run.code).toBe(0);
    expect(run.stdout).toBe('Nothing to do.\n');
    expect(run.stderr).toContain(
      'codeagent: mcp: fixture asked "Which environment?": declined (no terminal to ask at)',
    );
    expect(JSON.stringify(model.requests.at(-1)?.body.messages)).toContain('\\"action\\":\\"decline\\"');
  }, 60_000);
});

describe('MCP servers end with the CLI', () => {
  for (const how of ['end of input', 'SIGTERM', 'SIGHUP'] as const) {
    it(`a server that ignores SIGTERM and the end of its stdin is gone after the CLI exits (${how})`, async () => {
      const { root, home, work, data } = await tempRoot('codeagent-mcp-exit-');
      const pidFile = join(root, 'fixture.pid');
      const file = join(root, 'servers.json');
      await writeFile(file, serverFile(pidFile, { FIXTURE_STUBBORN: '1' }));
      await mkdir(join(work, 'sub'), { recursive: true });
      const model = await echoModel();
      const child = spawn('node', [BIN, '--cwd', work, '--data-dir', data, '--mcp-config', file], {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: home,
          CODEAGENT_BASE_URL: model.baseURL,
          CODEAGENT_MODEL: 'gpt-4o',
        },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
      });
      const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
      expect(await until(() => out.includes('/help for commands'))).toBe(true);
      const pid = await pidOf(pidFile);
      expect(alive(pid)).toBe(true);
      if (how === 'end of input') child.stdin.end();
      else child.kill(how);
      await exited;
      expect(await until(() => !alive(pid), 2_000)).toBe(true);
    }, 30_000);
  }
});

describe('MCP server policy (trust, capabilities)', () => {
  async function lookupModel(): Promise<OpenAIServer> {
    const server = await startOpenAIServer({
      replies: (request) =>
        hadToolResult(request)
          ? { text: 'Looked it up.' }
          : { tools: [{ name: 'mcp__fixture__lookup', args: { q: 'x' } }] },
    });
    servers.push(server);
    return server;
  }
  const entry = (pidFile: string, policy: Record<string, unknown>) =>
    JSON.stringify({
      mcpServers: {
        fixture: { command: 'node', args: [FIXTURE, 'stdio'], env: { FIXTURE_PID_FILE: pidFile }, ...policy },
      },
    });

  it("a server the user trusts in their own file has its read-only tools classified read; a project's .mcp.json cannot trust itself", async () => {
    const { root, home, work, data } = await tempRoot('codeagent-mcp-trust-');
    const pidFile = join(root, 'fixture.pid');
    const model = await lookupModel();
    const env = { HOME: home, CODEAGENT_BASE_URL: model.baseURL, CODEAGENT_MODEL: 'gpt-4o' };
    const args = ['-p', 'look it up', '--cwd', work, '--data-dir', data];

    // Untrusted (the default): the readOnlyHint is ignored, the tool is exec, -p cannot ask: denied.
    await writeFile(join(data, 'mcp.json'), entry(pidFile, {}));
    const untrusted = await runBin(args, env);
    expect(untrusted.code, untrusted.stderr).toBe(3);

    // Trusted in the user's own file: the read-only lookup runs in the default mode without asking.
    await writeFile(join(data, 'mcp.json'), entry(pidFile, { trusted: true }));
    const trusted = await runBin(args, env);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(trusted.stdout).toBe('Looked it up.\n');

    // The same fields in the project's .mcp.json are ignored, with a warning: still asked, so denied.
    await writeFile(join(data, 'mcp.json'), JSON.stringify({ mcpServers: {} }));
    await writeFile(
      join(work, '.mcp.json'),
      entry(pidFile, { trusted: true, tools: { lookup: { capability: 'read' } } }),
    );
    const project = await runBin([...args, '--approve-mcp', 'fixture'], env);
    expect(project.stderr).toContain("trusted, tools ignored in a project's .mcp.json");
    expect(project.code, project.stderr).toBe(3);
  }, 60_000);

  it('a malformed policy keeps the server from starting, with a message (never silently dropped)', async () => {
    const { root, home, work, data } = await tempRoot('codeagent-mcp-badpolicy-');
    const pidFile = join(root, 'fixture.pid');
    const model = await lookupModel();
    await writeFile(join(data, 'mcp.json'), entry(pidFile, { tools: { lookup: { disabled: 'yes' } } }));
    const r = await runBin(['-p', 'look it up', '--cwd', work, '--data-dir', data], {
      HOME: home,
      CODEAGENT_BASE_URL: model.baseURL,
      CODEAGENT_MODEL: 'gpt-4o',
    });
    expect(r.stderr).toContain(
      'fixture: "tools.lookup.disabled" must be true or false; the server is not started',
    );
    expect(existsSync(pidFile)).toBe(false);
    expect(JSON.stringify(model.requests[0]?.body.tools)).not.toContain('mcp__fixture__');
  }, 60_000);
});

describe('the MCP adapter loads only when a config could name a server', () => {
  it('mcpConfigPresent finds exactly the project files findProjectMcpFile finds, and the user and explicit files', async () => {
    const { mcpConfigPresent } = await import('../src/mcp-lazy.js');
    const { findProjectMcpFile } = await import('@codeagent/adapter-mcp');
    const { root, data } = await tempRoot();
    const repo = join(root, 'repo');
    const deep = join(repo, 'a', 'b');
    await mkdir(deep, { recursive: true });
    const check = () => expect(mcpConfigPresent(deep, data, [])).toBe(findProjectMcpFile(deep) !== null);
    // No repository: only the folder itself counts, so a file above it is not seen (as adapter-mcp reads it).
    await writeFile(join(root, '.mcp.json'), '{"mcpServers":{}}');
    check();
    expect(mcpConfigPresent(deep, data, [])).toBe(false);
    // A repository root: files from cwd up to it count, none above it.
    await mkdir(join(repo, '.git'));
    check();
    await writeFile(join(repo, '.mcp.json'), '{"mcpServers":{}}');
    check();
    expect(mcpConfigPresent(deep, data, [])).toBe(true);
    expect(mcpConfigPresent(root, data, [])).toBe(findProjectMcpFile(root) !== null);
    // The user's file and --mcp-config.
    const other = join(root, 'other');
    await mkdir(other);
    expect(mcpConfigPresent(other, data, [])).toBe(findProjectMcpFile(other) !== null);
    expect(mcpConfigPresent(other, data, ['x.json'])).toBe(true);
    await writeFile(join(data, 'mcp.json'), '{"mcpServers":{}}');
    expect(mcpConfigPresent(other, data, [])).toBe(true);
  });
});
