import { randomUUID } from 'node:crypto';
import {
  type AgentEvent,
  type CodeagentClient,
  type ResumeAnswer,
  type StreamInput,
  streamEvents,
} from '@codeagent/agent-core';
import type { AskResult } from '@codeagent/permission-gate';
import { type AgentUIMessage, applyChunk } from './accumulate.js';
import { type AgentUIChunk, createEventMapper, type EventMapper } from './mapper.js';
import { ALLOW_ALWAYS_REASON, type DenialSource } from './metadata.js';
import { isRecord as isRec } from '@codeagent/artifact-schema/internal';

/** Default time an approval may stay unanswered before it denies: 15 minutes. */
export const DEFAULT_APPROVAL_TIMEOUT_MS = 15 * 60 * 1000;

/** Largest text a coalesced delta chunk carries. */
const COALESCE_CHARS = 16 * 1024;

/**
 * The chunk at `log[from]` and the position after it; consecutive text (or reasoning) deltas of one part that are
 * already logged go out as one chunk, so a client that reads slower than the model streams parses fewer chunks.
 */
/** A dropped log entry (a live output a later one replaced): responses skip it. */
const SKIPPED: AgentUIChunk = Object.freeze({
  type: 'message-metadata',
  messageMetadata: {},
}) as AgentUIChunk;

const isLive = (chunk: AgentUIChunk): chunk is Extract<AgentUIChunk, { type: 'tool-output-available' }> =>
  chunk.type === 'tool-output-available' && chunk.preliminary === true;

function coalesce(log: readonly AgentUIChunk[], from: number): [AgentUIChunk, number] {
  const first = log[from] as AgentUIChunk;
  let next = from + 1;
  if (first.type !== 'text-delta' && first.type !== 'reasoning-delta') return [first, next];
  let delta = first.delta;
  for (;;) {
    const c = log[next];
    if (c?.type !== first.type || c.id !== first.id || delta.length >= COALESCE_CHARS) break;
    delta += c.delta;
    next++;
  }
  return [delta === first.delta ? first : { ...first, delta }, next];
}

/** Default quiet time before a response ends at an approval: 30 ms. */
export const DEFAULT_PARK_SETTLE_MS = 30;

/** Options of {@link createAgentUIChat}. */
export interface AgentUIChatOptions {
  /** The session's agent-core client; install its permission gate with `ask: chat.ask`. */
  readonly client: CodeagentClient;
  /** The stored UI history to continue (untrusted: read defensively); default empty. */
  readonly messages?: readonly AgentUIMessage[];
  /** Milliseconds an approval may stay unanswered before it denies; default 15 minutes. */
  readonly approvalTimeoutMs?: number;
  /** Called with the whole UI history whenever it should be stored (approval request, tool output, turn end). */
  readonly onChange?: (messages: readonly AgentUIMessage[]) => void;
  /**
   * Milliseconds nothing must move before a response ends at an approval (default 30), so that calls of one model
   * step that reach the gate one after another are asked in the same response. Correct with any value: a call
   * that arrives later is asked in the next response.
   */
  readonly parkSettleMs?: number;
  /**
   * Whether a response that closes while the turn streams (the request aborted, the client went away) interrupts
   * the turn; default true, as Stop in a stock `useChat` only closes the request. A host with its own Stop (an
   * abort endpoint) sets false, so a reload mid-stream leaves the turn running and `reconnect` picks it up.
   */
  readonly interruptOnDisconnect?: boolean;
  /** Called when a turn ends, after its last chunk. */
  readonly onTurnEnd?: () => void;
  /**
   * Called with every chunk of a running turn as it is logged, in order (live output included), with the id of the
   * turn's assistant message: what a host writes to a shared log so that readers elsewhere follow the turn.
   */
  readonly onChunk?: (chunk: AgentUIChunk, messageId: string) => void;
  /** Message id generator; default `crypto.randomUUID`. */
  readonly generateId?: () => string;
  /** Runs one turn; default agent-core `streamEvents(client, input, {signal})` (tests may wrap it). */
  readonly run?: (input: StreamInput, signal: AbortSignal) => AsyncIterable<AgentEvent>;
  /**
   * A turn parked on approvals that the host restored from storage (the process that ran it is gone): its parts
   * stay `approval-requested` in the last assistant message (not denied), {@link AgentUIChat.pending} lists them,
   * and the request that answers them continues the turn through `resume` (agent-core `resumeTurnEvents`),
   * streaming into that message. Approvals that do not match a waiting part of the last message are dropped.
   */
  readonly parked?: ParkedTurnOptions;
}

