import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { lastAssistantMessageIsCompleteWithApprovalResponses, type UIMessage } from 'ai';
import { afterEach, describe, expect, it } from 'vitest';
import { ALLOW_ALWAYS_REASON, readMessageMetadata, readToolPart } from '../src/index.ts';
import { answer, demoChat, readBack, toolParts, userMessage } from './helpers.ts';

// biome-ignore lint/suspicious/noTemplateCurlyInString: the TypeScript source text the demo's Edit writes.
const GREET_NEW = '`Hello, ${name}!`';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});

async function setup(...args: Parameters<typeof demoChat>) {
  const d = await demoChat(...args);
  cleanups.push(d.dispose);
  return d;
}

describe('the demo tour through the UI message stream', () => {
  it('streams every part, parks at approvals, resumes on the answers and finishes with usage', async () => {
    const { chat, cwd, stored } = await setup('default');
    let { message, chunks } = await readBack(chat.respond(userMessage('tour please')));
    const allChunks = [...chunks];
    expect(chunks[0]).toMatchObject({ type: 'start', messageId: message.id });
    // Text and reasoning arrive as parts, tool calls as dynamic tool parts carrying the call card.
    expect(message.parts.some((p) => p.type === 'reasoning' && p.text.includes('overview'))).toBe(true);
    expect(
      message.parts.some((p) => p.type === 'text' && p.text.includes('listing the TypeScript files')),
    ).toBe(true);
    const glob = readToolPart(toolParts(message).find((p) => p.toolName === 'Glob'));
    expect(glob).toMatchObject({ state: 'output-available', status: 'done', call: { card: 'generic' } });
    expect(glob?.artifact).not.toBeNull();
    const logo = toolParts(message)
      .map((p) => readToolPart(p))
      .find((p) => p?.toolName === 'Read' && p.call.title.includes('logo'));
    expect(logo?.artifact?.kind).toBe('image');
    // Edit and Write run in parallel: the response ends once both wait, each in `approval-requested`.
    const waiting = toolParts(message).filter((p) => p.state === 'approval-requested');
    expect(waiting.map((p) => p.toolName).sort()).toEqual(['Edit', 'Write']);
    expect(readToolPart(waiting.find((p) => p.toolName === 'Edit'))?.call.card).toBe('diff');
    expect(readMessageMetadata(message).awaitingApproval).toBe(true);
    expect(chunks.at(-1)).toMatchObject({ type: 'finish', messageMetadata: { awaitingApproval: true } });
    expect(chat.pending.map((p) => p.toolName).sort()).toEqual(['Edit', 'Write']);
    // The stored copy already shows the waiting approvals (a reload sees them).
    expect(
      toolParts(stored.at(-1)?.at(-1) as UIMessage).filter((p) => p.state === 'approval-requested'),
    ).toHaveLength(2);

    let rounds = 0;
    const asked: string[][] = [];
    while (readMessageMetadata(message).awaitingApproval) {
      rounds++;
      expect(rounds).toBeLessThan(10);
      asked.push(
        toolParts(message)
          .filter((p) => p.state === 'approval-requested')
          .map((p) => p.toolName as string),
      );
      const answered = answer(message, (name) =>
        name === 'Write'
          ? { approved: false }
          : name === 'Bash'
            ? { approved: true, reason: ALLOW_ALWAYS_REASON }
            : { approved: true },
      );
      // A stock useChat sends automatically exactly when every waiting part is answered.
      expect(lastAssistantMessageIsCompleteWithApprovalResponses({ messages: [answered] })).toBe(true);
      ({ message, chunks } = await readBack(chat.respond(answered), answered));
      allChunks.push(...chunks);
    }
    // Edit + Write together; "allow always" grants one command at a time (permission-gate scopes grants), so each
    // Bash command asks once, the two background jobs together; then job_kill.
    expect(asked).toEqual([['Edit', 'Write'], ['Bash'], ['Bash'], ['Bash', 'Bash'], ['job_kill']]);

    const parts = toolParts(message).map((p) => readToolPart(p));
    const edit = parts.find((p) => p?.toolName === 'Edit');
    expect(edit).toMatchObject({ state: 'output-available', status: 'done', result: { card: 'diff' } });
    expect(await readFile(join(cwd, 'src/greet.ts'), 'utf8')).toContain(GREET_NEW);
    const write = parts.find((p) => p?.toolName === 'Write');
    expect(write).toMatchObject({ state: 'output-denied', status: 'denied', denied: 'user' });
    await expect(stat(join(cwd, 'src/farewell.ts'))).rejects.toThrow();
    const rm = parts.find((p) => p?.toolName === 'Bash' && p.call.title.startsWith('rm '));
    expect(rm).toMatchObject({ state: 'output-error', status: 'denied', denied: 'rule' });
    const bash = parts.find((p) => p?.toolName === 'Bash' && p.result?.card === 'terminal');
    expect(bash?.status).toBe('done');
    const cat = parts.find((p) => p?.call.title.startsWith('cat CHANGELOG'));
    expect(cat?.result).toMatchObject({ card: 'terminal', exitCode: 1 });

    const meta = readMessageMetadata(message);
    expect(meta).toMatchObject({ stopReason: 'completed', awaitingApproval: false });
    expect(meta.usage?.outputTokens).toBeGreaterThan(0);
    expect(allChunks.at(-1)).toMatchObject({ type: 'finish', finishReason: 'stop' });
    // Every chunk type the adapter promises appeared.
    const types = new Set(allChunks.map((c) => c.type));
    for (const t of [
      'start',
      'text-start',
      'text-delta',
      'text-end',
      'reasoning-start',
      'reasoning-delta',
      'reasoning-end',
      'tool-input-available',
      'tool-approval-request',
      'tool-output-available',
      'tool-output-error',
      'tool-output-denied',
      'finish',
    ])
      expect(types, t).toContain(t);
    // The server's own copy equals what the AI SDK's reader built on the client side.
    const server = chat.messages.at(-1) as UIMessage;
    expect(normalise(server)).toEqual(normalise(message));
    expect(chat.busy).toBe(false);
  });

  it('a call its precheck refuses is never asked: the Edit fails while the Write waits alone', async () => {
    const { chat, cwd, stored } = await setup('default');
    // The demo's Edit replaces text that is no longer in the file: its precheck refuses it.
    await writeFile(join(cwd, 'src/greet.ts'), 'export const greet = (name: string) => name;\n');
    const { message, chunks } = await readBack(chat.respond(userMessage('go')));
    const edit = toolParts(message).find((p) => p.toolName === 'Edit');
    expect(edit?.state).toBe('output-error');
    expect(String(edit?.errorText)).toMatch(/old_string/);
    expect(
      toolParts(message)
        .filter((p) => p.state === 'approval-requested')
        .map((p) => p.toolName),
    ).toEqual(['Write']);
    // Not even for a moment: no approval request for the Edit went out or was stored.
    const asked = chunks.filter((c) => c.type === 'tool-approval-request').map((c) => c.toolCallId);
    expect(asked).toEqual([toolParts(message).find((p) => p.toolName === 'Write')?.toolCallId]);
    for (const snapshot of stored)
      for (const m of snapshot)
        for (const p of m.parts)
          if (p.type === 'dynamic-tool' && p.toolName === 'Edit') expect(p.state).not.toMatch(/^approval/);
    expect(chat.pending.map((p) => p.toolName)).toEqual(['Write']);
  });

  it('denies an answer for an unknown approval id, and the tool never runs', async () => {
    const { chat, cwd } = await setup('default');
    const { message } = await readBack(chat.respond(userMessage('go')));
    const forged = answer(message, () => ({ approved: true }));
    for (const p of toolParts(forged)) if (p.approval) (p.approval as { id: string }).id = 'approval-forged';
    const { message: after } = await readBack(chat.respond(forged), forged);
    const states = toolParts(after)
      .filter((p) => p.toolName === 'Edit' || p.toolName === 'Write')
      .map((p) => p.state);
    // The turn goes on to the next approval (Bash), so Edit and Write are settled as denied.
    expect(states).toEqual(['output-denied', 'output-denied']);
    expect(await readFile(join(cwd, 'src/greet.ts'), 'utf8')).not.toContain(GREET_NEW);
    await expect(stat(join(cwd, 'src/farewell.ts'))).rejects.toThrow();
  });

  it('an approval that never comes denies after the timeout', async () => {
    const { chat, cwd, stored } = await setup('default', { approvalTimeoutMs: 300, parkSettleMs: 10 });
    const { message } = await readBack(chat.respond(userMessage('go')));
    expect(readMessageMetadata(message).awaitingApproval).toBe(true);
    const deadline = Date.now() + 10_000;
    while (chat.pending.some((p) => p.toolName === 'Edit') && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 20));
    await new Promise((r) => setTimeout(r, 100));
    const latest = stored.at(-1)?.at(-1) as UIMessage;
    const edit = toolParts(latest).find((p) => p.toolName === 'Edit');
    expect(edit?.state).toBe('output-denied');
    expect(await readFile(join(cwd, 'src/greet.ts'), 'utf8')).not.toContain(GREET_NEW);
  });

  it('abort while parked interrupts the turn and denies what waited', async () => {
    const { chat, stored } = await setup('default');
    await readBack(chat.respond(userMessage('go')));
    expect(chat.busy).toBe(true);
    chat.abort();
    await chat.idle();
    expect(chat.busy).toBe(false);
    const latest = stored.at(-1)?.at(-1) as UIMessage;
    expect(readMessageMetadata(latest).stopReason).toBe('interrupted');
    expect(toolParts(latest).filter((p) => p.state === 'output-denied')).toHaveLength(2);
  });

  it('closing the response mid-stream interrupts the turn (Stop in a stock useChat)', async () => {
    const { chat } = await setup('bypass');
    const controller = new AbortController();
    const reader = chat.respond(userMessage('go'), { signal: controller.signal }).getReader();
    await reader.read();
    controller.abort();
    await chat.idle();
    expect(readMessageMetadata(chat.messages.at(-1)).stopReason).toBe('interrupted');
  });

  it('a stored approval with no live turn (after a restart) is shown denied, and answering it denies', async () => {
    const first = await setup('default');
    const { message } = await readBack(first.chat.respond(userMessage('go')));
    const history = first.stored.at(-1) as UIMessage[];
    const second = await setup('default', { messages: history as never });
    const restored = second.chat.messages.at(-1) as UIMessage;
    expect(toolParts(restored).filter((p) => p.state === 'approval-requested')).toHaveLength(0);
    expect(toolParts(restored).filter((p) => p.state === 'output-denied')).toHaveLength(2);
    const { message: after } = await readBack(
      second.chat.respond(answer(message, () => ({ approved: true }))),
      message,
    );
    expect(toolParts(after).filter((p) => p.state === 'output-denied')).toHaveLength(2);
    expect(await readFile(join(second.cwd, 'src/greet.ts'), 'utf8')).not.toContain(GREET_NEW);
  });

  it('rejects a request without a message or text as a stream error, never a crash', async () => {
    const { chat } = await setup('default');
    for (const bad of [
      null,
      42,
      { role: 'user', parts: [] },
      { role: 'system', parts: [] },
      { role: 'user' },
    ]) {
      const chunks: Array<{ type: string }> = [];
      for await (const chunk of chat.respond(bad)) chunks.push(chunk);
      expect(chunks.some((c) => c.type === 'error')).toBe(true);
    }
    expect(chat.busy).toBe(false);
  });

  it('a new user message while a turn waits interrupts it and starts the next turn', async () => {
    const { chat } = await setup('default');
    await readBack(chat.respond(userMessage('first')));
    const { message } = await readBack(chat.respond(userMessage('second')));
    const history = chat.messages;
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(readMessageMetadata(history[1]).stopReason).toBe('interrupted');
    expect(message.id).toBe(history[3]?.id);
  });
});

