import type { AgentUIChunk } from '@codeagent/adapter-ai-sdk-ui';
import { isRecord as isRec } from '@codeagent/artifact-schema/internal';
import {
  type EventLogStore,
  isSessionStoreError,
  type JsonValue,
  MAX_EVENTS_PER_APPEND,
} from '@codeagent/session-store';
import { UI_MESSAGE_STREAM_HEADERS } from 'ai';

/*
 * Following a turn delta by delta from any instance (ADR 0215). The instance that runs a turn writes its UI message
 * chunks to the store's turn event log, coalesced (a batch every FLUSH_MS, or at once for what a reader must not
 * wait for: the turn's start, an approval request, the end); each append is announced (PostgreSQL NOTIFY carries
 * only the position). A follower, on any instance, reads the log from the start or after the last position its
 * client saw, and streams it as Server-Sent Events whose `id` is that position.
 */

/** Milliseconds a logged chunk waits for others before the batch is written. */
export const FLUSH_MS = 50;
/** Characters of pending chunks that write the batch at once. */
export const FLUSH_CHARS = 16 * 1024;
/** Milliseconds nothing must move before a follower ends its response at the turn's waiting approvals. */
const PARK_SETTLE_MS = 150;
/** Milliseconds a follower waits without news before it looks at the session again (missed notifications). */
const POLL_MS = 1000;

const isDelta = (c: AgentUIChunk): c is Extract<AgentUIChunk, { type: 'text-delta' | 'reasoning-delta' }> =>
  c.type === 'text-delta' || c.type === 'reasoning-delta';
const isLive = (c: AgentUIChunk) => c.type === 'tool-output-available' && c.preliminary === true;
/** Chunks a follower should see at once: what a person must answer (the end is written by `close()` at once). */
const urgent = (c: AgentUIChunk) => c.type === 'tool-approval-request';
const size = (c: AgentUIChunk) => (isDelta(c) ? c.delta.length : 200);

/**
 * Writes one running turn's chunks to the event log, coalesced: consecutive deltas of one part become one event, a
 * call's live output replaces the one not yet written, and at most one append per turn is in flight; an approval
 * request is written at once, the rest within FLUSH_MS, the end by {@link TurnEventWriter.close}. Appends start
 * once `ready` (the write that begins the turn) has committed. A failed append (the turn ended elsewhere, the
 * database gone past its retries) stops the log; the turn goes on and its steps are still stored.
 */
export class TurnEventWriter {
  readonly #store: EventLogStore;
  readonly #id: string;
  readonly #turnId: string;
  readonly #ready: Promise<unknown>;
  readonly #flushMs: number;
  #buffer: AgentUIChunk[] = [];
  #chars = 0;
  #urgent = false;
  #next = 0;
  #started = false;
  #stopped = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #inflight: Promise<void> | null = null;

  constructor(
    store: EventLogStore,
    id: string,
    turnId: string,
    options: { ready?: Promise<unknown>; flushMs?: number; next?: number } = {},
  ) {
    this.#store = store;
    this.#id = id;
    this.#turnId = turnId;
    this.#ready = options.ready ?? Promise.resolve();
    this.#flushMs = options.flushMs ?? FLUSH_MS;
    // A turn taken over from another instance (a restored parked turn) continues its log after what it wrote.
    if (options.next !== undefined && options.next > 0) {
      this.#next = options.next;
      this.#started = true;
    }
  }

  /** The turn this writer logs. */
  get turnId(): string {
    return this.#turnId;
  }

  /** Logs one chunk of the turn whose assistant message is `messageId`. */
  push(chunk: AgentUIChunk, messageId: string): void {
    if (this.#stopped) return;
    if (!this.#started) {
      // Position 0 is the turn's start: a reader replaying from the beginning learns the message id from it.
      this.#started = true;
      this.#buffer.push({ type: 'start', messageId });
    }
    const last = this.#buffer.at(-1);
    if (
      isDelta(chunk) &&
      last?.type === chunk.type &&
      last.id === chunk.id &&
      last.delta.length < FLUSH_CHARS
    ) {
      this.#buffer[this.#buffer.length - 1] = { ...last, delta: last.delta + chunk.delta };
    } else if (isLive(chunk)) {
      const toolCallId = (chunk as { toolCallId: string }).toolCallId;
      const at = this.#buffer.findIndex(
        (c) => isLive(c) && (c as { toolCallId: string }).toolCallId === toolCallId,
      );
      if (at >= 0) this.#buffer[at] = chunk;
      else this.#buffer.push(chunk);
    } else this.#buffer.push(chunk);
    this.#chars += size(chunk);
    if (urgent(chunk)) this.#urgent = true;
    this.#schedule();
  }

