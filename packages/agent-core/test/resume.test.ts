import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { installPermissionGate, type PermissionMode } from '@codeagent/permission-gate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AgentEvent,
  type CodeagentClient,
  createClient,
  defineTool,
  loadSession,
  type PendingStep,
  type ResumeAnswer,
  resumeTurn,
  resumeTurnEvents,
  SESSION_FORMAT,
  SESSION_VERSION,
  stream,
} from '../src/index.js';
import { call, collect, finish, recordingCallbacks, scriptedModel, type Scripted, text } from './helpers.js';

/** A write tool that records what it wrote (the side effect a resume must do exactly once) and a read tool. */
function tools(log: string[]) {
  return [
    defineTool({
      name: 'write_note',
      description: 'Write a note',
      inputSchema: z.object({ note: z.string() }),
      capability: 'write',
      execute: async ({ note }) => {
        log.push(note);
        return `wrote ${note}`;
      },
    }),
    defineTool({
      name: 'read_note',
      description: 'Read a note',
      inputSchema: z.object({ name: z.string() }),
      capability: 'read',
      execute: ({ name }) => `note ${name} says hi`,
    }),
  ];
}

/** A session file holding only the user's message (the history before the parked step). */
const before = JSON.stringify({
  format: SESSION_FORMAT,
  version: SESSION_VERSION,
  savedAt: '2026-01-01T00:00:00.000Z',
  cwd: process.cwd(),
  permissionMode: 'default',
  messages: [{ role: 'user', content: 'write a' }],
  toolResults: [],
  compactions: [],
  compactionFailures: 0,
  lastReportedTokens: 0,
});

/** Runs a turn on a first client until it parks on the write's approval; returns the step it parked in. */
async function park(): Promise<{ step: PendingStep; first: CodeagentClient; log: string[] }> {
  const log: string[] = [];
  const model = scriptedModel([
    [
      ...text(['I will write.']),
      call('c1', 'read_note', { name: 'x' }),
      call('c2', 'write_note', { note: 'a', _intent: 'save the note' }),
      finish('tool-calls'),
    ],
  ]);
  const first = createClient({ model, registerTools: false, tools: tools(log) });
  let asked: () => void = () => undefined;
  const askedOnce = new Promise<void>((resolve) => {
    asked = resolve;
  });
  const controller = new AbortController();
  installPermissionGate(first, {
    ask: () => {
      asked();
      // Never answered: the process "dies" with the turn parked here.
      return new Promise<boolean>(() => undefined);
    },
  });
  const done = stream(first, 'write a', {}, { signal: controller.signal });
  await askedOnce;
  let step = first.pendingStep();
  for (let i = 0; i < 50 && step?.results.length !== 1; i++) {
    await new Promise((r) => setTimeout(r, 5));
    step = first.pendingStep();
  }
  controller.abort();
  await done;
  expect(log).toEqual([]);
  return { step: step as PendingStep, first, log };
}

function restored(
  script: readonly Scripted[],
  log: string[],
  gate: { mode?: PermissionMode; deny?: string[] } = {},
) {
  const model = scriptedModel(script);
  const client = loadSession(before, { model, registerTools: false, tools: tools(log) });
  installPermissionGate(client, {
    ...(gate.mode ? { mode: gate.mode } : {}),
    rules: { deny: gate.deny ?? [] },
    // A resumed approval never asks again: the host's ask is not reached.
    ask: () => {
      throw new Error('asked again');
    },
  });
  return { client, model };
}

const approve = (input: unknown = { note: 'a' }, extra: Partial<ResumeAnswer> = {}): ResumeAnswer => ({
  id: 'c2',
  approved: true,
  input,
  ...extra,
});

const results = (events: AgentEvent[]) =>
  events
    .filter((e) => e.type === 'tool-result')
    .map((e) => ({ id: e.id, value: e.value, isError: e.isError }));