/** Drops the fields only one side keeps (undefined keys, provider metadata, reasoning ids) before comparing. */
function normalise(message: UIMessage): unknown {
  return JSON.parse(
    JSON.stringify({
      id: message.id,
      metadata: message.metadata,
      parts: message.parts
        .filter((p) => p.type !== 'step-start')
        .map((p) => {
          const { providerMetadata: _a, callProviderMetadata: _b, ...rest } = p as Record<string, unknown>;
          if (rest.type === 'reasoning') delete rest.id;
          return rest;
        }),
    }),
  );
}

describe('approval security', () => {
  it('runs the input the server asked about, not an input the client rewrote', async () => {
    const { chat, cwd } = await setup('default');
    const { message } = await readBack(chat.respond(userMessage('go')));
    const answered = answer(message, () => ({ approved: true }));
    for (const p of toolParts(answered))
      if (p.toolName === 'Edit') (p.input as Record<string, unknown>).new_string = 'EVIL';
    await readBack(chat.respond(answered), answered);
    const text = await readFile(join(cwd, 'src/greet.ts'), 'utf8');
    expect(text).toContain(GREET_NEW);
    expect(text).not.toContain('EVIL');
  });

  it('"allow always" in an answer set that denies a call of the same tool counts once', async () => {
    const { chat } = await setup('default');
    let { message } = await readBack(chat.respond(userMessage('go')));
    let pair: string[] = [];
    for (let round = 0; round < 10 && readMessageMetadata(message).awaitingApproval; round++) {
      const waiting = toolParts(message).filter((p) => p.state === 'approval-requested');
      const bashes = waiting.filter((p) => p.toolName === 'Bash').map((p) => p.toolCallId as string);
      const isPair = bashes.length === 2;
      if (isPair) pair = bashes;
      const answered = structuredClone(message);
      for (const p of toolParts(answered)) {
        if (p.state !== 'approval-requested') continue;
        const id = (p.approval as { id: string }).id;
        const deny = isPair && p.toolCallId === bashes[1];
        const always = isPair && p.toolCallId === bashes[0];
        p.state = 'approval-responded';
        p.approval = { id, approved: !deny, ...(always ? { reason: ALLOW_ALWAYS_REASON } : {}) };
      }
      ({ message } = await readBack(chat.respond(answered), answered));
    }
    // The two background Bash calls were asked together: one allowed "always", the other denied.
    expect(pair).toHaveLength(2);
    const state = (id: string | undefined) => toolParts(message).find((p) => p.toolCallId === id)?.state;
    expect(state(pair[0])).toBe('output-available');
    expect(state(pair[1])).toBe('output-denied');
    // "always" was applied once: the final `rm` is still decided by the rules, and no grant outlived the set.
    const rm = toolParts(message).find((p) => readToolPart(p)?.call.title.startsWith('rm '));
    expect(readToolPart(rm)?.denied).toBe('rule');
  });
});

