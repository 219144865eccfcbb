import { existsSync, writeFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import { schemaFailures, spawnAcp, tappedStream, updatesOf, type WireLog, wireLog } from './acp-harness.js';

const logs: WireLog[] = [];

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

type Update = acp.SessionUpdate;
const meta = (u: Update) => (u as { _meta?: Record<string, { data?: string } | undefined> })._meta;

describe.each([{ terminal: true }, { terminal: false }])(
  'codeagent acp streams Bash output while it runs (terminal output: $terminal)',
  ({ terminal }) => {
    it('the editor sees the first lines before the command ends; every message validates', async () => {
      const root = await mkdtemp(join(tmpdir(), 'codeagent-acp-live-'));
      const work = join(root, 'work');
      await mkdir(work);
      const gate = join(root, 'go');
      const command = `for i in 1 2 3; do echo line$i; sleep 0.2; done; while [ ! -f ${gate} ]; do sleep 0.05; done; printf '\\033[32mend\\033[0m\\n'`;
      const script = join(root, 'script.json');
      await writeFile(
        script,
        JSON.stringify([
          { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command, description: 'Count' } }] },
          { parts: [{ type: 'text', text: 'counted' }] },
        ]),
      );
      const child = spawnAcp(['--script', script, '--data-dir', join(root, 'data')]);
      const log = wireLog();
      logs.push(log);
      const app = acp
        .client({ name: 'live-editor' })
        .onNotification(acp.methods.client.session.update, () => undefined)
        .onRequest(acp.methods.client.session.requestPermission, async () => ({
          outcome: { outcome: 'selected', optionId: 'allow_once' },
        }));
      await app.connectWith(tappedStream(child.child, log), async (ctx) => {
        await ctx.request(acp.methods.agent.initialize, {
          protocolVersion: acp.PROTOCOL_VERSION,
          clientCapabilities: { ...(terminal ? { _meta: { terminal_output: true } } : {}) },
        });
        const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd: work, mcpServers: [] });
        const turn = ctx.request(acp.methods.agent.session.prompt, {
          sessionId,
          prompt: [{ type: 'text', text: 'count' }],
        });
        const liveText = () =>
          updatesOf(log, sessionId)
            .filter((u) => u.sessionUpdate === 'tool_call_update')
            .map((u) => (terminal ? (meta(u)?.terminal_output?.data ?? '') : JSON.stringify(u)))
            .join('');
        // The command waits for the gate file: everything seen before it is created arrived live.
        await until(() => liveText().includes('line3'), 'line3');
        const early = updatesOf(log, sessionId);
        expect(early.some((u) => meta(u)?.terminal_exit !== undefined)).toBe(false);
        expect(early.some((u) => (u as { status?: string }).status === 'completed')).toBe(false);
        writeFileSync(gate, '');
        expect((await turn).stopReason).toBe('end_turn');
        const all = updatesOf(log, sessionId);
        const final = all.filter((u) => u.sessionUpdate === 'tool_call_update').at(-1);
        expect(final).toMatchObject({ status: 'completed' });
        if (terminal) {
          expect(liveText()).toBe('line1\nline2\nline3\n\u001b[32mend\u001b[0m\n');
          expect(meta(final as Update)?.terminal_exit).toBeDefined();
        } else {
          expect(JSON.stringify(final)).toContain('line1\\nline2\\nline3\\nend');
          // Content is plain text: no escape reaches it.
          expect(JSON.stringify(final)).not.toContain('\\u001b');
        }
      });
      child.child.stdin.end();
      expect(await child.exited).toEqual({ code: 0, signal: null });
      expect(log.garbage).toEqual([]);
      expect(existsSync(gate)).toBe(true);
    }, 60_000);
  },
);

afterAll(() => {
  expect(logs.flatMap((l) => l.received).length).toBeGreaterThan(8);
  expect(schemaFailures(logs)).toEqual([]);
});
