import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  createClient,
  loadSession,
  type PendingStep,
  resumeTurnEvents,
  SESSION_FORMAT,
  SESSION_VERSION,
} from '@codeagent/agent-core';
import { installPermissionGate } from '@codeagent/permission-gate';
import { createBuiltinToolkit } from '@codeagent/tools';
import { simulateReadableStream, type UIMessage } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ALLOW_ALWAYS_REASON,
  type AgentUIChat,
  type AgentUIMessage,
  createAgentUIChat,
  type PendingApproval,
  readMessageMetadata,
} from '../src/index.ts';
import { answer, readBack, toolParts, userMessage } from './helpers.ts';

/** A V3 stream part of the scripted model (the spec's types are a dependency of `ai`, not of this package). */
type Part = { readonly type: string } & Record<string, unknown>;
const u = {
  inputTokens: { total: 5, noCache: 5, cacheRead: 0, cacheWrite: 0 },
  outputTokens: { total: 2, text: 2, reasoning: 0 },
};
const model = (steps: Part[][]) => {
  let i = 0;
  return new MockLanguageModelV3({
    doStream: async () => ({
      stream: simulateReadableStream({
        chunks: [{ type: 'stream-start', warnings: [] }, ...(steps[i++] ?? [])] as never[],
        chunkDelayInMs: null,
      }),
    }),
  });
};
const textPart = (t: string): Part[] => [
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: t },
  { type: 'text-end', id: 't' },
];
const stop = (unified: 'stop' | 'tool-calls'): Part => ({
  type: 'finish',
  finishReason: { unified, raw: unified },
  usage: u,
});

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

/** A first process: a turn that parks on a Write's approval; what a host stores of it. */
async function parkedTurn() {
  const cwd = await mkdtemp(join(tmpdir(), 'adapter-parked-'));
  const toolkit = createBuiltinToolkit({ cwd });
  const client = createClient({
    model: model([
      [
        ...textPart('Writing it.'),
        {
          type: 'tool-call',
          toolCallId: 'w1',
          toolName: 'Write',
          input: JSON.stringify({ file_path: 'out.txt', content: 'hi\n' }),
        },
        stop('tool-calls'),
      ],
    ]),
    cwd,
    tools: toolkit.tools,
  });
  const stored: AgentUIMessage[][] = [];
  const chat = createAgentUIChat({ client, onChange: (m) => stored.push([...m]), parkSettleMs: 20 });
  installPermissionGate(client, { cwd, ask: chat.ask });
  const { message } = await readBack(chat.respond(userMessage('write out.txt')));
  const step = client.pendingStep() as PendingStep;
  const approvals: PendingApproval[] = chat.pending.map((p) => ({ ...p }));
  const ui = structuredClone(stored.at(-1) as AgentUIMessage[]);
  // The process dies: nothing of it is used again.
  chat.abort();
  await chat.idle();
  await toolkit.dispose();
  cleanups.push(() => rm(cwd, { recursive: true, force: true }));
  return { cwd, step, approvals, ui, message };
}

/** A second process on what the first stored: a client with the history before the step and a restored chat. */
function restart(
  p: Awaited<ReturnType<typeof parkedTurn>>,
  next: Part[][] = [[...textPart('Done.'), stop('stop')]],
) {
  const toolkit = createBuiltinToolkit({ cwd: p.cwd });
  cleanups.push(() => toolkit.dispose());
  const session = {
    format: SESSION_FORMAT,
    version: SESSION_VERSION,
    savedAt: new Date().toISOString(),
    cwd: p.cwd,
    permissionMode: 'default',
    messages: [{ role: 'user', content: 'write out.txt' }],
    toolResults: [],
    compactions: [],
    compactionFailures: 0,
    lastReportedTokens: 0,
  };
  const client = loadSession(JSON.stringify(session), {
    model: model(next),
    cwd: p.cwd,
    tools: toolkit.tools,
  });
  const stored: AgentUIMessage[][] = [];
  const chat: AgentUIChat = createAgentUIChat({
    client,
    messages: p.ui,
    onChange: (m) => stored.push([...m]),
    parked: {
      approvals: p.approvals,
      resume: (answers, signal) => resumeTurnEvents(client, { step: p.step, answers }, { signal }),
    },
  });
  installPermissionGate(client, { cwd: p.cwd, ask: chat.ask });
  return { chat, client, stored };
}