/** A turn parked on approvals, restored from storage: see {@link AgentUIChatOptions.parked}. */
export interface ParkedTurnOptions {
  /** The approvals the stored turn waits for (the input is the exact input that runs when approved). */
  readonly approvals: readonly PendingApproval[];
  /**
   * Continues the turn with one request's answers, by tool call id, each with the stored input it approves (a
   * waiting call without an answer is denied by agent-core); its events stream into the parked assistant message.
   */
  readonly resume: (answers: readonly ResumeAnswer[], signal: AbortSignal) => AsyncIterable<AgentEvent>;
}

/** Options of one {@link AgentUIChat.respond} call. */
export interface RespondOptions {
  /** The request's signal: when it aborts while the turn streams to this response, the turn is interrupted. */
  readonly signal?: AbortSignal;
}

/** An approval the running turn waits for. */
export interface PendingApproval {
  /** The approval id the UI answers (random; not the tool call id). */
  readonly approvalId: string;
  /** The tool call it is about. */
  readonly toolCallId: string;
  /** Tool name. */
  readonly toolName: string;
  /** The exact input that runs when it is approved. */
  readonly input: unknown;
}

/** One chat session served to `useChat`: runs turns, ends a response at an approval request, resumes on the answer. */
export interface AgentUIChat {
  /** The permission gate's ask callback: give it to `installPermissionGate(client, {ask: chat.ask})`. */
  readonly ask: (name: string, input: unknown, id: string | undefined) => Promise<AskResult>;
  /**
   * Answers one `useChat` request given its last message: a user message starts a turn; an assistant message
   * carries approval responses, which resolve the waiting approvals before the turn's continuation streams.
   */
  respond(message: unknown, options?: RespondOptions): ReadableStream<AgentUIChunk>;
  /** Interrupts the running turn; its waiting approvals deny. */
  abort(): void;
  /** The UI history (a copy). */
  readonly messages: AgentUIMessage[];
  /**
   * Replays the running turn from its first chunk into a new response (a reloaded page): show the history
   * without the turn's assistant message (the last message while {@link AgentUIChat.busy}), then read this. Queued
   * deltas are coalesced, so the replay is quick. `null` when no turn runs.
   */
  reconnect(options?: RespondOptions): ReadableStream<AgentUIChunk> | null;
  /** Approvals the running turn waits for. */
  readonly pending: readonly PendingApproval[];
  /** True while a turn runs (streaming or waiting for an approval). */
  readonly busy: boolean;
  /** Resolves when the running turn (if any) has ended. */
  idle(): Promise<void>;
}

/** An approval the UI was asked for: created when the call arrives (the gate will ask) or when the gate asks. */
interface Approval extends PendingApproval {
  /** The user's answer, once it came (or a denial by timeout, abort, unknown id). */
  answer: AskResult | undefined;
  /** The gate's ask, when it is waiting for this approval. */
  resolve: ((answer: AskResult) => void) | undefined;
  readonly timer: ReturnType<typeof setTimeout> | undefined;
}

interface Turn {
  readonly controller: AbortController;
  readonly message: AgentUIMessage;
  readonly mapper: EventMapper;
  /** Every chunk of the turn, in order (a response reads from its own cursor). */
  readonly log: AgentUIChunk[];
  /** How far responses have delivered the log. */
  delivered: number;
  /** Calls requested and not yet resulted. */
  readonly outstanding: Set<string>;
  /** Calls requested (their part exists on the client). */
  readonly requested: Set<string>;
  /** Approvals by tool call id. */
  readonly approvals: Map<string, Approval>;
  /** Where in the log each running call's latest live output is (an older one is dropped from the log). */
  readonly liveAt: Map<string, number>;
  readonly ended: Promise<void>;
  done: boolean;
}

type Rec = Record<string, unknown>;

interface ApprovalAnswer {
  readonly toolCallId: string;
  readonly approvalId: string;
  readonly approved: boolean;
  readonly reason: unknown;
}

