import { isPlainObject } from '@codeagent/artifact-schema/internal';
import { type AskResult, permissionDeniedMessage } from '@codeagent/permission-gate';
import type { AssistantModelMessage, ModelMessage, ToolModelMessage } from 'ai';
import { type ClientRooms, type CodeagentClient, roomsOf } from './client.js';
import { validateToolPairs } from './compaction.js';
import { AgentCoreError } from './errors.js';
import { type AgentEvent, dispatchToCallbacks, type StreamCallbacks, type StreamResult } from './events.js';
import type { PendingCall, PendingStep, ResumeAnswer, ResumeInput, ResumeOptions } from './resume-types.js';
import { eventIterable } from './stream.js';
import { abortError } from './retry.js';
import { splitIntent } from './tool.js';
import { ToolOutcome } from './tool-runner.js';
import type { Turn } from './turn.js';

/*
 * Continuing a turn from stored state (ADR 0210): a step whose tool calls waited for approvals when the process
 * that ran it stopped. The stored step is untrusted; the answers decide only calls the gate still asks about.
 */

const MAX_CALLS = 1000;
const MAX_ID = 1000;
const MAX_TEXT = 10 * 1024 * 1024;

function invalid(message: string): AgentCoreError {
  return new AgentCoreError('invalid-resume', `cannot resume the turn: ${message}`);
}

function rooms(client: CodeagentClient, fn: string): ClientRooms {
  const r = roomsOf(client);
  if (!r) throw new AgentCoreError('invalid-options', `${fn}: expected a client made by createClient`);
  return r;
}

const isId = (x: unknown): x is string => typeof x === 'string' && x !== '' && x.length <= MAX_ID;

/** The ids of every tool call in a history. */
function historyCallIds(messages: readonly ModelMessage[]): Set<string> {
  const ids = new Set<string>();
  for (const m of messages) {
    if (m.role !== 'assistant' || typeof m.content === 'string') continue;
    for (const part of m.content) if (part.type === 'tool-call') ids.add(part.toolCallId);
  }
  return ids;
}

/** Validates an untrusted stored step against the client's history; throws `invalid-resume`. */
function checkStep(step: unknown, history: readonly ModelMessage[]): PendingStep {
  if (!isPlainObject(step)) throw invalid('the step must be an object');
  const { text, calls, results, requests } = step as Record<string, unknown>;
  if (typeof text !== 'string' || text.length > MAX_TEXT) throw invalid('step.text must be a string');
  if (!Array.isArray(calls) || calls.length === 0 || calls.length > MAX_CALLS)
    throw invalid(`step.calls must list 1 to ${MAX_CALLS} calls`);
  if (!Array.isArray(results) || results.length > calls.length)
    throw invalid('step.results must be a list no longer than step.calls');
  if (typeof requests !== 'number' || !Number.isSafeInteger(requests) || requests < 1)
    throw invalid('step.requests must be a positive integer');
  const used = historyCallIds(history);
  const ids = new Set<string>();
  const checkedCalls: PendingCall[] = calls.map((c: unknown, i) => {
    if (!isPlainObject(c)) throw invalid(`step.calls.${i} must be an object`);
    const { id, name } = c as Record<string, unknown>;
    if (!isId(id) || !isId(name)) throw invalid(`step.calls.${i} needs a tool call id and a tool name`);
    if (ids.has(id) || used.has(id))
      throw invalid(`step.calls.${i}: tool call id ${JSON.stringify(id)} is used twice`);
    ids.add(id);
    return { id, name, arguments: (c as Record<string, unknown>).arguments ?? null };
  });
  const done = new Set<string>();
  const checkedResults = results.map((r: unknown, i) => {
    if (!isPlainObject(r)) throw invalid(`step.results.${i} must be an object`);
    const { id, value, isError } = r as Record<string, unknown>;
    if (!isId(id) || !ids.has(id)) throw invalid(`step.results.${i} answers no call of the step`);
    if (done.has(id)) throw invalid(`step.results.${i}: call ${JSON.stringify(id)} has two results`);
    if (typeof value !== 'string' || typeof isError !== 'boolean')
      throw invalid(`step.results.${i} needs a string value and a boolean isError`);
    done.add(id);
    return { id, value, isError };
  });
  if (done.size === ids.size) throw invalid('no call of the step waits for a result');
  return { text, calls: checkedCalls, results: checkedResults, requests };
}

