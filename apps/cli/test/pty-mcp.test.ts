import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { McpServerConnection } from '@codeagent/adapter-mcp';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChatRequest, type OpenAIServer, startOpenAIServer } from './chat-server.js';
import { BIN, tempRoot } from './run.js';
import { TmuxSession } from './tmux.js';

/** The fixture MCP server of adapter-mcp's tests (built with the MCP SDK; its tools and a `review` prompt). */
const FIXTURE = fileURLToPath(
  new URL('../../../packages/adapter-mcp/test/fixtures/server.mjs', import.meta.url),
);

const require = createRequire(import.meta.url);
/** How many tools the fixture offers (asked from the server itself, so a new fixture tool changes nothing here). */
const TOOLS = await (async () => {
  const c = new McpServerConnection('count', { command: 'node', args: [FIXTURE, 'stdio'] });
  const n = (await c.tools()).length;
  await c.close();
  return n;
})();
/** The MCP conformance suite's runner: in interactive mode it serves one scenario (here an OAuth-protected server). */
const CONFORMANCE = (() => {
  const pkg = require.resolve('@modelcontextprotocol/conformance/package.json');
  const bin = (require(pkg) as { bin: Record<string, string> }).bin.conformance as string;
  return join(pkg, '..', bin);
})();

const children: ChildProcess[] = [];
const sessions: TmuxSession[] = [];
const servers: OpenAIServer[] = [];
afterEach(async () => {
  for (const c of children.splice(0)) c.kill('SIGKILL');
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** Whether a process of that id still runs. */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The pid the fixture wrote into `file`, once it did. */
async function pidOf(file: string): Promise<number> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const text = await readFile(file, 'utf8').catch(() => '');
    if (/^\d+$/u.test(text.trim())) return Number(text.trim());
    if (Date.now() > deadline) throw new Error(`no pid in ${file}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

async function gone(pid: number, ms = 10_000): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (alive(pid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

const hadToolResult = (request: ChatRequest) => (request.body.messages ?? []).some((m) => m.role === 'tool');

/** The model: calls the fixture's echo tool, then answers once the result is back. */
function echoModel() {
  return startOpenAIServer({
    replies: (request) =>
      hadToolResult(request)
        ? { text: 'The fixture echoed it.' }
        : { tools: [{ name: 'mcp__fixture__echo', args: { text: 'hello over MCP' } }] },
  });
}

function mcpJson(pidFile: string, extraArgs: readonly string[] = []): string {
  return JSON.stringify({
    mcpServers: {
      fixture: {
        command: 'node',
        args: [FIXTURE, 'stdio', ...extraArgs],
        env: { FIXTURE_PID_FILE: pidFile },
      },
    },
  });
}

describe("the CLI with a project's .mcp.json, in a pseudo-terminal", () => {
  it('asks once before starting the server, its tool runs through the gate, a second run does not ask, a changed command does', async () => {
    const { root, home, work, data } = await tempRoot('codeagent-mcp-');
    const pidFile = join(root, 'fixture.pid');
    await writeFile(join(work, '.mcp.json'), mcpJson(pidFile));
    const model = await echoModel();
    servers.push(model);
    const start = () =>
      TmuxSession.start({
        command: ['node', BIN, '--cwd', work, '--data-dir', data],
        cwd: work,
        env: {
          TERM: 'xterm-256color',
          HOME: home,
          NO_COLOR: '1',
          CODEAGENT_BASE_URL: model.baseURL,
          CODEAGENT_MODEL: 'gpt-4o',
        },
        logDir: root,
        width: 140,
      });

    // First run: the project's server is asked about, showing exactly what runs; nothing starts before the answer.
    let cli = await start();
    sessions.push(cli);
    let screen = await cli.waitFor('Start fixture?');
    expect(screen).toContain(
      `This project's .mcp.json wants to start an MCP server: ${join(work, '.mcp.json')}`,
    );
    expect(screen).toContain(`fixture: runs node ${FIXTURE} stdio`);
    expect(screen).toContain(`env (as written): FIXTURE_PID_FILE=${pidFile}`);
    expect(existsSync(pidFile)).toBe(false);
    await cli.type('y');
    await cli.waitFor(new RegExp(`mcp: fixture: ready · ${TOOLS} tools · 1 prompt \\(project · `));
    await cli.waitFor(/session \S+ · \/help/);
    const firstPid = await pidOf(pidFile);
    expect(alive(firstPid)).toBe(true);
    await cli.type('/mcp');
    await cli.keys('Enter');
    await cli.waitFor(new RegExp(`› /mcp\n {2}fixture: ready · ${TOOLS} tools · 1 prompt \\(project · `));
    // The prompt is listed in /help and completes with Tab.
    await cli.type('/help');
    await cli.keys('Enter');
    await cli.waitFor('/mcp__fixture__review <file> [focus]  Review a file');
    await cli.type('/mcp__fix');
    await cli.keys('Tab');
    await cli.waitFor('› /mcp__fixture__review');
    await cli.keys('C-u');
    // A turn: the model calls the server's tool, its card renders, the gate asks (MCP tools are exec).
    await cli.type('echo something over MCP');
    await cli.keys('Enter');
    screen = await cli.waitFor('Allow fixture · echo?');
    expect(screen).toContain('● fixture · echo');
    expect(screen).toContain('input: {"text":"hello over MCP"}');
    await cli.type('y');
    screen = await cli.waitFor('The fixture echoed it.');
    expect(screen).toMatch(/✓ fixture · echo\n {2}hello over MCP/);
    // The model saw the tool by its Claude Code name, and got the server's text back.
    const tools = JSON.stringify(model.requests[0]?.body.tools);
    expect(tools).toContain('mcp__fixture__echo');
    expect(JSON.stringify(model.requests.at(-1)?.body.messages)).toContain('hello over MCP');
    // Running a prompt says so, and the server's text is what the model gets.
    await cli.type('/mcp__fixture__review src/a.ts security');
    await cli.keys('Enter');
    await cli.waitFor('running MCP prompt /mcp__fixture__review with "src/a.ts security"');
    await cli.waitFor(/completed \(stop\)[\s\S]*completed \(stop\)/);
    expect(JSON.stringify(model.requests.at(-1)?.body.messages)).toContain('Review src/a.ts for security');
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
    // The server is stopped with the CLI: no process outlives it.
    expect(await gone(firstPid)).toBe(true);
    const approvals = join(data, 'mcp-approvals.json');
    expect((await stat(approvals)).mode & 0o777).toBe(0o600);
    expect(existsSync(join(work, '.codeagent'))).toBe(false);

    // Second run, with a Claude Code style rule for the whole server: no question, no approval prompt.
    await writeFile(join(data, 'settings.json'), JSON.stringify({ rules: { allow: ['mcp__fixture__*'] } }));
    cli = await start();
    sessions.push(cli);
    screen = await cli.waitFor(/session \S+ · \/help/);
    expect(screen).not.toContain('wants to start');
    expect(screen).toContain(`mcp: fixture: ready · ${TOOLS} tools`);
    await cli.type('echo again');
    await cli.keys('Enter');
    screen = await cli.waitFor(/The fixture echoed it\.[\s\S]*completed \(stop\)/);
    expect(screen).not.toContain('Allow fixture · echo?');
    expect(screen).toMatch(/✓ fixture · echo\n {2}hello over MCP/);
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);

    // Third run: the command changed (one more argument), so it is asked about again; "no" is remembered.
    await writeFile(join(work, '.mcp.json'), mcpJson(pidFile, ['--changed']));
    await writeFile(pidFile, '');
    cli = await start();
    sessions.push(cli);
    screen = await cli.waitFor('Start fixture?');
    expect(screen).toContain(`fixture: runs node ${FIXTURE} stdio --changed`);
    await cli.type('n');
    screen = await cli.waitFor(/session \S+ · \/help/);
    expect(screen).toContain('declined (remembered)');
    expect(screen).toContain(
      'fixture of ' +
        `${join(work, '.mcp.json')} not started: you declined it for this workspace (approve it with --approve-mcp fixture, or /mcp approve fixture in the REPL)`,
    );
    expect((await readFile(pidFile, 'utf8')).trim()).toBe('');
    await cli.type('/mcp');
    await cli.keys('Enter');
    await cli.waitFor('fixture: denied (project · ');
    // Approving from the REPL starts it now.
    await cli.type('/mcp approve fixture');
    await cli.keys('Enter');
    await cli.waitFor(new RegExp(`approved for \\S+: fixture: ready · ${TOOLS} tools`));
    const thirdPid = await pidOf(pidFile);
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
    expect(await gone(thirdPid)).toBe(true);
  }, 120_000);
});