/** Reads the approval responses out of a client-sent message (untrusted). */
function approvalResponses(message: Rec): ApprovalAnswer[] {
  const out: ApprovalAnswer[] = [];
  const parts = Array.isArray(message.parts) ? message.parts : [];
  for (const part of parts.slice(0, 10_000)) {
    if (!isRec(part) || typeof part.type !== 'string') continue;
    if (part.type !== 'dynamic-tool' && !part.type.startsWith('tool-')) continue;
    if (part.state !== 'approval-responded' || typeof part.toolCallId !== 'string') continue;
    const approval = part.approval;
    if (!isRec(approval) || typeof approval.id !== 'string') continue;
    // Only a literal `true` approves; anything else is a denial (fail closed).
    out.push({
      toolCallId: part.toolCallId,
      approvalId: approval.id,
      approved: approval.approved === true,
      reason: approval.reason,
    });
  }
  return out;
}

/** The text a client-sent user message carries (untrusted; non-text parts are ignored). */
function userText(message: Rec): string {
  const parts = Array.isArray(message.parts) ? message.parts : [];
  return parts
    .filter((p): p is Rec => isRec(p) && p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/**
 * Turns tool parts left waiting for an approval (no turn is alive to resume) into denied ones, except those of
 * `kept` (a restored parked turn's message).
 */
function denyStale(messages: AgentUIMessage[], kept?: AgentUIMessage): boolean {
  let changed = false;
  for (const message of messages) {
    if (message.role !== 'assistant' || message === kept) continue;
    for (const part of message.parts) {
      if (part.type === 'dynamic-tool' && part.state === 'approval-requested') {
        (part as { state: string }).state = 'output-denied';
        changed = true;
      }
    }
    if (message.metadata?.awaitingApproval) {
      message.metadata = { ...message.metadata, awaitingApproval: false, stopReason: 'interrupted' };
      changed = true;
    }
  }
  return changed;
}

/** A restored parked turn: its assistant message (in the chat's history) and the approvals its parts wait for. */
interface Restored {
  readonly message: AgentUIMessage;
  readonly approvals: readonly PendingApproval[];
  readonly resume: ParkedTurnOptions['resume'];
}

/** A turn run that continues a restored parked one: its answered approvals and its events. */
interface ResumedRun {
  readonly approvals: readonly Approval[];
  readonly events: (signal: AbortSignal) => AsyncIterable<AgentEvent>;
}

/** The restored parked turn: the approvals of `parked` that a waiting part of the last assistant message shows. */
function restoreParked(messages: AgentUIMessage[], parked: ParkedTurnOptions | undefined): Restored | null {
  const last = messages.at(-1);
  if (!parked || last?.role !== 'assistant' || !Array.isArray(parked.approvals)) return null;
  const approvals = parked.approvals.filter((a) =>
    last.parts.some(
      (p) =>
        p.type === 'dynamic-tool' &&
        p.state === 'approval-requested' &&
        p.toolCallId === a.toolCallId &&
        p.approval?.id === a.approvalId,
    ),
  );
  if (approvals.length === 0 || typeof parked.resume !== 'function') return null;
  return { message: last, approvals, resume: parked.resume };
}

/**
 * The answers of one request for a restored parked turn, as agent-core reads them (by tool call id, with the stored
 * input), its parts marked answered; an answer whose approval id is not the stored one is dropped (the call is then
 * denied for want of an answer).
 */
function resumeRun(r: Restored, responses: readonly ApprovalAnswer[]): ResumedRun {
  const byCall = new Map(r.approvals.map((a) => [a.toolCallId, a]));
  const matched = responses.filter((x) => byCall.get(x.toolCallId)?.approvalId === x.approvalId);
  // As for a live answer: "allow always" is once only when the same answers deny a call of that tool.
  const deniedTools = new Set(
    matched.filter((x) => !x.approved).map((x) => byCall.get(x.toolCallId)?.toolName),
  );
  const answers: ResumeAnswer[] = [];
  const approvals: Approval[] = [];
  for (const a of r.approvals) {
    const x = matched.find((m) => m.toolCallId === a.toolCallId);
    const always = x?.approved === true && x.reason === ALLOW_ALWAYS_REASON && !deniedTools.has(a.toolName);
    if (x)
      answers.push({
        id: a.toolCallId,
        approved: x.approved,
        scope: always ? 'session' : 'once',
        input: a.input,
      });
    approvals.push({ ...a, answer: x?.approved === true, resolve: undefined, timer: undefined });
    const part = r.message.parts.find((p) => p.type === 'dynamic-tool' && p.toolCallId === a.toolCallId);
    if (part?.type === 'dynamic-tool' && x) {
      const reason = typeof x.reason === 'string' ? { reason: x.reason.slice(0, 1000) } : {};
      Object.assign(part, {
        state: 'approval-responded',
        approval: { id: x.approvalId, approved: x.approved, ...reason },
      });
    }
  }
  r.message.metadata = { ...r.message.metadata, awaitingApproval: false };
  return { approvals, events: (signal) => r.resume(answers, signal) };
}

/** Chunks that rebuild a stored assistant message's parts on a client that has none of it (a reconnect). */
function messageChunks(message: AgentUIMessage): AgentUIChunk[] {
  const out: AgentUIChunk[] = [];
  message.parts.forEach((part, i) => {
    switch (part.type) {
      case 'step-start':
        out.push({ type: 'start-step' });
        return;
      case 'text':
      case 'reasoning': {
        const id = `${message.id}-stored-${i}`;
        const kind = part.type;
        out.push({ type: `${kind}-start`, id } as AgentUIChunk);
        if (part.text !== '') out.push({ type: `${kind}-delta`, id, delta: part.text } as AgentUIChunk);
        out.push({ type: `${kind}-end`, id } as AgentUIChunk);
        return;
      }
      case 'dynamic-tool': {
        const meta = part.toolMetadata !== undefined ? { toolMetadata: part.toolMetadata } : {};
        out.push({
          type: 'tool-input-available',
          toolCallId: part.toolCallId,
          toolName: part.toolName,
          input: part.input ?? null,
          dynamic: true,
          ...(part.title !== undefined ? { title: part.title } : {}),
          ...meta,
        });
        if (part.approval !== undefined)
          out.push({
            type: 'tool-approval-request',
            approvalId: part.approval.id,
            toolCallId: part.toolCallId,
          });
        if (part.state === 'output-available')
          out.push({
            type: 'tool-output-available',
            toolCallId: part.toolCallId,
            output: part.output,
            dynamic: true,
            ...meta,
          });
        else if (part.state === 'output-error')
          out.push({
            type: 'tool-output-error',
            toolCallId: part.toolCallId,
            errorText: part.errorText,
            dynamic: true,
            ...meta,
          });
        else if (part.state === 'output-denied')
          out.push({ type: 'tool-output-denied', toolCallId: part.toolCallId });
        return;
      }
      default:
        return;
    }
  });
  return out;
}

/** Sanitises stored messages into a fresh copy (drops entries that are not messages). */
function copyMessages(messages: readonly unknown[]): AgentUIMessage[] {
  const out: AgentUIMessage[] = [];
  for (const m of messages) {
    if (!isRec(m) || typeof m.id !== 'string' || !Array.isArray(m.parts)) continue;
    if (m.role !== 'user' && m.role !== 'assistant' && m.role !== 'system') continue;
    out.push(structuredClone(m) as unknown as AgentUIMessage);
  }
  return out;
}

/**
 * Creates the server side of a `useChat` session for an agent-core client. A tool call the permission gate will
 * ask about gets its `tool-approval-request` as soon as it is through its precheck (`client.prechecked`), ahead of
 * the gate's serial asks, so every call of a step is visible at once and a call known to fail is never asked; a response streams the turn until it ends or
 * until every running call waits for an answer, then finishes with those parts in `approval-requested` (metadata
 * `awaitingApproval: true`) while the turn stays parked on the gate's `ask`. The next request
 * (`addToolApprovalResponse` + `sendAutomaticallyWhen`) carries the answers, which resolve the asks, and its
 * response streams the continuation into the same assistant message. An approval not answered in time, or an
 * answer for an unknown approval id, denies; after a restart, stored waiting approvals are shown denied.
 */
export function createAgentUIChat(options: AgentUIChatOptions): AgentUIChat {
  const timeoutMs = options.approvalTimeoutMs ?? DEFAULT_APPROVAL_TIMEOUT_MS;
  const settleMs = options.parkSettleMs ?? DEFAULT_PARK_SETTLE_MS;
  const interrupt = options.interruptOnDisconnect ?? true;
  const newId = options.generateId ?? randomUUID;
  const run =
    options.run ??
    ((input: StreamInput, signal: AbortSignal) => streamEvents(options.client, input, { signal }));
  const messages = copyMessages(options.messages ?? []);
  const denials = new Map<string, DenialSource>();
  const waiters = new Set<() => void>();
  let version = 0;
  let drainGeneration = 0;
  let turn: Turn | null = null;

  const changed = () => options.onChange?.(messages.map((m) => structuredClone(m)));
  const notify = () => {
    version++;
    const all = [...waiters];
    waiters.clear();
    for (const w of all) w();
  };
  let restored = restoreParked(messages, options.parked);
  if (denyStale(messages, restored?.message)) queueMicrotask(changed);

  const push = (t: Turn, chunks: readonly AgentUIChunk[]) => {
    // Ticks and usage give no chunks: they must not count as progress (or a turn would never park).
    if (chunks.length === 0) return;
    let store = false;
    for (const chunk of chunks) {
      try {
        options.onChunk?.(chunk, t.message.id);
      } catch {
        // The host's log failing must not stop the turn.
      }
      if (isLive(chunk)) {
        // Live output replaces the call's previous one: the log keeps only the latest (memory stays bounded by the
        // running calls), and it is not stored (a reload shows the call running; the result replaces it).
        const before = t.liveAt.get(chunk.toolCallId);
        if (before !== undefined) t.log[before] = SKIPPED;
        t.liveAt.set(chunk.toolCallId, t.log.length);
        t.log.push(chunk);
        continue;
      }
      if (chunk.type.startsWith('tool-output')) {
        const toolCallId = (chunk as { toolCallId: string }).toolCallId;
        const before = t.liveAt.get(toolCallId);
        if (before !== undefined) t.log[before] = SKIPPED;
        t.liveAt.delete(toolCallId);
      }
      applyChunk(t.message, chunk);
      t.log.push(chunk);
      if (
        chunk.type === 'tool-approval-request' ||
        chunk.type.startsWith('tool-output') ||
        chunk.type === 'finish'
      )
        store = true;
    }
    if (store) changed();
    notify();
  };

  /** Records the answer of an approval; resolves the gate's ask when it already waits. */
  const settle = (a: Approval, answer: AskResult, denial?: DenialSource) => {
    if (a.answer !== undefined) return;
    a.answer = answer;
    clearTimeout(a.timer);
    if (denial) denials.set(a.toolCallId, denial);
    a.resolve?.(answer);
    a.resolve = undefined;
    notify();
  };

  const requestApproval = (t: Turn, toolCallId: string, toolName: string, input: unknown): Approval => {
    const approvalId = `approval-${newId()}`;
    const timer = setTimeout(() => settle(a, false, 'timeout'), timeoutMs);
    timer.unref?.();
    const a: Approval = {
      approvalId,
      toolCallId,
      toolName,
      input,
      answer: undefined,
      resolve: undefined,
      timer,
    };
    t.approvals.set(toolCallId, a);
    push(t, [{ type: 'tool-approval-request', approvalId, toolCallId }]);
    return a;
  };

  /** Whether the gate will ask about this call (so its approval can be requested with the call). */
  const willAsk = (name: string, input: unknown): boolean => {
    const gate = options.client.getPermissionGate();
    if (gate?.evaluate(name, input).decision !== 'ask') return false;
    // A session grant that plainly covers the call means the gate will not ask. Grants are scoped (a tool, a
    // command, a prefix, a path); anything less plain is asked for, and settled as moot if the gate runs it anyway.
    const command =
      typeof input === 'object' &&
      input !== null &&
      typeof (input as { command?: unknown }).command === 'string'
        ? (input as { command: string }).command.trim().replace(/\s+/g, ' ')
        : null;
    return !gate.grants().some((g) => {
      if (g.tool !== name) return false;
      if (g.kind === 'tool') return true;
      if (command === null || /[;&|<>`$()\n]/.test(command)) return false;
      if (g.kind === 'command') return command === g.command;
      if (g.kind === 'command-prefix') return command === g.prefix || command.startsWith(`${g.prefix} `);
      return false;
    });
  };

  const unanswered = (t: Turn) => [...t.approvals.values()].filter((a) => a.answer === undefined);

  const parked = (t: Turn): boolean => {
    if (t.done) return false;
    const open = new Set(unanswered(t).map((a) => a.toolCallId));
    return open.size > 0 && [...t.outstanding].every((id) => open.has(id));
  };

  /** Calls reach the gate one after another: park only when nothing moved for a short while. */
  const stillParked = async (t: Turn): Promise<boolean> => {
    const before = version;
    await new Promise((r) => setTimeout(r, settleMs));
    return version === before && parked(t);
  };

  const ask = (name: string, input: unknown, id: string | undefined): Promise<AskResult> => {
    const t = turn;
    if (id === undefined || t === null || t.done || t.controller.signal.aborted)
      return Promise.resolve(false);
    let a = t.approvals.get(id);
    if (a?.answer !== undefined) return Promise.resolve(a.answer);
    if (!a) {
      if (!t.requested.has(id)) {
        // The gate asks about a call whose event is still on its way: request it right after the call.
        return new Promise<AskResult>((resolve) => {
          const early = { toolName: name, input, resolve };
          earlyAsks.set(id, early);
        });
      }
      a = requestApproval(t, id, name, input);
    }
    const target = a;
    return new Promise<AskResult>((resolve) => {
      target.resolve = resolve;
      notify();
    });
  };
  const earlyAsks = new Map<string, { toolName: string; input: unknown; resolve: (a: AskResult) => void }>();

  /** Settles the parts of calls that got no result (an interrupted turn): asked ones denied, others failed. */
  const unfinished = (t: Turn): AgentUIChunk[] => {
    const out: AgentUIChunk[] = [];
    for (const id of t.outstanding) {
      out.push(
        t.approvals.has(id)
          ? { type: 'tool-output-denied', toolCallId: id }
          : {
              type: 'tool-output-error',
              toolCallId: id,
              errorText: 'the turn ended before this tool ran',
              dynamic: true,
            },
      );
    }
    t.outstanding.clear();
    return out;
  };

  const startTurn = (input: string, assistant: AgentUIMessage, resumed?: ResumedRun): Turn => {
    const controller = new AbortController();
    denials.clear();
    earlyAsks.clear();
    const mapper = createEventMapper({ idPrefix: assistant.id, denialOf: (id) => denials.get(id) });
    let resolveEnded: () => void = () => {};
    const ended = new Promise<void>((r) => {
      resolveEnded = r;
    });
    const t: Turn = {
      controller,
      message: assistant,
      mapper,
      log: [],
      delivered: 0,
      outstanding: new Set(),
      requested: new Set(),
      approvals: new Map(),
      liveAt: new Map(),
      ended,
      done: false,
    };
    turn = t;
    for (const a of resumed?.approvals ?? []) {
      t.approvals.set(a.toolCallId, a);
      if (a.answer === false) denials.set(a.toolCallId, 'user');
    }
    if (resumed) {
      // A reconnect replays the whole message: what it showed before the resume, then the continuation. The
      // answering response starts after it (its client has the message).
      t.log.push(...messageChunks(assistant));
      t.delivered = t.log.length;
    }
    void (async () => {
      try {
        const reannounced = new Set(resumed?.approvals.map((a) => a.toolCallId));
        const events = resumed ? resumed.events(controller.signal) : run(input, controller.signal);
        for await (const event of events) {
          let chunks = mapper.map(event);
          // A resumed call's request comes again (once): its part is on the page already (answered), keep it.
          const again = event.type === 'tool-request' && reannounced.delete(event.id);
          if (again) chunks = [];
          if (event.type === 'tool-request') {
            t.outstanding.add(event.id);
            t.requested.add(event.id);
          } else if (event.type === 'tool-result') {
            t.outstanding.delete(event.id);
            // An approval requested with the call that the gate never needed (a grant covered it) is moot now.
            const moot = t.approvals.get(event.id);
            if (moot && moot.answer === undefined) {
              moot.answer = false;
              clearTimeout(moot.timer);
            }
          } else if (event.type === 'end') {
            t.done = true;
            push(t, [...mapper.closeParts(), ...unfinished(t)]);
          }
          push(t, chunks);
          if (event.type === 'tool-request' && !again) {
            const early = earlyAsks.get(event.id);
            earlyAsks.delete(event.id);
            if (early) {
              const a = requestApproval(t, event.id, early.toolName, early.input);
              a.resolve = early.resolve;
            } else if (willAsk(event.name, event.arguments)) {
              // Requested ahead of the gate's serial asks, but only once the call is through its precheck: a call
              // known to fail never reaches the user. Until then the call counts as moving (the turn cannot park).
              const { id, name, arguments: args } = event;
              void options.client.prechecked(id).then((ok) => {
                if (ok && !t.done && t.outstanding.has(id) && !t.approvals.has(id))
                  requestApproval(t, id, name, args);
              });
            }
          }
        }
      } catch (error) {
        // agent-core resolves on errors; this is a defect in a wrapped `run`, reported on the stream.
        push(t, [
          ...mapper.closeParts(),
          { type: 'error', errorText: error instanceof Error ? error.message : String(error) },
        ]);
      } finally {
        if (!t.done) {
          t.done = true;
          push(t, [
            ...unfinished(t),
            { type: 'finish', messageMetadata: { stopReason: 'error', awaitingApproval: false } },
          ]);
        }
        for (const a of unanswered(t)) settle(a, false, 'aborted');
        for (const early of earlyAsks.values()) early.resolve(false);
        earlyAsks.clear();
        resolveEnded();
        options.onTurnEnd?.();
        notify();
      }
    })();
    return t;
  };

  /** Gives up a restored parked turn: its waiting parts are denied (a new message, Stop). */
  const abandonRestored = () => {
    const r = restored;
    if (!r) return;
    restored = null;
    if (denyStale([r.message])) changed();
  };

  const abort = () => {
    abandonRestored();
    const t = turn;
    if (!t || t.done) return;
    for (const a of unanswered(t)) settle(a, false, 'aborted');
    t.controller.abort();
  };

  /** Streams the turn's chunks from `from` (default: what no response delivered yet) until it ends or parks. */
  const drain = async (
    t: Turn,
    write: (chunk: AgentUIChunk) => Promise<void>,
    signal: AbortSignal | undefined,
    from: number = t.delivered,
  ): Promise<void> => {
    let cursor = from;
    const generation = ++drainGeneration;
    const onAbort = () => {
      if (interrupt) abort();
      notify();
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    try {
      await write({ type: 'start', messageId: t.message.id });
      for (;;) {
        if (signal?.aborted) {
          if (interrupt) abort();
          else return; // the reader is gone; the turn goes on and a reconnect streams the rest
        }
        // A newer response took over this turn (a retried request): this one ends.
        if (generation !== drainGeneration) return;
        const seen = version;
        while (cursor < t.log.length) {
          const [chunk, next] = coalesce(t.log, cursor);
          cursor = next;
          t.delivered = Math.max(t.delivered, cursor);
          if (chunk === SKIPPED) continue;
          await write(chunk);
          if (chunk.type === 'finish') return;
        }
        if (t.done) return;
        if (parked(t) && (await stillParked(t))) {
          const metadata = { awaitingApproval: true };
          t.message.metadata = { ...t.message.metadata, ...metadata };
          changed();
          await write({ type: 'finish', messageMetadata: metadata });
          return;
        }
        if (version !== seen) continue;
        await new Promise<void>((resolve) => {
          waiters.add(resolve);
        });
      }
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  };

  /** Applies the answers a client message carries; returns the tool call ids answered with no live approval. */
  const applyAnswers = (t: Turn | null, message: Rec): string[] => {
    const answers = approvalResponses(message);
    const stale: string[] = [];
    // "Allow always" would let a call of the same tool that this same answer set denies run unasked: once only.
    const deniedTools = new Set<string>();
    for (const answer of answers) {
      const a = t?.approvals.get(answer.toolCallId);
      if (a && !answer.approved) deniedTools.add(a.toolName);
    }
    for (const answer of answers) {
      const a = t?.approvals.get(answer.toolCallId);
      if (a && a.approvalId === answer.approvalId) {
        if (a.answer !== undefined) continue;
        markResponded(t, answer);
        const always = answer.reason === ALLOW_ALWAYS_REASON && !deniedTools.has(a.toolName);
        settle(
          a,
          answer.approved ? (always ? { allow: true, scope: 'session' } : true) : false,
          answer.approved ? undefined : 'user',
        );
        continue;
      }
      // Unknown id: deny whatever waits on that tool call; a stored request no turn waits for is denied.
      if (a) settle(a, false, 'unknown-approval');
      else stale.push(answer.toolCallId);
    }
    return stale;
  };

  /** Answers one request: `body` writes chunks, each write waiting until the reader wants more (backpressure). */
  const answer = (
    respondOptions: RespondOptions,
    body: (write: (chunk: AgentUIChunk) => Promise<void>, signal: AbortSignal) => Promise<void>,
  ): ReadableStream<AgentUIChunk> => {
    let controller: ReadableStreamDefaultController<AgentUIChunk> | undefined;
    let wantMore: (() => void) | null = null;
    let closed = false;
    // Aborted by the request's signal or when the reader cancels (the client went away).
    const gone = new AbortController();
    respondOptions.signal?.addEventListener('abort', () => gone.abort(), { once: true });
    if (respondOptions.signal?.aborted) gone.abort();
    const release = () => {
      const w = wantMore;
      wantMore = null;
      w?.();
    };
    const stream = new ReadableStream<AgentUIChunk>(
      {
        start: (c) => {
          controller = c;
        },
        pull: release,
        cancel: () => {
          closed = true;
          gone.abort();
          release();
        },
      },
      { highWaterMark: 1 },
    );
    const write = async (chunk: AgentUIChunk) => {
      if (closed || !controller) return;
      controller.enqueue(chunk);
      while (!closed && (controller.desiredSize ?? 1) <= 0) {
        await new Promise<void>((resolve) => {
          wantMore = resolve;
        });
      }
    };
    void (async () => {
      try {
        await body(write, gone.signal);
      } catch (error) {
        if (!closed)
          controller?.enqueue({
            type: 'error',
            errorText: error instanceof Error ? error.message : String(error),
          });
      } finally {
        if (!closed) {
          closed = true;
          controller?.close();
        }
      }
    })();
    return stream;
  };

  const respond = (message: unknown, respondOptions: RespondOptions = {}): ReadableStream<AgentUIChunk> =>
    answer(respondOptions, async (write, signal) => {
      {
        if (!isRec(message)) throw new Error('the request carries no message');
        if (message.role === 'user') {
          const text = userText(message);
          if (text.trim() === '') throw new Error('the message has no text');
          if (turn && !turn.done) {
            abort();
            await turn.ended;
          }
          abandonRestored();
          messages.push({
            id: typeof message.id === 'string' && message.id !== '' ? message.id : newId(),
            role: 'user',
            parts: [{ type: 'text', text }],
          });
          const assistant: AgentUIMessage = { id: newId(), role: 'assistant', parts: [], metadata: {} };
          messages.push(assistant);
          changed();
          await drain(startTurn(text, assistant), write, signal);
          return;
        }
        if (message.role !== 'assistant') throw new Error('expected a user or an assistant message');
        const r = restored;
        if (r && (turn === null || turn.done) && message.id === r.message.id) {
          // The answers to a restored parked turn: it goes on here, in the same assistant message.
          restored = null;
          const resumedRun = resumeRun(r, approvalResponses(message));
          changed();
          await drain(startTurn('', r.message, resumedRun), write, signal);
          return;
        }
        const t = turn && turn.message.id === message.id ? turn : null;
        const stale = applyAnswers(t, message);
        if (t && (!t.done || t.delivered < t.log.length)) {
          await drain(t, write, signal);
          return;
        }
        const target = messages.findLast((m) => m.id === message.id && m.role === 'assistant');
        await write({ type: 'start', ...(target ? { messageId: target.id } : {}) });
        for (const toolCallId of stale) {
          const part = target?.parts.find((p) => p.type === 'dynamic-tool' && p.toolCallId === toolCallId);
          if (
            part?.type === 'dynamic-tool' &&
            (part.state.startsWith('approval-') || part.state === 'output-denied')
          ) {
            (part as { state: string }).state = 'output-denied';
            await write({ type: 'tool-output-denied', toolCallId });
          }
        }
        if (target?.metadata?.awaitingApproval)
          target.metadata = { ...target.metadata, awaitingApproval: false };
        changed();
        await write({ type: 'finish', messageMetadata: { awaitingApproval: false } });
      }
    });

  const markResponded = (t: Turn | null, answer: ApprovalAnswer) => {
    const part = t?.message.parts.find(
      (p) => p.type === 'dynamic-tool' && p.toolCallId === answer.toolCallId,
    );
    if (part?.type !== 'dynamic-tool') return;
    const reason = typeof answer.reason === 'string' ? { reason: answer.reason.slice(0, 1000) } : {};
    Object.assign(part, {
      state: 'approval-responded',
      approval: { id: answer.approvalId, approved: answer.approved, ...reason },
    });
  };

  const reconnect = (respondOptions: RespondOptions = {}): ReadableStream<AgentUIChunk> | null => {
    const t = turn;
    if (!t || t.done) return null;
    return answer(respondOptions, (write, signal) => drain(t, write, signal, 0));
  };

  return {
    ask,
    respond,
    abort,
    reconnect,
    get messages() {
      return messages.map((m) => structuredClone(m));
    },
    get pending() {
      const t = turn;
      if ((!t || t.done) && restored) return restored.approvals.map((a) => ({ ...a }));
      if (!t || t.done) return [];
      return unanswered(t).map(({ approvalId, toolCallId, toolName, input }) => ({
        approvalId,
        toolCallId,
        toolName,
        input,
      }));
    },
    get busy() {
      return turn !== null && !turn.done;
    },
    idle: () => turn?.ended ?? Promise.resolve(),
  };
}