describe('pendingStep', () => {
  it('is the parked step: its text, every call with its arguments, the results that came, the requests made', async () => {
    const { step, first } = await park();
    expect(step).toEqual({
      text: 'I will write.',
      calls: [
        { id: 'c1', name: 'read_note', arguments: { name: 'x' } },
        { id: 'c2', name: 'write_note', arguments: { note: 'a', _intent: 'save the note' } },
      ],
      results: [{ id: 'c1', value: 'note x says hi', isError: false }],
      requests: 1,
    });
    // Plain JSON, and nothing once the turn is over.
    expect(JSON.parse(JSON.stringify(step))).toEqual(step);
    expect(first.pendingStep()).toBeNull();
  });
});

describe('resumeTurn', () => {
  it('runs the approved call with the stored input, appends every result, asks the model again and finishes', async () => {
    const { step } = await park();
    const log: string[] = [];
    const { client, model } = restored([[...text(['Done.']), finish('stop')]], log);
    const { callbacks, events } = recordingCallbacks();
    const result = await resumeTurn(client, { step, answers: [approve()] }, callbacks);
    expect(log).toEqual(['a']);
    expect(result).toMatchObject({ text: 'Done.', stopReason: 'completed' });
    // The waiting call's request comes again (with the same keys as a live one) before its result.
    expect(events.map((e) => e.type)).toEqual(['tool-request', 'tool-result', 'delta', 'usage']);
    const request = events[0] as Extract<AgentEvent, { type: 'tool-request' }>;
    expect(Object.keys(request)).toEqual(['type', 'id', 'name', 'arguments', 'intent', 'view']);
    expect(request).toMatchObject({
      id: 'c2',
      intent: 'save the note',
      arguments: { note: 'a', _intent: 'save the note' },
    });
    expect(Object.keys(events[1] as object)).toEqual([
      'type',
      'id',
      'name',
      'display',
      'value',
      'isError',
      'artifact',
      'view',
    ]);
    expect(results(events)).toEqual([{ id: 'c2', value: 'wrote a', isError: false }]);
    // The model saw the whole step: its text, both calls and both results, in call order.
    const prompt = model.calls[0]?.prompt as Array<{ role: string; content: unknown }>;
    const tool = prompt.find((m) => m.role === 'tool') as {
      content: Array<{ toolCallId: string; output: unknown }>;
    };
    expect(tool.content.map((p) => [p.toolCallId, p.output])).toEqual([
      ['c1', { type: 'text', value: 'note x says hi' }],
      ['c2', { type: 'text', value: 'wrote a' }],
    ]);
    expect(client.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant']);
    expect(client.toolRecords().map((r) => r.id)).toEqual(['c2']);
    // The session saves and loads again (the history is whole).
    expect(() => loadSession(client.save(), { model, registerTools: false, tools: tools([]) })).not.toThrow();
  });

  it('resumeTurnEvents yields the same events, ending with end', async () => {
    const { step } = await park();
    const log: string[] = [];
    const { client } = restored([[...text(['Done.']), finish('stop')]], log);
    const events = (await collect(resumeTurnEvents(client, { step, answers: [approve()] }))).filter(
      (e) => e.type !== 'tick',
    );
    expect(events.map((e) => e.type)).toEqual(['tool-request', 'tool-result', 'delta', 'usage', 'end']);
    expect(log).toEqual(['a']);
  });

  it('a declined answer, a missing one, or one for an unknown id denies; the model is told and the turn goes on', async () => {
    const { step } = await park();
    for (const answers of [
      [approve({ note: 'a' }, { approved: false })],
      [],
      [{ ...approve(), id: 'c9' }],
      [{ ...approve(), id: 'c1' }],
      [{ ...approve(), approved: 'true' as unknown as boolean }],
    ]) {
      const log: string[] = [];
      const { client, model } = restored([[...text(['ok']), finish('stop')]], log);
      const { callbacks, events } = recordingCallbacks();
      const result = await resumeTurn(client, { step, answers }, callbacks);
      expect(log, JSON.stringify(answers)).toEqual([]);
      expect(result.stopReason).toBe('completed');
      const [r] = results(events);
      expect(r?.isError).toBe(true);
      expect(r?.value).toMatch(/^Permission denied for write_note \(/);
      expect(model.calls).toHaveLength(1);
    }
  });

  it('a tampered stored input (not what the user approved) is denied and never runs', async () => {
    const { step } = await park();
    const tampered: PendingStep = {
      ...step,
      calls: step.calls.map((c) =>
        c.id === 'c2' ? { ...c, arguments: { note: 'rm -rf', _intent: 'save the note' } } : c,
      ),
    };
    const log: string[] = [];
    const { client } = restored([[...text(['ok']), finish('stop')]], log);
    const { callbacks, events } = recordingCallbacks();
    await resumeTurn(client, { step: tampered, answers: [approve({ note: 'a' })] }, callbacks);
    expect(log).toEqual([]);
    expect(results(events)[0]?.value).toBe(
      'Permission denied for write_note (the approved input is not the stored call)',
    );
    // Key order and `_intent` do not matter; the values do.
    const log2: string[] = [];
    const again = restored([[...text(['ok']), finish('stop')]], log2);
    await resumeTurn(again.client, { step, answers: [approve({ note: 'a' })] });
    expect(log2).toEqual(['a']);
  });

  it('duplicate answers: the same answer twice counts once; two different answers deny', async () => {
    const { step } = await park();
    const log: string[] = [];
    const { client } = restored([[...text(['ok']), finish('stop')]], log);
    await resumeTurn(client, { step, answers: [approve(), approve()] });
    expect(log).toEqual(['a']);
    const log2: string[] = [];
    const other = restored([[...text(['ok']), finish('stop')]], log2);
    const { callbacks, events } = recordingCallbacks();
    await resumeTurn(other.client, { step, answers: [approve(), approve({ note: 'b' })] }, callbacks);
    expect(log2).toEqual([]);
    expect(results(events)[0]?.value).toMatch(/two different answers/);
  });

  it('the gate is checked again: a deny rule or a mode switched since the ask wins over the approval', async () => {
    const { step } = await park();
    for (const gate of [{ deny: ['write_note'] }, { mode: 'plan' as const }, { mode: 'dont_ask' as const }]) {
      const log: string[] = [];
      const { client } = restored([[...text(['ok']), finish('stop')]], log, gate);
      const { callbacks, events } = recordingCallbacks();
      await resumeTurn(client, { step, answers: [approve(undefined, { scope: 'session' })] }, callbacks);
      expect(log, JSON.stringify(gate)).toEqual([]);
      expect(results(events)[0]?.value).toMatch(/^Permission denied for write_note/);
      expect(client.getPermissionGate()?.grants()).toEqual([]);
    }
  });

  it('"allow always" grants what a live answer would; "once" grants nothing', async () => {
    const { step } = await park();
    const once = restored([[...text(['ok']), finish('stop')]], []);
    await resumeTurn(once.client, { step, answers: [approve()] });
    expect(once.client.getPermissionGate()?.grants()).toEqual([]);
    const always = restored([[...text(['ok']), finish('stop')]], []);
    await resumeTurn(always.client, { step, answers: [approve(undefined, { scope: 'session' })] });
    expect(
      always.client
        .getPermissionGate()
        ?.grants()
        .map((g) => g.tool),
    ).toEqual(['write_note']);
  });

  it('answers racing two instances: the claim lets exactly one run the tool; the other runs nothing', async () => {
    const { step } = await park();
    const log: string[] = [];
    let taken = false;
    // One checked write in a shared store, as a host would do it: the first claim wins.
    const claim = async () => {
      await new Promise((r) => setTimeout(r, 1));
      if (taken) return false;
      taken = true;
      return true;
    };
    const a = restored([[...text(['A']), finish('stop')]], log);
    const b = restored([[...text(['B']), finish('stop')]], log);
    const ra = recordingCallbacks();
    const rb = recordingCallbacks();
    const [resultA, resultB] = await Promise.all([
      resumeTurn(a.client, { step, answers: [approve()] }, ra.callbacks, { claim }),
      resumeTurn(b.client, { step, answers: [approve()] }, rb.callbacks, { claim }),
    ]);
    expect(log).toEqual(['a']);
    const outcomes = [resultA.stopReason, resultB.stopReason].sort();
    expect(outcomes).toEqual(['completed', 'error']);
    const loser = resultA.stopReason === 'error' ? ra.events : rb.events;
    expect(loser.map((e) => e.type)).toEqual(['error']);
    expect(loser[0]).toMatchObject({
      message: expect.stringMatching(/another instance continues this turn/),
    });
    // The loser's history is as it was.
    const lost = resultA.stopReason === 'error' ? a.client : b.client;
    expect(lost.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('a claim that throws counts as lost', async () => {
    const { step } = await park();
    const log: string[] = [];
    const { client, model } = restored([], log);
    const result = await resumeTurn(
      client,
      { step, answers: [approve()] },
      {},
      {
        claim: () => Promise.reject(new Error('database down')),
      },
    );
    expect(result.stopReason).toBe('error');
    expect(log).toEqual([]);
    expect(model.calls).toHaveLength(0);
  });

  it('the same client resumes one turn at a time', async () => {
    const { step } = await park();
    const log: string[] = [];
    const { client } = restored([[...text(['ok']), finish('stop')]], log);
    const second = recordingCallbacks();
    const [first, other] = await Promise.all([
      resumeTurn(client, { step, answers: [approve()] }),
      resumeTurn(client, { step, answers: [approve()] }, second.callbacks),
    ]);
    expect(first.stopReason).toBe('completed');
    expect(other.stopReason).toBe('error');
    expect(log).toEqual(['a']);
  });

  it('arguments that fail the tool schema are an error result, never run', async () => {
    const { step } = await park();
    const bad: PendingStep = {
      ...step,
      calls: step.calls.map((c) => (c.id === 'c2' ? { ...c, arguments: { note: 42 } } : c)),
    };
    const log: string[] = [];
    const { client } = restored([[...text(['ok']), finish('stop')]], log);
    const { callbacks, events } = recordingCallbacks();
    await resumeTurn(client, { step: bad, answers: [approve({ note: 42 })] }, callbacks);
    expect(log).toEqual([]);
    expect(results(events)[0]).toMatchObject({
      isError: true,
      value: expect.stringMatching(/^Invalid input for tool write_note/),
    });
  });

  it('a step that used up the model requests keeps its results and ends at max_turns without a request', async () => {
    const { step } = await park();
    const log: string[] = [];
    const model = scriptedModel([]);
    const client = loadSession(before, { model, registerTools: false, tools: tools(log), maxTurns: 3 });
    installPermissionGate(client, { ask: () => false });
    const result = await resumeTurn(client, { step: { ...step, requests: 3 }, answers: [approve()] });
    expect(result.stopReason).toBe('max_turns');
    expect(log).toEqual(['a']);
    expect(model.calls).toHaveLength(0);
    expect(client.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool']);
  });

  it('an abort while the resumed tool runs interrupts the turn and leaves the history as it was', async () => {
    const { step } = await park();
    const model = scriptedModel([]);
    const slow = defineTool({
      name: 'write_note',
      description: 'slow',
      inputSchema: z.object({ note: z.string() }),
      capability: 'write',
      execute: () => new Promise(() => undefined),
    });
    const client = loadSession(before, { model, registerTools: false, tools: [slow] });
    installPermissionGate(client, { ask: () => false });
    const controller = new AbortController();
    const { callbacks, events } = recordingCallbacks();
    const done = resumeTurn(client, { step, answers: [approve()] }, callbacks, { signal: controller.signal });
    await new Promise((r) => setTimeout(r, 20));
    controller.abort();
    const result = await done;
    expect(result.stopReason).toBe('interrupted');
    expect(events.filter((e) => e.type === 'tool-result')).toEqual([]);
    expect(client.messages.map((m) => m.role)).toEqual(['user']);
  });

  it('a stored step that does not fit the history (an id already used, results of unknown calls) is refused', async () => {
    const { step } = await park();
    const log: string[] = [];
    const { client } = restored([[...text(['ok']), finish('stop')]], log);
    await resumeTurn(client, { step, answers: [approve()] });
    expect(log).toEqual(['a']);
    // Resuming the same step again on that client: its ids are in the history now.
    const { callbacks, events } = recordingCallbacks();
    const again = await resumeTurn(client, { step, answers: [approve()] }, callbacks);
    expect(again.stopReason).toBe('error');
    expect(events).toEqual([
      { type: 'error', message: expect.stringMatching(/used twice/), recovered: false },
    ]);
    expect(log).toEqual(['a']);
  });

  it('garbage steps and answers end with an error, run nothing and never throw (property)', async () => {
    const { step } = await park();
    const json = fc.jsonValue({ maxDepth: 3 });
    const callArb = fc.record({
      id: fc.oneof(fc.string(), json),
      name: fc.oneof(fc.constant('write_note'), fc.string()),
      arguments: json,
    });
    const stepArb = fc.oneof(
      json,
      fc.record({
        text: fc.oneof(fc.string(), json),
        calls: fc.oneof(fc.array(callArb, { maxLength: 3 }), json),
        results: fc.oneof(
          fc.array(fc.record({ id: fc.string(), value: fc.string(), isError: fc.boolean() }), {
            maxLength: 3,
          }),
          json,
        ),
        requests: fc.oneof(fc.integer({ min: -2, max: 5 }), json),
      }),
      // The real step with every call answered by a result: nothing waits, nothing may run.
      fc.constant({ ...step, results: step.calls.map((c) => ({ id: c.id, value: 'x', isError: false })) }),
    );
    await fc.assert(
      fc.asyncProperty(
        stepArb,
        fc.oneof(json, fc.array(fc.record({ id: fc.string(), approved: fc.boolean(), input: json }))),
        async (s, answers) => {
          const log: string[] = [];
          const { client } = restored([[...text(['ok']), finish('stop')]], log);
          const result = await resumeTurn(client, {
            step: s as PendingStep,
            answers: answers as ResumeAnswer[],
          });
          expect(log).toEqual([]);
          if (result.stopReason !== 'error') {
            // Only a well-formed step with a waiting call gets this far: its write call was denied, not run.
            expect(client.toolRecords().every((r) => r.isError)).toBe(true);
          }
        },
      ),
      { numRuns: 60 },
    );
  });

  it('the continued request carries the system prompt with the skills hint, as a live turn does', async () => {
    const { step } = await park();
    const cwd = mkdtempSync(join(tmpdir(), 'agent-core-resume-skills-'));
    const home = mkdtempSync(join(tmpdir(), 'agent-core-resume-home-'));
    mkdirSync(join(cwd, '.codeagent/skills/greet'), { recursive: true });
    writeFileSync(
      join(cwd, '.codeagent/skills/greet/SKILL.md'),
      '---\nname: greet\ndescription: Greets people warmly.\n---\nSay hello.\n',
    );
    const model = scriptedModel([[...text(['ok']), finish('stop')]]);
    const client = loadSession(before, {
      model,
      cwd,
      system: 'You are careful.',
      tools: tools([]),
      skills: { homeDir: home },
    });
    installPermissionGate(client, { ask: () => false });
    await resumeTurn(client, { step, answers: [approve()] });
    const system = JSON.stringify(model.calls[0]?.prompt[0]);
    expect(system).toContain('You are careful.');
    expect(system).toContain('greet');
  });

  it('throws for a client that createClient did not make', () => {
    expect(() => resumeTurn({} as CodeagentClient, { step: {} as PendingStep, answers: [] })).toThrow(
      /expected a client made by createClient/,
    );
  });
});
