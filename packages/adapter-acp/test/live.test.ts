import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import type { Script } from '@codeagent/providers';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdIncompleteEscape, remainingTerminalData } from '../src/live.js';
import { terminalText } from '../src/index.js';
import { type EditorRun, withEditor, workspace } from './helpers.js';

const done: Script[number] = { parts: [{ type: 'text', text: 'ok' }] };
const bash = (command: string): Script[number] => ({
  parts: [{ type: 'tool-call', toolName: 'Bash', input: { command, description: 'Run it' } }],
});

type Update = acp.SessionNotification['update'];
const updates = (run: EditorRun): Update[] => run.updates.map((u) => u.update);
const meta = (u: Update) => (u as { _meta?: Record<string, { data?: string }> })._meta;

async function until(check: () => boolean, what: string): Promise<void> {
  const deadline = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Runs `command` with the approval granted; `whileRunning` sees the updates while the command still runs. */
async function runLive(
  terminal: boolean,
  command: (gate: string) => string,
  whileRunning: (run: EditorRun, gate: string) => Promise<void>,
) {
  const cwd = await workspace();
  const gate = join(cwd, 'go');
  return withEditor(
    { cwd, script: [bash(command(gate)), done], answers: ['allow_once'], terminal },
    async (ctx, run) => {
      const { sessionId } = await ctx.request(acp.methods.agent.session.new, { cwd, mcpServers: [] });
      const turn = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'go' }],
      });
      await whileRunning(run, gate);
      expect((await turn).stopReason).toBe('end_turn');
      return updates(run);
    },
  );
}

const waitsForGate = (gate: string) => `echo ready; while [ ! -f ${gate} ]; do sleep 0.02; done; echo after`;

describe('Bash output reaches the editor while the command runs', () => {
  it('with terminal output: _meta.terminal_output updates while running, then terminal_exit without a resend', async () => {
    const seen = await runLive(true, waitsForGate, async (run, gate) => {
      // The command only goes on once the editor has seen its first line.
      await until(() => updates(run).some((u) => meta(u)?.terminal_output?.data?.includes('ready')), 'ready');
      expect(updates(run).some((u) => meta(u)?.terminal_exit)).toBe(false);
      writeFileSync(gate, '');
    });
    const call = seen.findIndex((u) => u.sessionUpdate === 'tool_call');
    const exit = seen.findIndex((u) => meta(u)?.terminal_exit !== undefined);
    const live = seen.filter((u) => meta(u)?.terminal_output !== undefined);
    expect(live.map((u) => meta(u)?.terminal_output?.data).join('')).toBe('ready\nafter\n');
    expect(live.every((u) => seen.indexOf(u) > call && seen.indexOf(u) < exit)).toBe(true);
    expect((live[0] as { status?: string }).status).toBe('in_progress');
    expect(seen[exit]).toMatchObject({ status: 'completed' });
  }, 30_000);

  it('without terminal output: content updates with the tail while running, replaced by the result', async () => {
    const seen = await runLive(false, waitsForGate, async (run, gate) => {
      await until(
        () =>
          updates(run).some(
            (u) => u.sessionUpdate === 'tool_call_update' && JSON.stringify(u).includes('ready'),
          ),
        'ready',
      );
      expect(updates(run).some((u) => (u as { status?: string }).status === 'completed')).toBe(false);
      writeFileSync(gate, '');
    });
    const first = seen.find((u) => u.sessionUpdate === 'tool_call_update');
    expect(first).toMatchObject({ status: 'in_progress' });
    expect(JSON.stringify(first)).toContain('Run it');
    expect(JSON.stringify(first)).toContain('```console\\nready');
    const final = seen.filter((u) => u.sessionUpdate === 'tool_call_update').at(-1);
    expect(final).toMatchObject({ status: 'completed' });
    expect(JSON.stringify(final)).toContain('ready\\nafter');
    expect(seen.some((u) => meta(u)?.terminal_output)).toBe(false);
  }, 30_000);

  it('a capped output: the live stream stops at the cap and the result sends the omission and the tail', async () => {
    const seen = await runLive(
      true,
      () => 'seq 1 30000',
      async () => undefined,
    );
    const data = seen
      .filter((u) => meta(u)?.terminal_output !== undefined)
      .map((u) => meta(u)?.terminal_output?.data ?? '');
    const last = data.at(-1) ?? '';
    expect(last).toMatch(/^\n\[\.\.\. \d+ bytes omitted \.\.\.\]\n\n/);
    expect(last.trimEnd().endsWith('30000')).toBe(true);
    const streamed = data.slice(0, -1).join('');
    expect(streamed).toContain('[... live output stopped at the output limit');
    expect(Buffer.byteLength(streamed)).toBeLessThan(31_000);
  }, 30_000);
});

describe('live terminal text', () => {
  it('holds an escape sequence split across chunks until it is complete', () => {
    expect(holdIncompleteEscape('a\u001b[3')).toEqual({ ready: 'a', held: '\u001b[3' });
    expect(holdIncompleteEscape('a\u001b[31m')).toEqual({ ready: 'a\u001b[31m', held: '' });
    expect(holdIncompleteEscape('x\u001b]0;tit')).toEqual({ ready: 'x', held: '\u001b]0;tit' });
    expect(holdIncompleteEscape('x\u001b]0;t\u0007y')).toEqual({ ready: 'x\u001b]0;t\u0007y', held: '' });
    expect(holdIncompleteEscape('plain')).toEqual({ ready: 'plain', held: '' });
    // A sequence that never ends is not held forever.
    const long = `\u001b]0;${'x'.repeat(300)}`;
    expect(holdIncompleteEscape(long).held).toBe('');
  });

  it('property: chunked, held and sanitised piecewise equals sanitising the whole', () => {
    const token = fc.constantFrom(
      'ab',
      ' ',
      '\n',
      '\u001b[31m',
      '\u001b[0m',
      '\u001b[2K',
      '\u001b]0;title\u0007',
      'é',
      '\u001b[1;32m',
    );
    fc.assert(
      fc.property(
        fc.array(token, { maxLength: 40 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        (tokens, cuts) => {
          const whole = tokens.join('');
          const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b);
          let held = '';
          let out = '';
          let from = 0;
          for (const p of [...points, whole.length]) {
            const r = holdIncompleteEscape(held + whole.slice(from, p));
            held = r.held;
            out += terminalText(r.ready);
            from = p;
          }
          out += terminalText(held);
          expect(out).toBe(terminalText(whole));
        },
      ),
    );
  });

  it('sends only what the terminal lacks', () => {
    expect(remainingTerminalData('a\nb\n', undefined)).toBe('a\nb\n');
    expect(remainingTerminalData('a\nb\n', 'a\nb\n')).toBe('');
    expect(remainingTerminalData('a\nb\n', 'a\n')).toBe('b\n');
    // stdout and stderr interleaved otherwise: the stream had it all.
    expect(remainingTerminalData('err\nout\n', 'out\nerr\n')).toBe('');
    expect(remainingTerminalData('head\n\n[... 12 bytes omitted ...]\n\ntail\n', 'head\nmore')).toBe(
      '\n[... 12 bytes omitted ...]\n\ntail\n',
    );
  });
});