  #schedule(): void {
    if (this.#inflight || this.#stopped || this.#buffer.length === 0) return;
    if (this.#urgent || this.#chars >= FLUSH_CHARS) {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = undefined;
      this.#flush();
    } else
      this.#timer ??= setTimeout(() => {
        this.#timer = undefined;
        this.#flush();
      }, this.#flushMs);
  }

  #flush(): void {
    const batch = this.#buffer.splice(0, MAX_EVENTS_PER_APPEND);
    this.#chars = this.#buffer.reduce((n, c) => n + size(c), 0);
    this.#urgent = this.#buffer.some(urgent);
    this.#inflight = (async () => {
      try {
        await this.#ready;
        this.#next = await this.#store.appendEvents(this.#id, {
          turnId: this.#turnId,
          seq: this.#next,
          events: batch as unknown as JsonValue[],
        });
      } catch (error) {
        this.#stopped = true;
        this.#buffer = [];
        if (!isSessionStoreError(error, 'conflict'))
          console.error(`codeagent-web: the live log of session ${this.#id} stopped: ${String(error)}`);
      } finally {
        this.#inflight = null;
        this.#schedule();
      }
    })();
  }

  /** Writes what is pending and waits for it (before the turn's end is stored). */
  async close(): Promise<void> {
    for (;;) {
      if (this.#timer) clearTimeout(this.#timer);
      this.#timer = undefined;
      if (this.#inflight) await this.#inflight;
      else if (this.#buffer.length > 0 && !this.#stopped) this.#flush();
      else return;
    }
  }
}

/** One chunk a follower sends, with its position in the log (`null` for what the follower adds itself). */
export interface FollowedChunk {
  readonly seq: number | null;
  readonly chunk: AgentUIChunk;
}

/** Options of {@link followTurn}. */
export interface FollowOptions {
  /** The last position the client saw (its `Last-Event-ID`): later events are sent; default -1, the whole turn. */
  readonly after?: number;
  /** Approvals this request answered (not parked on again while the running instance takes the answers). */
  readonly answered?: ReadonlySet<string>;
  readonly signal?: AbortSignal;
  /** Whether the instance running the turn is alive (false: the turn is over, shown interrupted). */
  readonly ownerAlive?: (owner: string | null) => Promise<boolean>;
}

/** The state of the turn's calls, rebuilt from its log. */
class Calls {
  /** Calls without a result: their approval id once one was requested. */
  readonly open = new Map<string, string | null>();
  apply(c: AgentUIChunk): void {
    if (c.type === 'tool-input-available' || c.type === 'tool-input-start') {
      if (!this.open.has(c.toolCallId)) this.open.set(c.toolCallId, null);
    } else if (c.type === 'tool-approval-request') this.open.set(c.toolCallId, c.approvalId);
    else if (
      (c.type === 'tool-output-available' && c.preliminary !== true) ||
      c.type === 'tool-output-error' ||
      c.type === 'tool-output-denied' ||
      c.type === 'tool-input-error'
    )
      this.open.delete(c.toolCallId);
  }
  /** The approvals the turn waits for when every open call waits for one; else none. */
  waiting(): string[] {
    const ids = [...this.open.values()];
    return ids.length > 0 && ids.every((a) => a !== null) ? (ids as string[]) : [];
  }
}

/**
 * Streams the turn `turnId` of session `id` from its event log: the events after `after` (a `start` first when the
 * client has the beginning), then every new one as it is appended, until the turn's `finish`, until it parks at
 * approvals nobody answered (a `finish` with `awaitingApproval` and the position, so an answer sent to any instance
 * continues from there), or until the turn is over without one (its instance died: `finish` interrupted). A gap in
 * the log (pruned, damaged) ends the stream with an error: the stored history is the durable record.
 */
export function followTurn(
  store: EventLogStore,
  id: string,
  turnId: string,
  options: FollowOptions = {},
): ReadableStream<FollowedChunk> {
  const after = Number.isSafeInteger(options.after) ? Math.max(-1, options.after as number) : -1;
  const answered = options.answered ?? new Set<string>();
  const calls = new Calls();
  let read = -1;
  let lastSeq = -1;
  let lastMoved = Date.now();
  let lastLooked = Date.now();
  let ownerChecked = Date.now();
  let catchingUp = true;
  let sessionChanged = false;
  let wake: (() => void) | undefined;
  // Set by a notification; a notification that comes while the follower reads must not be lost (it would then
  // wait a whole poll).
  let poked = false;
  const rouse = () => {
    poked = true;
    const w = wake;
    wake = undefined;
    w?.();
  };
  const offEvents = store.subscribeEvents((c) => {
    if (c.id === id && c.turnId === turnId) rouse();
  });
  const offSession = store.subscribe((c) => {
    if (c.id !== id) return;
    sessionChanged = true;
    rouse();
  });
  options.signal?.addEventListener('abort', rouse, { once: true });
  const stop = () => {
    offEvents();
    offSession();
    options.signal?.removeEventListener('abort', rouse);
    rouse();
  };
  let queue: FollowedChunk[] = [];
  let done = false;
  let messageId: string | null = null;

  /** Reads what the log has after `read`; false when the stream is over. */
  const readMore = async (): Promise<boolean> => {
    for (;;) {
      poked = false;
      const events = await store.readEvents(id, { turnId, after: read, limit: 200 });
      if (events.length === 0) {
        catchingUp = false;
        return true;
      }
      if ((events[0] as { seq: number }).seq !== read + 1) {
        queue.push({
          seq: null,
          chunk: {
            type: 'error',
            errorText: 'part of this turn is no longer in the live log; reload the session to see it',
          },
        });
        return false;
      }
      for (const event of events) {
        read = event.seq;
        const chunk = event.data as unknown as AgentUIChunk;
        if (!isRec(chunk) || typeof chunk.type !== 'string') continue;
        if (chunk.type === 'start' && messageId === null)
          messageId = typeof chunk.messageId === 'string' ? chunk.messageId : null;
        calls.apply(chunk);
        if (event.seq <= after) continue;
        lastMoved = Date.now();
        lastSeq = event.seq;
        // While it catches up, consecutive deltas of one part go out as one (a replay is quick; the id is the last
        // position merged); once live, each logged batch goes out as it was written.
        const prev = catchingUp ? queue.at(-1) : undefined;
        if (
          prev &&
          prev.seq !== null &&
          isDelta(prev.chunk) &&
          isDelta(chunk) &&
          prev.chunk.type === chunk.type
        )
          if (prev.chunk.id === chunk.id && prev.chunk.delta.length < FLUSH_CHARS) {
            queue[queue.length - 1] = {
              seq: event.seq,
              chunk: { ...prev.chunk, delta: prev.chunk.delta + chunk.delta },
            };
            continue;
          }
        queue.push({ seq: event.seq, chunk });
        if (chunk.type === 'finish') return false;
      }
      if (events.length < 200) {
        catchingUp = false;
        return true;
      }
    }
  };

  /**
   * Looks at the stored session: `'go-on'` while the turn runs, `'ended'` when its logged end was just read, else the
   * chunk that ends this response (the turn is over without a logged end, or parked at approvals nobody answered).
   */
  const look = async (): Promise<'go-on' | 'ended' | AgentUIChunk> => {
    lastLooked = Date.now();
    sessionChanged = false;
    const record = await store.get(id);
    const turn = record?.turn;
    if (!turn || turn.id !== turnId || turn.state !== 'running') {
      // The end may have been logged just before: read it first.
      if (!(await readMore())) return 'ended';
      return {
        type: 'finish',
        messageMetadata: { awaitingApproval: false, stopReason: 'interrupted' },
      } as AgentUIChunk;
    }
    // Whether its instance still runs it is asked at most once a poll (it reads the database's connections).
    const askOwner = options.ownerAlive !== undefined && Date.now() - ownerChecked >= POLL_MS;
    if (askOwner) ownerChecked = Date.now();
    if (askOwner && options.ownerAlive && !(await options.ownerAlive(turn.owner)))
      return {
        type: 'finish',
        messageMetadata: { awaitingApproval: false, stopReason: 'interrupted' },
      } as AgentUIChunk;
    const waiting = calls.waiting();
    if (waiting.length === 0 || Date.now() - lastMoved < PARK_SETTLE_MS) return 'go-on';
    const stored = new Map(record.pending.map((p) => [p.approvalId, p.answer]));
    const open = waiting.filter((a) => !answered.has(a) && stored.get(a) === null);
    if (open.length !== waiting.length) return 'go-on';
    return {
      type: 'finish',
      messageMetadata: { awaitingApproval: true, eventSeq: Math.max(lastSeq, after) },
    } as AgentUIChunk;
  };

  const step = async (): Promise<void> => {
    if (!(await readMore())) {
      done = true;
      return;
    }
    if (queue.length > 0) return;
    const parkable = calls.waiting().length > 0;
    const now = Date.now();
    if (sessionChanged || now - lastLooked >= POLL_MS || (parkable && now - lastMoved >= PARK_SETTLE_MS)) {
      const end = await look();
      if (end !== 'go-on') {
        if (end !== 'ended') queue.push({ seq: null, chunk: end });
        done = true;
        return;
      }
    }
    if (poked) return;
    const wait = parkable ? Math.max(10, PARK_SETTLE_MS - (Date.now() - lastMoved)) : POLL_MS;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, wait);
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  };

  return new ReadableStream<FollowedChunk>({
    async start(controller) {
      try {
        // A client resuming after a position gets the turn's message id first (the whole turn starts with it).
        if (after >= 0) {
          const first = await store.readEvents(id, { turnId, after: -1, limit: 1 });
          const start = first[0]?.data;
          messageId = isRec(start) && typeof start.messageId === 'string' ? start.messageId : null;
          controller.enqueue({
            seq: null,
            chunk: { type: 'start', ...(messageId !== null ? { messageId } : {}) } as AgentUIChunk,
          });
        }
      } catch (error) {
        controller.error(error);
      }
    },
    async pull(controller) {
      try {
        while (queue.length === 0 && !done) {
          if (options.signal?.aborted) {
            done = true;
            break;
          }
          await step();
        }
        const out = queue;
        queue = [];
        for (const c of out) controller.enqueue(c);
        if (done && queue.length === 0) {
          stop();
          controller.close();
        }
      } catch (error) {
        stop();
        controller.enqueue({
          seq: null,
          chunk: { type: 'error', errorText: `following this turn failed: ${(error as Error).message}` },
        });
        controller.close();
      }
    },
    cancel() {
      done = true;
      stop();
    },
  });
}

/**
 * A `useChat`-compatible Server-Sent Events response of followed chunks: each logged event carries its position as
 * the SSE `id`, so a client can resume after it (`Last-Event-ID`, or `?after=` on the stream route).
 */
export function followResponse(stream: ReadableStream<FollowedChunk>): Response {
  const encoder = new TextEncoder();
  const body = stream.pipeThrough(
    new TransformStream<FollowedChunk, Uint8Array>({
      transform({ seq, chunk }, controller) {
        controller.enqueue(
          encoder.encode(`${seq === null ? '' : `id: ${seq}\n`}data: ${JSON.stringify(chunk)}\n\n`),
        );
      },
      flush(controller) {
        controller.enqueue(encoder.encode('data: [DONE]\n\n'));
      },
    }),
  );
  return new Response(body, { headers: UI_MESSAGE_STREAM_HEADERS });
}

/** The last position a client saw, from `Last-Event-ID` or `?after=` (untrusted); -1 for none. */
export function cursorOf(header: string | undefined, query: string | undefined): number {
  const text = (header ?? query ?? '').trim();
  if (!/^-?\d{1,15}$/.test(text)) return -1;
  return Math.max(-1, Number(text));
}
