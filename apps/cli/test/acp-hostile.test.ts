import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { type AcpChild, schemaFailures, spawnAcp } from './acp-harness.js';

/** A raw line client: writes whatever it likes, reads every JSON line the agent writes. */
function raw(child: AcpChild) {
  const lines: Array<Record<string, unknown>> = [];
  const sent: unknown[] = [];
  const garbage: string[] = [];
  let buffer = '';
  child.child.stdout.on('data', (d: Buffer) => {
    buffer += d.toString('utf8');
    let nl = buffer.indexOf('\n');
    while (nl !== -1) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      try {
        lines.push(JSON.parse(line) as Record<string, unknown>);
      } catch {
        garbage.push(line);
      }
      nl = buffer.indexOf('\n');
    }
  });
  const write = (text: string) =>
    new Promise<void>((resolve, reject) => child.child.stdin.write(text, (e) => (e ? reject(e) : resolve())));
  const send = (message: unknown) => {
    sent.push(message);
    return write(`${JSON.stringify(message)}\n`);
  };
  const reply = async (id: number, timeoutMs = 10_000) => {
    const start = Date.now();
    for (;;) {
      const found = lines.find((l) => l.id === id && !('method' in l));
      if (found) return found;
      if (Date.now() - start > timeoutMs) throw new Error(`no reply to ${id}; stderr: ${child.stderr()}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  return { lines, sent, garbage, write, send, reply };
}

async function workspace(script: unknown[]) {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-acp-hostile-'));
  await mkdir(join(root, 'work'));
  await writeFile(join(root, 's.json'), JSON.stringify(script));
  return {
    root,
    work: join(root, 'work'),
    args: ['--script', join(root, 's.json'), '--data-dir', join(root, 'data')],
  };
}

const INIT = {
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: { protocolVersion: 1, clientCapabilities: {} },
};

describe('codeagent acp against hostile clients', () => {
  it('answers garbage, unknown methods, unknown sessions and early requests with JSON-RPC errors and keeps serving', async () => {
    const w = await workspace([{ parts: [{ type: 'text', text: 'hi' }] }]);
    const child = spawnAcp(w.args);
    const c = raw(child);
    // Before initialize, a session request is refused, not served.
    await c.send({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: w.work, mcpServers: [] } });
    expect((await c.reply(1)).error).toBeDefined();
    await c.send(INIT);
    expect((await c.reply(0)).result).toMatchObject({ protocolVersion: 1 });
    await c.write('this is not json\n');
    await c.write('{"jsonrpc":"2.0","id":2,"method":\n');
    await c.write('[1,2,3]\n');
    await c.write('\u001b]0;pwned\u0007\n');
    await c.send({ jsonrpc: '2.0', id: 3, method: 'no/such_method', params: {} });
    expect((await c.reply(3)).error).toMatchObject({ code: -32601 });
    // Each garbage line got its JSON-RPC error (id null): three parse errors and a refused batch.
    const garbageErrors = c.lines.filter((l) => l.id === null).map((l) => (l.error as { code: number }).code);
    expect(garbageErrors.sort((a, b) => a - b)).toEqual([-32700, -32700, -32700, -32600]);
    await c.send({
      jsonrpc: '2.0',
      id: 4,
      method: 'session/prompt',
      params: { sessionId: 'nope', prompt: [{ type: 'text', text: 'x' }] },
    });
    expect((await c.reply(4)).error).toMatchObject({ code: -32002 });
    await c.send({
      jsonrpc: '2.0',
      id: 5,
      method: 'session/new',
      params: { cwd: 'relative/dir', mcpServers: [] },
    });
    expect((await c.reply(5)).error).toMatchObject({ code: -32602 });
    await c.send({ jsonrpc: '2.0', id: 6, method: 'session/new', params: { cwd: 42 } });
    expect((await c.reply(6)).error).toMatchObject({ code: -32602 });
    await c.send({
      jsonrpc: '2.0',
      id: 7,
      method: 'session/set_mode',
      params: { sessionId: 'nope', modeId: 'bypass' },
    });
    expect((await c.reply(7)).error).toMatchObject({ code: -32002 });
    // A session id is never a path: no file outside the sessions folder is read as a session.
    await writeFile(
      join(w.root, 'planted.json'),
      JSON.stringify({ session: { format: 'codeagent.session' } }),
    );
    for (const [i, sessionId] of [
      join(w.root, 'planted.json'),
      '../planted',
      '../../planted.json',
    ].entries()) {
      await c.send({
        jsonrpc: '2.0',
        id: 20 + i,
        method: 'session/load',
        params: { sessionId, cwd: w.work, mcpServers: [] },
      });
      expect((await c.reply(20 + i)).error).toMatchObject({ code: -32002 });
    }
    // Still serving: a real session and prompt work after all of that.
    await c.send({ jsonrpc: '2.0', id: 8, method: 'session/new', params: { cwd: w.work, mcpServers: [] } });
    const created = (await c.reply(8)).result as { sessionId: string };
    await c.send({
      jsonrpc: '2.0',
      id: 9,
      method: 'session/prompt',
      params: { sessionId: created.sessionId, prompt: [{ type: 'text', text: 'hello' }] },
    });
    expect((await c.reply(9)).result).toEqual({ stopReason: 'end_turn' });
    // An empty prompt and an audio prompt (not advertised) are invalid params.
    await c.send({
      jsonrpc: '2.0',
      id: 10,
      method: 'session/prompt',
      params: { sessionId: created.sessionId, prompt: [] },
    });
    expect((await c.reply(10)).error).toMatchObject({ code: -32602 });
    await c.send({
      jsonrpc: '2.0',
      id: 11,
      method: 'session/prompt',
      params: {
        sessionId: created.sessionId,
        prompt: [{ type: 'audio', data: 'AAAA', mimeType: 'audio/wav' }],
      },
    });
    expect((await c.reply(11)).error).toMatchObject({ code: -32602 });
    expect(c.garbage).toEqual([]);
    // Requests 3 and 6 are invalid on purpose; every message the agent wrote validates.
    const valid = c.sent.filter((m) => ![3, 6].includes((m as { id: number }).id));
    expect(schemaFailures([{ sent: valid, received: c.lines }])).toEqual([]);
    child.child.stdin.end();
    expect(await child.exited).toEqual({ code: 0, signal: null });
  }, 30_000);

  it('refuses an oversized message without crashing', async () => {
    const w = await workspace([]);
    const child = spawnAcp(w.args);
    const c = raw(child);
    await c.send(INIT);
    await c.reply(0);
    const huge = 'x'.repeat(33 * 1024 * 1024);
    child.child.stdin.write(
      `{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/${huge}","mcpServers":[]}}\n`,
    );
    child.child.stdin.end();
    const exit = await child.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(child.stderr()).not.toMatch(/at .*\.js:\d+/); // no stack trace: a clean exit
    expect(c.garbage).toEqual([]);
  }, 60_000);

  it('exits cleanly on SIGTERM mid-turn, killing the running command', async () => {
    const marker = `sleep 28.${process.pid}${Date.now() % 1000}`;
    const w = await workspace([
      { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: marker } }] },
    ]);
    const child = spawnAcp([...w.args, '--mode', 'bypass']);
    const c = raw(child);
    await c.send(INIT);
    await c.reply(0);
    await c.send({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: w.work, mcpServers: [] } });
    const { sessionId } = (await c.reply(1)).result as { sessionId: string };
    await c.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'session/prompt',
      params: { sessionId, prompt: [{ type: 'text', text: 'go' }] },
    });
    const start = Date.now();
    while (
      !c.lines.some(
        (l) => (l.params as { update?: { sessionUpdate?: string } })?.update?.sessionUpdate === 'tool_call',
      )
    ) {
      if (Date.now() - start > 10_000) throw new Error('no tool_call');
      await new Promise((r) => setTimeout(r, 10));
    }
    await new Promise((r) => setTimeout(r, 200));
    child.child.kill('SIGTERM');
    expect(await child.exited).toEqual({ code: 0, signal: null });
    expect(child.stderr()).toContain('SIGTERM: shutting down');
    await new Promise((r) => setTimeout(r, 300));
    const { stdout } = await promisify(execFile)('ps', ['-eo', 'args']);
    expect(stdout).not.toContain(marker);
  }, 60_000);

  it('exits cleanly when stdin closes mid-turn, killing the running command', async () => {
    const marker = `sleep 29.${process.pid}${Date.now() % 1000}`;
    const w = await workspace([
      {
        parts: [
          { type: 'tool-call', toolName: 'Bash', input: { command: `${marker}; echo late > late.txt` } },
        ],
      },
      { parts: [{ type: 'text', text: 'never' }] },
    ]);
    const child = spawnAcp([...w.args, '--mode', 'bypass']);
    const c = raw(child);
    await c.send(INIT);
    await c.reply(0);
    await c.send({ jsonrpc: '2.0', id: 1, method: 'session/new', params: { cwd: w.work, mcpServers: [] } });
    const { sessionId } = (await c.reply(1)).result as { sessionId: string };
    await c.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'session/prompt',
      params: { sessionId, prompt: [{ type: 'text', text: 'go' }] },
    });
    const start = Date.now();
    while (
      !c.lines.some(
        (l) => (l.params as { update?: { sessionUpdate?: string } })?.update?.sessionUpdate === 'tool_call',
      )
    ) {
      if (Date.now() - start > 10_000) throw new Error('no tool_call');
      await new Promise((r) => setTimeout(r, 10));
    }
    child.child.stdin.end();
    const exit = await child.exited;
    expect(exit).toEqual({ code: 0, signal: null });
    expect(Date.now() - start).toBeLessThan(20_000);
    expect(c.garbage).toEqual([]);
    // The command's process group went with the session.
    await new Promise((r) => setTimeout(r, 300));
    const { stdout } = await promisify(execFile)('ps', ['-eo', 'args']);
    expect(stdout).not.toContain(marker);
  }, 60_000);
});