describe('a parked turn restored from storage', () => {
  it('shows its approval waiting (not denied); answering continues the same turn into the same message', async () => {
    const p = await parkedTurn();
    expect(p.approvals).toHaveLength(1);
    const { chat, client } = restart(p);
    const shown = chat.messages.at(-1) as UIMessage;
    expect(toolParts(shown).map((x) => x.state)).toEqual(['approval-requested']);
    expect(readMessageMetadata(shown).awaitingApproval).toBe(true);
    expect(chat.pending).toEqual(p.approvals);
    expect(chat.busy).toBe(false);

    const answered = answer(shown, () => ({ approved: true }));
    const { message, chunks } = await readBack(chat.respond(answered), answered);
    expect(chunks[0]).toMatchObject({ type: 'start', messageId: shown.id });
    // The answered part is not announced again: it goes from approval-responded to its output.
    expect(chunks.filter((c) => c.type === 'tool-input-available')).toEqual([]);
    expect(toolParts(message)).toMatchObject([{ toolCallId: 'w1', state: 'output-available' }]);
    expect(message.parts.filter((x) => x.type === 'text').map((x) => (x as { text: string }).text)).toEqual([
      'Writing it.',
      'Done.',
    ]);
    expect(readMessageMetadata(message)).toMatchObject({ stopReason: 'completed', awaitingApproval: false });
    expect(await readFile(join(p.cwd, 'out.txt'), 'utf8')).toBe('hi\n');
    // The server's copy agrees, and the turn is over.
    expect(toolParts(chat.messages.at(-1) as UIMessage).map((x) => x.state)).toEqual(['output-available']);
    expect(chat.pending).toEqual([]);
    expect(client.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
  });

  it('a page reloaded while the resumed turn runs gets the whole message replayed: before the resume, then after', async () => {
    const p = await parkedTurn();
    const { chat } = restart(p);
    const shown = chat.messages.at(-1) as UIMessage;
    const answered = answer(shown, () => ({ approved: true }));
    const answering = readBack(chat.respond(answered), answered);
    const replay = chat.reconnect();
    expect(replay).not.toBeNull();
    const { message } = await readBack(replay as ReadableStream<unknown>);
    await answering;
    expect(message.id).toBe(shown.id);
    expect(message.parts.filter((x) => x.type === 'text').map((x) => (x as { text: string }).text)).toEqual([
      'Writing it.',
      'Done.',
    ]);
    expect(toolParts(message)).toMatchObject([{ toolCallId: 'w1', state: 'output-available' }]);
  });

  it('a denial, or an answer naming another approval id, runs nothing', async () => {
    for (const how of ['deny', 'wrong-id'] as const) {
      const p = await parkedTurn();
      const { chat } = restart(p);
      const shown = chat.messages.at(-1) as UIMessage;
      const answered = answer(shown, () => ({ approved: how !== 'deny' }));
      if (how === 'wrong-id')
        for (const part of toolParts(answered)) (part.approval as { id: string }).id = 'approval-forged';
      const { message } = await readBack(chat.respond(answered), answered);
      expect(
        toolParts(message).map((x) => x.state),
        how,
      ).toEqual(['output-denied']);
      await expect(readFile(join(p.cwd, 'out.txt'), 'utf8')).rejects.toThrow();
    }
  });

  it('"allow always" reaches the gate as a session grant', async () => {
    const p = await parkedTurn();
    const { chat, client } = restart(p);
    const shown = chat.messages.at(-1) as UIMessage;
    const answered = answer(shown, () => ({ approved: true, reason: ALLOW_ALWAYS_REASON }));
    await readBack(chat.respond(answered), answered);
    expect(
      client
        .getPermissionGate()
        ?.grants()
        .map((g) => g.tool),
    ).toEqual(['Write']);
  });

  it('a new message, or Stop, gives the parked turn up: its approval is denied', async () => {
    const p = await parkedTurn();
    const { chat } = restart(p, [[...textPart('Hello.'), stop('stop')]]);
    await readBack(chat.respond(userMessage('something else')));
    const history = chat.messages;
    expect(toolParts(history[1] as UIMessage).map((x) => x.state)).toEqual(['output-denied']);
    expect(readMessageMetadata(history[1]).awaitingApproval).toBe(false);
    const q = await parkedTurn();
    const stopped = restart(q);
    stopped.chat.abort();
    expect(toolParts(stopped.chat.messages.at(-1) as UIMessage).map((x) => x.state)).toEqual([
      'output-denied',
    ]);
    expect(stopped.chat.pending).toEqual([]);
  });

  it('approvals the stored message does not show waiting are dropped (and denied as stale)', async () => {
    const p = await parkedTurn();
    const { chat } = restart({
      ...p,
      approvals: [{ ...(p.approvals[0] as PendingApproval), approvalId: 'approval-other' }],
    });
    expect(chat.pending).toEqual([]);
    expect(toolParts(chat.messages.at(-1) as UIMessage).map((x) => x.state)).toEqual(['output-denied']);
  });
});