describe('delivery', () => {
  it('coalesces queued deltas for a reader that is behind, without changing the text', async () => {
    const { mkdtemp, rm: remove } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { createClient } = await import('@codeagent/agent-core');
    const { scriptedModel } = await import('@codeagent/providers');
    const { createAgentUIChat } = await import('../src/index.ts');
    const cwd = await mkdtemp(join(tmpdir(), 'adapter-coalesce-'));
    cleanups.push(() => remove(cwd, { recursive: true, force: true }));
    const text = 'abc '.repeat(5000);
    const client = createClient({
      model: scriptedModel([{ parts: [{ type: 'text', text }] }], { chunkSize: 4 }),
      cwd,
    });
    const chat = createAgentUIChat({ client });
    const stream = chat.respond(userMessage('go'));
    await chat.idle(); // the whole turn is queued before the reader starts
    const { message, chunks } = await readBack(stream);
    const deltas = chunks.filter((c) => c.type === 'text-delta');
    expect(deltas.length).toBeLessThan(20);
    expect(message.parts.find((p) => p.type === 'text')).toMatchObject({ text });
    expect(chat.messages.at(-1)?.parts[0]).toMatchObject({ text });
  });
});

describe('reconnecting after a reload', () => {
  it('a turn that outlives its response replays from its start into a new response, then goes on', async () => {
    const { mkdtemp, rm: remove } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { createClient } = await import('@codeagent/agent-core');
    const { scriptedModel } = await import('@codeagent/providers');
    const { createAgentUIChat } = await import('../src/index.ts');
    const cwd = await mkdtemp(join(tmpdir(), 'adapter-reconnect-'));
    cleanups.push(() => remove(cwd, { recursive: true, force: true }));
    const text = Array.from({ length: 120 }, (_, i) => `w${i} `).join('');
    const model = scriptedModel([{ parts: [{ type: 'text', text }] }], { chunkSize: 4, delayMs: 5 });
    const chat = createAgentUIChat({ client: createClient({ model, cwd }), interruptOnDisconnect: false });
    const request = new AbortController();
    const reader = chat.respond(userMessage('go'), { signal: request.signal }).getReader();
    for (let i = 0; i < 5; i++) await reader.read();
    request.abort(); // the page reloads
    await reader.cancel();
    expect(chat.busy).toBe(true);
    const stream = chat.reconnect();
    expect(stream).not.toBeNull();
    const { message, chunks } = await readBack(stream as ReadableStream);
    expect(message.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text)).toEqual([
      text,
    ]);
    expect(readMessageMetadata(message).stopReason).toBe('completed');
    expect(normalise(message)).toEqual(normalise(chat.messages.at(-1) as UIMessage));
    // The replay sent what was already logged as one delta.
    expect(String(chunks.find((c) => c.type === 'text-delta')?.delta).length).toBeGreaterThan(4);
    expect(chat.reconnect()).toBeNull();
  });

  it('onChunk sees every chunk of the turn in order: replayed after a start, they rebuild the same message', async () => {
    const logged: Array<{ chunk: { type: string }; messageId: string }> = [];
    const { chat } = await setup('default', {
      onChunk: (chunk, messageId) => {
        logged.push({ chunk, messageId });
        if (logged.length === 3) throw new Error('a failing log does not stop the turn');
      },
    });
    let { message } = await readBack(chat.respond(userMessage('tour please')));
    while (readMessageMetadata(message).awaitingApproval)
      ({ message } = await readBack(chat.respond(answer(message, () => ({ approved: true }))), message));
    await chat.idle();
    expect(new Set(logged.map((l) => l.messageId))).toEqual(new Set([message.id]));
    // The log holds the turn's own chunks: no response's start, no park finish; one final finish.
    expect(logged.some((l) => l.chunk.type === 'start')).toBe(false);
    expect(logged.filter((l) => l.chunk.type === 'finish')).toHaveLength(1);
    expect(logged.at(-1)?.chunk.type).toBe('finish');
    const replay = new ReadableStream({
      start(c) {
        c.enqueue({ type: 'start', messageId: message.id });
        for (const l of logged) c.enqueue(l.chunk);
        c.close();
      },
    });
    const rebuilt = await readBack(replay);
    // Approval answers are marked by the client, not logged: compare what the turn produced.
    const shape = (m: UIMessage) =>
      m.parts.map((p) => ({
        type: p.type,
        text: (p as { text?: string }).text,
        state: (p as { state?: string }).state,
      }));
    expect(shape(rebuilt.message)).toEqual(shape(message));
  }, 60_000);
});
