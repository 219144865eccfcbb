import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as acp from '@agentclientprotocol/sdk';
import { afterAll, describe, expect, it } from 'vitest';
import {
  type AcpChild,
  schemaFailures,
  spawnAcp,
  tappedStream,
  updatesOf,
  type WireLog,
  wireLog,
} from './acp-harness.js';

const logs: WireLog[] = [];

/** The scripted model's answers: one step per model request, consumed in order by one process. */
const SCRIPT = [
  {
    parts: [
      { type: 'reasoning', text: 'Look first.' },
      { type: 'tool-call', toolName: 'Read', input: { file_path: 'a.txt' } },
    ],
  },
  { parts: [{ type: 'tool-call', toolName: 'Write', input: { file_path: 'b.txt', content: 'new file\n' } }] },
  {
    parts: [
      {
        type: 'tool-call',
        toolName: 'Edit',
        input: { file_path: 'a.txt', old_string: 'one', new_string: 'ONE' },
      },
    ],
  },
  {
    parts: [
      {
        type: 'tool-call',
        toolName: 'Edit',
        input: { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' },
      },
    ],
  },
  {
    parts: [
      { type: 'tool-call', toolName: 'Bash', input: { command: 'echo hello', description: 'Say hello' } },
    ],
  },
  { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'echo hello world' } }] },
  { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'rm b.txt' } }] },
  {
    parts: [
      {
        type: 'tool-call',
        toolName: 'TodoWrite',
        input: {
          todos: [
            { content: 'Edit a.txt', status: 'completed' },
            { content: 'Ship it', status: 'pending' },
          ],
        },
      },
    ],
  },
  { parts: [{ type: 'text', text: 'All done.' }] },
  // The second prompt: a command the editor never answers, then a cancel.
  { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'touch cancelled.txt' } }] },
  { parts: [{ type: 'text', text: 'should never be reached' }] },
];

interface Setup {
  root: string;
  work: string;
  data: string;
  script: string;
}

async function setup(): Promise<Setup> {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-acp-e2e-'));
  const work = join(root, 'work');
  await mkdir(work);
  await writeFile(join(work, 'a.txt'), 'one\ntwo\nthree\n');
  await mkdir(join(work, '.codeagent', 'skills', 'review'), { recursive: true });
  await writeFile(
    join(work, '.codeagent', 'skills', 'review', 'SKILL.md'),
    '---\nname: review\ndescription: Review the current diff\nargument-hint: <path>\n---\nReview $ARGUMENTS carefully.\n',
  );
  const script = join(root, 'script.json');
  await writeFile(script, JSON.stringify(SCRIPT));
  return { root, work, data: join(root, 'data'), script };
}

type Answer = 'allow_once' | 'allow_always' | 'reject_once' | 'never' | 'cancelled';

interface Editor {
  child: AcpChild;
  log: WireLog;
  permissions: acp.RequestPermissionRequest[];
  /** Answers for the next permission requests, in order. */
  answers: Answer[];
  /** Called when a request gets the `never` answer (the test then cancels). */
  onNever: (() => void) | null;
}

function startEditor(s: Setup): Editor {
  const child = spawnAcp(['--script', s.script, '--data-dir', s.data]);
  const log = wireLog();
  logs.push(log);
  return { child, log, permissions: [], answers: [], onNever: null };
}

function clientApp(editor: Editor): acp.ClientApp {
  return acp
    .client({ name: 'e2e-editor' })
    .onNotification(acp.methods.client.session.update, () => undefined)
    .onRequest(acp.methods.client.session.requestPermission, async ({ params, agent }) => {
      editor.permissions.push(params);
      const answer = editor.answers.shift() ?? 'reject_once';
      if (answer === 'never') {
        editor.onNever?.();
        return new Promise<acp.RequestPermissionResponse>(() => undefined);
      }
      if (answer === 'cancelled') {
        // As an editor does: send session/cancel, then answer every pending request `cancelled`.
        await agent.notify(acp.methods.agent.session.cancel, { sessionId: params.sessionId });
        return { outcome: { outcome: 'cancelled' } };
      }
      return { outcome: { outcome: 'selected', optionId: answer } };
    });
}

async function closeAndWait(editor: Editor) {
  editor.child.child.stdin.end();
  const exit = await editor.child.exited;
  expect(exit, editor.child.stderr()).toEqual({ code: 0, signal: null });
  expect(editor.log.garbage).toEqual([]);
}