/** A canonical JSON text (keys sorted) for comparing inputs; `null` for what JSON cannot hold or nests too deep. */
function canonical(value: unknown, depth = 0): string | null {
  if (depth > 256) return null;
  if (value === null || typeof value === 'boolean' || typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number') return Number.isFinite(value) ? JSON.stringify(value) : null;
  if (Array.isArray(value)) {
    const items: string[] = [];
    for (const v of value) {
      const c = canonical(v, depth + 1);
      if (c === null) return null;
      items.push(c);
    }
    return `[${items.join(',')}]`;
  }
  if (isPlainObject(value)) {
    const entries: string[] = [];
    for (const key of Object.keys(value).sort()) {
      const v = (value as Record<string, unknown>)[key];
      if (v === undefined) continue;
      const c = canonical(v, depth + 1);
      if (c === null) return null;
      entries.push(`${JSON.stringify(key)}:${c}`);
    }
    return `{${entries.join(',')}}`;
  }
  return null;
}

/** What one waiting call gets: the gate's answer to read, or the reason it is denied without running. */
type Verdict = { readonly answer: AskResult } | { readonly denied: string };

/** Reads the untrusted answers: per waiting call, an answer the gate may read, or why the call is denied. */
function verdicts(waiting: readonly PendingCall[], answers: unknown): Map<string, Verdict> {
  const byId = new Map<string, ResumeAnswer[]>();
  const list = Array.isArray(answers) ? answers.slice(0, 10 * MAX_CALLS) : [];
  const waitingIds = new Set(waiting.map((c) => c.id));
  for (const a of list) {
    // An answer that is not one, or names no waiting call (unknown, or a call that already has its result), is
    // ignored: it cannot approve anything.
    if (!isPlainObject(a) || !isId((a as { id?: unknown }).id)) continue;
    const answer = a as unknown as ResumeAnswer;
    if (!waitingIds.has(answer.id)) continue;
    const same = byId.get(answer.id);
    if (same) same.push(answer);
    else byId.set(answer.id, [answer]);
  }
  const out = new Map<string, Verdict>();
  for (const call of waiting) {
    const given = byId.get(call.id);
    if (!given) {
      out.set(call.id, { denied: 'no answer came for this approval' });
      continue;
    }
    const first = given[0] as ResumeAnswer;
    const key = (a: ResumeAnswer) =>
      `${a.approved === true}|${a.scope === 'session' ? 'session' : 'once'}|${canonical(a.input)}`;
    if (given.some((a) => key(a) !== key(first))) {
      out.set(call.id, { denied: 'two different answers came for this approval' });
      continue;
    }
    if (first.approved !== true) {
      out.set(call.id, { denied: 'declined by the user' });
      continue;
    }
    const stored = canonical(splitIntent(call.arguments).args);
    if (stored === null || stored !== canonical(splitIntent(first.input).args)) {
      out.set(call.id, { denied: 'the approved input is not the stored call' });
      continue;
    }
    out.set(call.id, { answer: first.scope === 'session' ? { allow: true, scope: 'session' } : true });
  }
  return out;
}

/** The step's assistant message (text, then the calls) and the tool message with every result, in call order. */
function stepMessages(
  step: PendingStep,
  outcomes: ReadonlyMap<string, { value: string; isError: boolean }>,
): [AssistantModelMessage, ToolModelMessage] {
  const assistant: AssistantModelMessage = {
    role: 'assistant',
    content: [
      ...(step.text === '' ? [] : [{ type: 'text' as const, text: step.text }]),
      ...step.calls.map((c) => ({
        type: 'tool-call' as const,
        toolCallId: c.id,
        toolName: c.name,
        input: c.arguments,
      })),
    ],
  };
  const tool: ToolModelMessage = {
    role: 'tool',
    content: step.calls.map((c) => {
      const r = outcomes.get(c.id) ?? { value: 'the turn ended before this tool ran', isError: true };
      return {
        type: 'tool-result' as const,
        toolCallId: c.id,
        toolName: c.name,
        output: r.isError
          ? { type: 'error-text' as const, value: r.value }
          : { type: 'text' as const, value: r.value },
      };
    }),
  };
  return [assistant, tool];
}

/** The `begin` of a resumed turn: validate, claim, run the waiting calls, and the history the loop goes on from. */
function resumeBegin(r: ClientRooms, maxTurns: number, input: ResumeInput, options: ResumeOptions) {
  return async (turn: Turn): Promise<{ base: ModelMessage[]; stepsLeft: number }> => {
    if (!isPlainObject(input)) throw invalid('expected {step, answers}');
    const history = r.session.history;
    const step = checkStep(input.step, history);
    const finished = new Map(step.results.map((x) => [x.id, { value: x.value, isError: x.isError }]));
    const waiting = step.calls.filter((c) => !finished.has(c.id));
    const verdict = verdicts(waiting, input.answers);
    const [assistantCheck] = stepMessages(step, finished);
    const problems = validateToolPairs([...history, assistantCheck]).filter((p) => p.index < history.length);
    if (problems.length > 0)
      throw invalid(`the history before the step is not whole (${problems[0]?.message})`);

    let claimed = false;
    try {
      claimed = options.claim ? (await options.claim()) === true : true;
    } catch {
      claimed = false;
    }
    if (!claimed)
      throw new AgentCoreError('resume-claimed', 'another instance continues this turn; nothing ran here');

    // The stream of a resumed turn is whole on its own: each waiting call's request comes again before its result.
    for (const call of waiting) {
      const { intent, args } = splitIntent(call.arguments);
      const view = r.tools.presentCall(call.id, call.name, args, false);
      turn.callSeen(call.id, call.arguments, view);
      turn.emit({
        type: 'tool-request',
        id: call.id,
        name: call.name,
        arguments: call.arguments,
        intent,
        view,
      });
      turn.requestDone(call.id);
    }
    const outcomes = new Map(finished);
    await Promise.all(
      waiting.map(async (call) => {
        const v = verdict.get(call.id) as Verdict;
        const outcome =
          'denied' in v
            ? ToolOutcome.failure(permissionDeniedMessage(call.name, v.denied), 'permission-denied')
            : await r.tools.runCall(call.name, call.arguments, call.id, v.answer);
        if (turn.signal.aborted) return;
        outcomes.set(call.id, { value: outcome.result.value, isError: outcome.isError });
        r.turns.present(turn, call.id, call.name, outcome);
      }),
    );
    if (turn.signal.aborted) throw abortError();
    return { base: [...history, ...stepMessages(step, outcomes)], stepsLeft: maxTurns - step.requests };
  };
}

/**
 * Continues a turn from stored state: the client holds the history before the step (restored with `loadSession`),
 * `input.step` is the step the turn stopped in (`client.pendingStep()` when it parked) and `input.answers` the
 * user's answers for its waiting calls. Each waiting call's `tool-request` is delivered again, then the approved
 * ones run down the live path (precheck, permission gate, tool), the gate reading the answer instead of asking: a
 * call the gate denies now stays denied, one it allows runs, an answer grants no more than a live one. A call with no
 * answer, two different answers, a denial, or stored arguments other than the approved input is denied without
 * running. The results are appended and the loop goes on as in `stream` (same events, same closing `usage` and
 * `end`); the result's text is what this run wrote. The promise always resolves: an invalid step
 * (`invalid-resume`) or a refused `claim` (`resume-claimed`) ends it with an error and nothing run.
 */
export function resumeTurn(
  client: CodeagentClient,
  input: ResumeInput,
  callbacks: StreamCallbacks = {},
  options: ResumeOptions = {},
): Promise<StreamResult> {
  const r = rooms(client, 'resumeTurn');
  return r.turns.runWith(
    resumeBegin(r, client.maxModelRequests, input, options ?? {}),
    (event) => dispatchToCallbacks(callbacks, event),
    options?.signal,
    typeof callbacks?.onToolOutput === 'function',
  );
}

/** {@link resumeTurn} as a typed event stream, in the order the callbacks get them; the last is `end`. */
export function resumeTurnEvents(
  client: CodeagentClient,
  input: ResumeInput,
  options: ResumeOptions = {},
): AsyncIterable<AgentEvent> {
  const r = rooms(client, 'resumeTurnEvents');
  return eventIterable(
    (deliver, signal) =>
      r.turns.runWith(resumeBegin(r, client.maxModelRequests, input, options ?? {}), deliver, signal),
    options,
  );
}