/** Starts the conformance suite's OAuth-protected server (authorization server included); resolves with its URL. */
async function oauthServer(): Promise<string> {
  const child = spawn(process.execPath, [CONFORMANCE, 'client', '--scenario', 'auth/metadata-default'], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    const read = (d: Buffer) => {
      out += d.toString();
      const m = /Server URL: (\S+)/u.exec(out);
      if (m?.[1]) resolve(m[1]);
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.once('exit', () => reject(new Error(`the conformance server exited: ${out}`)));
  });
}

describe('MCP sign-ins and questions, in a pseudo-terminal', () => {
  it("signs in to an OAuth server through the loopback redirect (tokens kept, 0600), and answers a server's form", async () => {
    const { root, home, work, data } = await tempRoot('codeagent-mcp-oauth-');
    const url = await oauthServer();
    const file = join(root, 'servers.json');
    await writeFile(
      file,
      JSON.stringify({
        mcpServers: { docs: { type: 'http', url }, fixture: { command: 'node', args: [FIXTURE, 'stdio'] } },
      }),
    );
    await writeFile(join(data, 'settings.json'), JSON.stringify({ rules: { allow: ['mcp__fixture__ask'] } }));
    const model = await startOpenAIServer({
      replies: (request) =>
        hadToolResult(request)
          ? { text: 'Deploying as you said.' }
          : { tools: [{ name: 'mcp__fixture__ask', args: {} }] },
    });
    servers.push(model);
    const start = () =>
      TmuxSession.start({
        command: ['node', BIN, '--cwd', work, '--data-dir', data, '--mcp-config', file],
        cwd: work,
        env: {
          TERM: 'xterm-256color',
          HOME: home,
          NO_COLOR: '1',
          CODEAGENT_BASE_URL: model.baseURL,
          CODEAGENT_MODEL: 'gpt-4o',
        },
        logDir: root,
        width: 200,
      });
    let cli = await start();
    sessions.push(cli);
    const screen = await cli.waitFor(/Open this address in a browser \(Esc cancels\):\n {2}(\S+)/);
    expect(screen).toContain('MCP server docs asks you to sign in.');
    const authorize = new URL(
      /Open this address in a browser \(Esc cancels\):\n {2}(\S+)/.exec(screen)?.[1] ?? '',
    );
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('redirect_uri')).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
    // The browser: the authorization server signs the user in and sends it back to the CLI's loopback redirect.
    const back = (await fetch(authorize, { redirect: 'manual' })).headers.get('location') ?? '';
    expect(back.startsWith(authorize.searchParams.get('redirect_uri') ?? 'none')).toBe(true);
    const page = await fetch(back);
    expect(page.status).toBe(200);
    await cli.waitFor('signed in to docs');
    await cli.waitFor(/mcp: docs: ready · 1 tool \(explicit · /);
    await cli.waitFor(/session \S+ · \/help/);
    const tokens = join(data, 'mcp-tokens.json');
    expect((await stat(tokens)).mode & 0o777).toBe(0o600);
    expect(await readFile(tokens, 'utf8')).toContain('test-token-');

    // The server asks a question mid-call: the CLI asks field by field; a default fills what is left empty.
    await cli.type('deploy it');
    await cli.keys('Enter');
    await cli.waitFor('MCP server fixture asks: Which environment?');
    await cli.waitFor('Environment [one of staging, prod, required]: ');
    await cli.type('nowhere');
    await cli.keys('Enter');
    await cli.waitFor('not a valid choice');
    await cli.type('prod');
    await cli.keys('Enter');
    await cli.waitFor('Replicas [integer, default 2]: ');
    await cli.keys('Enter');
    await cli.waitFor('Really? [y/n]: ');
    await cli.type('y');
    await cli.keys('Enter');
    await cli.waitFor('Send these answers?');
    await cli.type('y');
    const answered = await cli.waitFor('Deploying as you said.');
    expect(answered).toContain('{"action":"accept","content":{"env":"prod","confirm":true,"replicas":2}}');
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);

    // The next run signs in with the kept tokens: no address to open.
    cli = await start();
    sessions.push(cli);
    const again = await cli.waitFor(/session \S+ · \/help/);
    expect(again).toContain('mcp: docs: ready · 1 tool');
    expect(again).not.toContain('asks you to sign in');
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  }, 120_000);
});