describe.each([
  { terminal: true, cancelAnswer: 'never' as const },
  { terminal: false, cancelAnswer: 'cancelled' as const },
])('codeagent acp driven by an ACP client (terminal output: $terminal)', ({ terminal, cancelAnswer }) => {
  it('runs a turn with reads, writes, edits and Bash, approvals once/always/rejected, a cancel, and a load in a fresh process', async () => {
    const s = await setup();
    const editor = startEditor(s);
    let sessionId = '';
    await clientApp(editor).connectWith(tappedStream(editor.child.child, editor.log), async (ctx) => {
      const init = await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: {
          fs: { readTextFile: false, writeTextFile: false },
          terminal: false,
          ...(terminal ? { _meta: { terminal_output: true } } : {}),
        },
        clientInfo: { name: 'e2e', version: '1.0.0' },
      });
      expect(init.protocolVersion).toBe(acp.PROTOCOL_VERSION);
      expect(init.agentCapabilities?.loadSession).toBe(true);
      expect(init.agentCapabilities?.promptCapabilities).toMatchObject({
        image: true,
        embeddedContext: true,
      });
      expect(init.agentInfo?.name).toBe('codeagent');

      const created = await ctx.request(acp.methods.agent.session.new, { cwd: s.work, mcpServers: [] });
      sessionId = created.sessionId;
      expect(created.modes?.currentModeId).toBe('default');
      expect(created.modes?.availableModes.map((m) => m.id)).toEqual([
        'default',
        'plan',
        'accept_edits',
        'bypass',
        'dont_ask',
      ]);

      editor.answers.push('allow_once', 'allow_always', 'allow_always', 'reject_once');
      const first = await ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [
          { type: 'text', text: 'Tidy the workspace.' },
          { type: 'resource_link', name: 'a.txt', uri: `file://${join(s.work, 'a.txt')}` },
        ],
      });
      expect(first.stopReason).toBe('end_turn');

      // What ran is what was approved: the write (once), both edits (always for the path), echo (always
      // for the prefix, so "echo hello world" ran unasked), and no rm (rejected).
      expect(await readFile(join(s.work, 'a.txt'), 'utf8')).toBe('ONE\nTWO\nthree\n');
      expect(await readFile(join(s.work, 'b.txt'), 'utf8')).toBe('new file\n');
      expect(editor.permissions.map((p) => p.toolCall.title)).toEqual([
        'Write b.txt',
        'Edit a.txt',
        'echo hello',
        'rm b.txt',
      ]);
      const bashAsk = editor.permissions[2];
      expect(bashAsk?.toolCall.rawInput).toEqual({ command: 'echo hello', description: 'Say hello' });
      expect(bashAsk?.options.map((o) => o.kind)).toEqual(['allow_once', 'allow_always', 'reject_once']);
      expect(bashAsk?.options[1]?.name).toContain('echo hello');
      // rm is destructive: "always" covers exactly that command, never every rm.
      expect(editor.permissions[3]?.options[1]?.name).toBe(
        'Always allow Bash command `rm b.txt` exactly in this session',
      );

      const updates = updatesOf(editor.log, sessionId);
      const kinds = updates.map((u) => u.sessionUpdate);
      expect(kinds).toContain('agent_thought_chunk');
      expect(kinds).toContain('available_commands_update');
      expect(kinds).toContain('usage_update');
      const commands = updates.find((u) => u.sessionUpdate === 'available_commands_update');
      expect(commands).toMatchObject({ availableCommands: [{ name: 'review', input: { hint: '<path>' } }] });
      const plan = updates.find((u) => u.sessionUpdate === 'plan');
      expect(plan).toEqual({
        sessionUpdate: 'plan',
        entries: [
          { content: 'Edit a.txt', status: 'completed', priority: 'medium' },
          { content: 'Ship it', status: 'pending', priority: 'medium' },
        ],
      });
      const text = updates
        .filter((u) => u.sessionUpdate === 'agent_message_chunk')
        .map((u) => (u.content.type === 'text' ? u.content.text : ''))
        .join('');
      expect(text).toBe('All done.');
      const calls = updates.filter((u) => u.sessionUpdate === 'tool_call');
      expect(calls.map((c) => [c.title, c.kind])).toEqual([
        ['Read a.txt', 'read'],
        ['Write b.txt', 'edit'],
        ['Edit a.txt', 'edit'],
        ['Edit a.txt', 'edit'],
        ['echo hello', 'execute'],
        ['echo hello world', 'execute'],
        ['rm b.txt', 'execute'],
      ]);
      // Paths on the wire are absolute.
      expect(calls[0]?.locations).toEqual([{ path: join(s.work, 'a.txt'), line: 1 }]);
      expect(calls[1]?.content).toEqual([
        { type: 'diff', path: join(s.work, 'b.txt'), oldText: null, newText: 'new file\n' },
      ]);
      const echoId = calls[4]?.toolCallId ?? '';
      const echoUpdates = updates.filter(
        (u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === echoId,
      );
      if (terminal) {
        expect(calls[4]?._meta).toEqual({ terminal_info: { terminal_id: echoId, cwd: s.work } });
        expect(echoUpdates).toEqual([
          // The output, sent live while the command ran (the result then has nothing more to add to the terminal).
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: echoId,
            status: 'in_progress',
            _meta: { terminal_output: { terminal_id: echoId, data: 'hello\n' } },
          },
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: echoId,
            status: 'completed',
            content: [
              { type: 'content', content: { type: 'text', text: 'Say hello' } },
              { type: 'terminal', terminalId: echoId },
            ],
            _meta: { terminal_exit: { terminal_id: echoId, exit_code: 0, signal: null } },
          },
        ]);
      } else {
        expect(calls[4]?._meta).toBeUndefined();
        expect(echoUpdates).toEqual([
          // Live: the description and the output so far; then the result replaces it.
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: echoId,
            status: 'in_progress',
            content: [
              { type: 'content', content: { type: 'text', text: 'Say hello' } },
              { type: 'content', content: { type: 'text', text: '```console\nhello\n```' } },
            ],
          },
          {
            sessionUpdate: 'tool_call_update',
            toolCallId: echoId,
            status: 'completed',
            content: [{ type: 'content', content: { type: 'text', text: '```console\nhello\n```' } }],
          },
        ]);
      }
      const rmId = calls[6]?.toolCallId ?? '';
      const rmResult = updates.find((u) => u.sessionUpdate === 'tool_call_update' && u.toolCallId === rmId);
      expect(rmResult).toMatchObject({ status: 'failed' });
      expect(JSON.stringify(rmResult)).toContain('Permission denied for Bash');

      // Modes: switching reports current_mode_update.
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'plan' });
      await ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'default' });
      const modeUpdates = updatesOf(editor.log, sessionId).filter(
        (u) => u.sessionUpdate === 'current_mode_update',
      );
      expect(modeUpdates).toEqual([
        { sessionUpdate: 'current_mode_update', currentModeId: 'plan' },
        { sessionUpdate: 'current_mode_update', currentModeId: 'default' },
      ]);
      await expect(
        ctx.request(acp.methods.agent.session.setMode, { sessionId, modeId: 'yolo' }),
      ).rejects.toThrow();

      // Cancel mid-turn while a permission request is pending.
      editor.answers.push(cancelAnswer);
      const asked = new Promise<void>((resolve) => {
        editor.onNever = resolve;
      });
      const second = ctx.request(acp.methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: 'make a file' }],
      });
      if (cancelAnswer === 'never') {
        // The editor never answers: the cancel alone ends the turn, the pending request counts as a denial.
        await asked;
        await ctx.notify(acp.methods.agent.session.cancel, { sessionId });
      }
      expect((await second).stopReason).toBe('cancelled');
      await expect(readFile(join(s.work, 'cancelled.txt'), 'utf8')).rejects.toThrow();
    });
    await closeAndWait(editor);

    // A fresh process loads the saved session: the history comes back as updates, cards included.
    const again = startEditor(s);
    await clientApp(again).connectWith(tappedStream(again.child.child, again.log), async (ctx) => {
      await ctx.request(acp.methods.agent.initialize, {
        protocolVersion: acp.PROTOCOL_VERSION,
        clientCapabilities: terminal ? { _meta: { terminal_output: true } } : {},
      });
      const listed = await ctx.request(acp.methods.agent.session.list, { cwd: s.work });
      expect(listed.sessions.map((x) => x.sessionId)).toContain(sessionId);
      expect(listed.sessions.find((x) => x.sessionId === sessionId)?.title).toBe(
        `Tidy the workspace. [@a.txt](file://${join(s.work, 'a.txt')})`.slice(0, 80),
      );
      const loaded = await ctx.request(acp.methods.agent.session.load, {
        sessionId,
        cwd: s.work,
        mcpServers: [],
      });
      expect(loaded.modes?.currentModeId).toBe('default');
      const replayed = updatesOf(again.log, sessionId);
      const replayKinds = replayed.map((u) => u.sessionUpdate);
      expect(replayKinds[0]).toBe('user_message_chunk');
      expect(replayed.filter((u) => u.sessionUpdate === 'tool_call').map((u) => u.title)).toEqual([
        'Read a.txt',
        'Write b.txt',
        'Edit a.txt',
        'Edit a.txt',
        'echo hello',
        'echo hello world',
        'rm b.txt',
      ]);
      expect(replayKinds).toContain('plan');
      const diffs = replayed.filter(
        (u) => u.sessionUpdate === 'tool_call_update' && u.content?.some((c) => c.type === 'diff'),
      );
      expect(diffs.length).toBeGreaterThanOrEqual(3);
      if (terminal) expect(JSON.stringify(replayed)).toContain('terminal_exit');
      else expect(JSON.stringify(replayed)).toContain('```console\\nhello\\n```');
      await expect(
        ctx.request(acp.methods.agent.session.load, {
          sessionId: 'no-such-session',
          cwd: s.work,
          mcpServers: [],
        }),
      ).rejects.toThrow();
    });
    await closeAndWait(again);
  }, 60_000);
});

afterAll(() => {
  // Every message on the wire, both ways, validates against the SDK's published JSON Schema.
  expect(logs.flatMap((l) => [...l.sent, ...l.received]).length).toBeGreaterThan(50);
  expect(schemaFailures(logs)).toEqual([]);
  // The validator is not vacuous: an update of an unknown kind fails it.
  const bogus = {
    jsonrpc: '2.0',
    method: 'session/update',
    params: { sessionId: 's', update: { sessionUpdate: 'bogus' } },
  };
  expect(schemaFailures([{ sent: [], received: [bogus] }])).toHaveLength(1);
});
