import { isRecord as isRec } from '@codeagent/artifact-schema/internal';
import { type AgentUIChat, type AgentUIMessage, createAgentUIChat } from '@codeagent/adapter-ai-sdk-ui';
import {
  type AgentEvent,
  type CodeagentClient,
  createClient,
  loadSession,
  resumeTurnEvents,
  streamEvents,
} from '@codeagent/agent-core';
import { installPermissionGate, PERMISSION_MODES, type PermissionMode } from '@codeagent/permission-gate';
import {
  appendTurnSteps,
  createStepRecorder,
  hasEventLog,
  isSessionStoreError,
  type JsonValue,
  type SessionRecord,
  type SessionStore,
} from '@codeagent/session-store';
import { type BuiltinToolkit, createBuiltinToolkit } from '@codeagent/tools';
import type { HostConfig } from './config.js';
import { type FollowedChunk, followTurn, TurnEventWriter } from './follow.js';
import { parkedEntry, type StoredParkedTurn, storedParkedTurn } from './parked.js';
import type { OpenedStore, SessionSummary } from './store.js';

/** A session that is open in this process: its client, tools and chat. */
export interface LiveSession {
  readonly id: string;
  readonly client: CodeagentClient;
  readonly chat: AgentUIChat;
  readonly toolkit: BuiltinToolkit;
  mode: PermissionMode;
  /** The stored version this process last read or wrote. */
  version: number;
  /** The title as this process last read or wrote it. */
  title: string;
  /** The turn this process runs and stores (id and the next step's position), or null. */
  turn: { id: string; seq: number } | null;
  /** Writes of this session, in order. */
  queue: Promise<void>;
  /** Approvals whose answer from another instance was handed to the chat. */
  readonly relayed: Set<string>;
  /** Whether the store holds an agent snapshot of this session (written before the first turn). */
  hasSnapshot: boolean;
  /** Set when the session was opened with an interrupted turn (a killed instance): its saved steps count. */
  readonly interrupted: { steps: number } | null;
  /**
   * A turn parked on approvals whose instance is gone, restored from storage and not yet taken by this one: shown
   * waiting; the first answer takes it over ({@link SessionManager.claimParked}) and resumes it here.
   */
  parked: StoredParkedTurn | null;
  /** The parked step last stored for this instance's turn (JSON), so a park is stored once. */
  parkedAt: string | null;
  /** The server stops with this session's turn parked: it is left in storage as it is, for the next start. */
  shelved: boolean;
  /** The live log of the turn this process runs (what followers on any instance read), or null. */
  events: TurnEventWriter | null;
}

/** A session whose turn runs on another instance (on a shared database): shown from storage, not run here. */
export interface RemoteSession {
  readonly id: string;
  readonly remote: true;
  readonly mode: PermissionMode;
  /** The stored UI history, as the running instance last wrote it. */
  readonly messages: readonly unknown[];
  /** The approvals the turn waits for (answered on the instance that runs it). */
  readonly pending: ReadonlyArray<{ approvalId: string; toolCallId: string }>;
  /** The running turn's id (its live log is followed from here). */
  readonly turnId: string;
}

/** True when `x` is a permission mode name. */
export function isPermissionMode(x: unknown): x is PermissionMode {
  return typeof x === 'string' && (PERMISSION_MODES as readonly string[]).includes(x);
}

/** A session whose turn runs on another instance: it cannot start another turn here. */
export class SessionBusyError extends Error {
  override readonly name = 'SessionBusyError';
}

function summaryOf(s: {
  id: string;
  title: string;
  meta: Readonly<Record<string, string>>;
  createdAt: string;
  updatedAt: string;
  turnState: string | null;
}): SessionSummary {
  return {
    id: s.id,
    title: s.title,
    mode: isPermissionMode(s.meta.mode) ? s.meta.mode : 'default',
    createdAt: s.createdAt,
    updatedAt: s.updatedAt,
    turnState: s.turnState,
  };
}

type Rec = Record<string, unknown>;

/** The stored UI messages with the last assistant message marked interrupted (its instance died mid-turn). */
function markInterrupted(ui: JsonValue | null): JsonValue {
  const messages = Array.isArray(ui) ? structuredClone(ui) : [];
  const last = messages.at(-1);
  if (isRec(last) && last.role === 'assistant') {
    const meta = isRec(last.metadata) ? last.metadata : {};
    last.metadata = { ...meta, awaitingApproval: false, stopReason: 'interrupted' };
  }
  return messages;
}

/** The tool name of call `id` of a parked step. */
function nameOf(parked: StoredParkedTurn, id: string): string {
  return parked.step.calls.find((c) => c.id === id)?.name ?? '';
}

/** The text of a client-sent user message (untrusted), for the stored turn prompt. */
function promptOf(message: unknown): string {
  if (!isRec(message) || !Array.isArray(message.parts)) return '';
  return message.parts
    .filter((p): p is Rec => isRec(p) && p.type === 'text' && typeof p.text === 'string')
    .map((p) => p.text as string)
    .join('\n');
}

/**
 * Opens, creates and forgets sessions; one agent-core client per session, never shared. Everything is in the session
 * store between requests, so any instance on a shared database lists, opens and continues any session: a session
 * opened here is rebuilt from storage whenever another instance changed it. A turn's completed steps and its UI
 * history are stored as they happen; a turn whose instance died is shown interrupted with everything up to its last
 * step.
 */
export class SessionManager {
  private readonly live = new Map<string, LiveSession>();
  private readonly store: SessionStore;

  private readonly unsubscribe: () => void;
  private readonly pruner: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly opened: OpenedStore,
    private readonly config: HostConfig,
    private readonly approvalTimeoutMs?: number,
  ) {
    this.store = opened.store;
    // Answers given on another instance for a turn parked here (PostgreSQL NOTIFY reports every write).
    this.unsubscribe = this.store.subscribe((change) => {
      const live = this.live.get(change.id);
      if (live && live.chat.pending.length > 0) void this.#relayAnswers(live).catch(() => undefined);
    });
    // Finished turns' live logs go after a minute (readers still following them have read to the end by then).
    const store = this.store;
    if (hasEventLog(store)) {
      this.pruner = setInterval(
        () => void store.pruneEvents({ keepMs: 60_000 }).catch(() => undefined),
        30_000,
      );
      this.pruner.unref?.();
    }
  }

  /** Resumes this instance's parked turn with the answers another instance stored. */
  async #relayAnswers(live: LiveSession): Promise<void> {
    const record = await this.#get(live.id);
    if (!record || live.turn === null || record.turn?.id !== live.turn.id) return;
    const answers = new Map<string, { approved: boolean; reason: string | null }>();
    for (const p of live.chat.pending) {
      if (live.relayed.has(p.approvalId)) continue;
      const stored = record.pending.find((s) => s.approvalId === p.approvalId && s.answer !== null);
      if (stored?.answer)
        answers.set(p.toolCallId, { approved: stored.answer.approved, reason: stored.answer.reason });
      if (stored?.answer) live.relayed.add(p.approvalId);
    }
    if (answers.size === 0) return;
    const last = live.chat.messages.at(-1);
    if (last?.role !== 'assistant') return;
    const message = structuredClone(last) as unknown as { parts: Rec[] };
    for (const part of message.parts) {
      const answer = typeof part.toolCallId === 'string' ? answers.get(part.toolCallId) : undefined;
      if (!answer || part.state !== 'approval-requested' || !isRec(part.approval)) continue;
      part.state = 'approval-responded';
      part.approval = {
        id: part.approval.id,
        approved: answer.approved,
        ...(answer.reason !== null ? { reason: answer.reason } : {}),
      };
    }
    // The continuation streams into this instance's log (the other instance follows it through storage).
    const reader = live.chat.respond(message).getReader();
    for (;;) if ((await reader.read()).done) break;
  }

  /**
   * Stores the approval answers a page on this instance gave for a turn that runs on another instance (which takes
   * them through NOTIFY); returns the ids answered.
   */
  async answerRemote(
    id: string,
    answers: ReadonlyArray<{ approvalId: string; approved: boolean; reason: string | null }>,
  ): Promise<Set<string>> {
    const done = new Set<string>();
    for (const a of answers) {
      try {
        await this.store.answerApproval(id, a.approvalId, { approved: a.approved, reason: a.reason });
        done.add(a.approvalId);
      } catch (error) {
        if (!isSessionStoreError(error)) throw error;
      }
    }
    return done;
  }

  /**
   * Follows the running (or just finished) turn of `id` (on any instance) from its live log, after position `after`
   * (-1: from its start); `null` when there is no such log.
   */
  async follow(
    id: string,
    options: { after?: number; signal?: AbortSignal; answered?: ReadonlySet<string> },
  ): Promise<ReadableStream<FollowedChunk> | null> {
    const store = this.store;
    if (!hasEventLog(store)) return null;
    const record = await this.#get(id);
    const turn = record?.turn;
    if (!turn) return null;
    // A turn that ended a moment ago (its log is kept a minute) is replayed to its end: a page told it was running
    // reconnects after it finished.
    if (turn.state !== 'running' && (await store.lastEventSeq(id, turn.id)) < 0) return null;
    return followTurn(store, id, turn.id, { ...options, ownerAlive: this.opened.ownerAlive });
  }

  /**
   * Where a continuation after approval answers starts: the position the client's parked message names
   * (`metadata.eventSeq`, sent by a follower), else the log's end before the answers are stored (the turn waits
   * for them, so nothing after that is the client's yet).
   */
  async answerCursor(id: string, known: unknown): Promise<number> {
    const meta = isRec(known) && isRec(known.metadata) ? known.metadata : {};
    if (typeof meta.eventSeq === 'number' && Number.isSafeInteger(meta.eventSeq) && meta.eventSeq >= -1)
      return meta.eventSeq;
    const store = this.store;
    const turn = (await this.#get(id))?.turn;
    if (!hasEventLog(store) || turn?.state !== 'running') return -1;
    return store.lastEventSeq(id, turn.id);
  }

  /** Sessions, most recent first. */
  async list(): Promise<SessionSummary[]> {
    return (await this.store.list()).filter((s) => s.damaged === null).map(summaryOf);
  }

  /** One session's summary, or undefined. */
  async summary(id: string): Promise<SessionSummary | undefined> {
    const r = await this.#get(id);
    return r ? summaryOf({ ...r, turnState: r.turn?.state ?? null }) : undefined;
  }

  async #get(id: string): Promise<SessionRecord | undefined> {
    try {
      return await this.store.get(id);
    } catch (error) {
      // A damaged row is not a session the host can open (it stays listed by the store's own tools).
      if (isSessionStoreError(error, 'invalid-data') || isSessionStoreError(error, 'invalid-input'))
        return undefined;
      throw error;
    }
  }

  /** Creates a session in the given mode. */
  async create(title = 'New session', mode: PermissionMode = 'default'): Promise<SessionSummary> {
    const r = await this.store.create({ title: title.slice(0, 200), meta: { mode }, ui: [] });
    return summaryOf({ ...r, turnState: null });
  }

  /** Runs `write` after the session's earlier writes, with the version it last knew; keeps the version it returns. */
  #write(live: LiveSession, write: (version: number) => Promise<SessionRecord>): Promise<void> {
    const run = live.queue.then(async () => {
      live.version = (await write(live.version)).version;
    });
    live.queue = run.catch((error: unknown) => {
      // A write lost is a safety net lost (the turn goes on); a conflict means another writer: reload on next open.
      if (!isSessionStoreError(error))
        console.error(`codeagent-web: saving session ${live.id}: ${String(error)}`);
    });
    return run;
  }

  /** Stores the UI history (and waiting approvals) of this instance's turn; retried once over a rename elsewhere. */
  #saveUi(live: LiveSession, messages: readonly AgentUIMessage[]): void {
    // A restored parked turn is stored as its instance left it until this one takes it (or stops with it).
    if (live.parked !== null || live.shelved) return;
    const turn = live.turn;
    if (turn !== null && messages.at(-1)?.metadata?.awaitingApproval === true) {
      // The turn parks: its step goes with the approvals, so another instance can continue it (ADR 0210).
      const step = live.client.pendingStep();
      const text = step === null ? null : JSON.stringify(step);
      if (step !== null && text !== live.parkedAt) {
        live.parkedAt = text;
        const seq = turn.seq++;
        void this.#write(live, () =>
          this.store.appendStep(live.id, { turnId: turn.id, seq, step: parkedEntry(step) }),
        ).catch(() => undefined);
      }
    }
    const ui = JSON.parse(JSON.stringify(messages)) as JsonValue;
    const pending = live.chat.pending.map((p) => ({
      approvalId: p.approvalId,
      toolCallId: p.toolCallId,
      toolName: p.toolName,
      input: JSON.parse(JSON.stringify(p.input ?? null)) as JsonValue,
      requestedAt: new Date().toISOString(),
      answer: null,
    }));
    void this.#write(live, async (version) => {
      try {
        return await this.store.update(live.id, version, { ui, pending });
      } catch (error) {
        // The UI history is written only by the instance running the turn: a newer version from a rename or a mode
        // switch elsewhere is taken, and the write goes on at it.
        if (!isSessionStoreError(error, 'conflict')) throw error;
        const now = await this.store.get(live.id);
        if (!now || (live.turn !== null && now.turn?.id !== live.turn.id)) throw error;
        // Another instance took this turn over (this one was thought gone): its history is not overwritten.
        if (live.turn !== null && now.turn?.owner !== this.opened.instance) throw error;
        return this.store.update(live.id, now.version, { ui, pending });
      }
    }).catch(() => undefined);
  }

  /**
   * The live session for `id`, rebuilt from storage when another instance changed it; a {@link RemoteSession} while
   * its turn runs on another live instance; `undefined` when unknown.
   */
  async open(id: string): Promise<LiveSession | RemoteSession | undefined> {
    const existing = this.live.get(id);
    if (existing) {
      await existing.queue;
      if (existing.chat.busy) return existing;
    }
    let record = await this.#get(id);
    if (!record) {
      if (existing) await this.#dispose(existing);
      return undefined;
    }
    if (existing && existing.version === record.version) return existing;
    if (existing) await this.#dispose(existing);
    // A turn left running by an instance that is gone (killed) is interrupted: shown so, its steps kept.
    const turn = record.turn;
    const foreign = turn?.state === 'running' && turn.owner !== this.opened.instance;
    if (foreign && (await this.opened.ownerAlive(turn.owner))) {
      const mode: PermissionMode = isPermissionMode(record.meta.mode) ? record.meta.mode : 'default';
      return {
        id,
        remote: true,
        mode,
        messages: Array.isArray(record.ui) ? record.ui : [],
        pending: record.pending
          .filter((p) => p.answer === null)
          .map((p) => ({ approvalId: p.approvalId, toolCallId: p.toolCallId })),
        turnId: turn.id,
      };
    }
    // A turn parked on approvals is not lost with its instance: shown waiting, continued here on the answer.
    const parked = foreign ? storedParkedTurn(record) : null;
    if (parked) {
      const again = this.live.get(id);
      if (again) return again;
      return this.#build(record, parked);
    }
    if (foreign && turn) {
      try {
        record = await this.store.endTurn(id, {
          turnId: turn.id,
          state: 'interrupted',
          ui: markInterrupted(record.ui),
        });
      } catch (error) {
        if (!isSessionStoreError(error, 'conflict')) throw error;
        record = (await this.#get(id)) ?? record;
      }
    }
    const again = this.live.get(id);
    if (again) return again;
    return this.#build(record);
  }

  #build(record: SessionRecord, parked: StoredParkedTurn | null = null): LiveSession {
    const id = record.id;
    const mode: PermissionMode = isPermissionMode(record.meta.mode) ? record.meta.mode : 'default';
    const toolkit = createBuiltinToolkit({ cwd: this.config.cwd });
    const { model, contextWindow, maxOutputTokens } = this.config.model();
    const options = {
      model,
      cwd: this.config.cwd,
      tools: [...toolkit.tools, ...(this.config.tools?.() ?? [])],
      permissionMode: mode,
      contextWindow,
      maxOutputTokens,
    };
    // An interrupted turn's saved steps rejoin the conversation the model sees; so do a parked turn's, whose parked
    // step is then continued on top of them.
    const interruptedTurn = record.turn?.state === 'interrupted' ? record.turn : null;
    const { agent, steps } = appendTurnSteps(record.agent, parked ? record.turn : interruptedTurn);
    let client: CodeagentClient;
    let restoredParked = parked;
    try {
      client = agent === null ? createClient(options) : loadSession(agent, options);
    } catch {
      // A damaged agent session: the UI history stays readable, the conversation starts afresh.
      client = createClient(options);
      restoredParked = null;
    }
    const stored = Array.isArray(record.ui) ? record.ui : [];
    let session: LiveSession | undefined;
    const recorder = createStepRecorder((step) => {
      const s = session as LiveSession;
      const turn = s.turn;
      if (turn === null || s.shelved) return;
      const seq = turn.seq++;
      void this.#write(s, () =>
        this.store.appendStep(id, { turnId: turn.id, seq, step: step as unknown as JsonValue }),
      ).catch(() => undefined);
    });
    /** Events of the turn, as the step recorder and the chat see them. */
    const recorded = (events: AsyncIterable<AgentEvent>) =>
      (async function* () {
        for await (const event of events) {
          recorder.record(event);
          yield event;
        }
      })();
    const chat = createAgentUIChat({
      client,
      messages: stored as unknown as AgentUIMessage[],
      ...(restoredParked
        ? {
            parked: {
              approvals: restoredParked.approvals,
              resume: (answers, signal) => {
                const p = restoredParked as StoredParkedTurn;
                // The step being continued is recorded whole: what it had done, then what runs now.
                recorder.reset();
                if (p.step.text !== '') recorder.record({ type: 'delta', text: p.step.text });
                for (const c of p.step.calls) recorder.record({ type: 'tool-request', ...c });
                for (const r of p.step.results)
                  recorder.record({ type: 'tool-result', name: nameOf(p, r.id), ...r });
                const s = session as LiveSession;
                return recorded(
                  resumeTurnEvents(
                    client,
                    { step: p.step, answers },
                    // Only a turn this instance took over in the store runs here (ADR 0210).
                    { signal, claim: () => s.parked === null && s.turn?.id === p.turnId },
                  ),
                );
              },
            },
          }
        : {}),
      ...(this.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: this.approvalTimeoutMs } : {}),
      // A person answers approvals: 100 ms more before the dock appears batches the calls of one model step.
      parkSettleMs: 100,
      // Stop is an explicit call (POST .../abort): a reload mid-stream leaves the turn running, the page reconnects.
      interruptOnDisconnect: false,
      onChunk: (chunk, messageId) => (session as LiveSession).events?.push(chunk, messageId),
      run: (input, signal) => {
        recorder.reset();
        return recorded(streamEvents(client, input, { signal }));
      },
      onChange: (messages) => this.#saveUi(session as LiveSession, messages),
      onTurnEnd: () => {
        const s = session as LiveSession;
        if (s.shelved) return;
        const turn = s.turn;
        s.turn = null;
        const events = s.events;
        s.events = null;
        const ui = JSON.parse(JSON.stringify(chat.messages)) as JsonValue;
        const snapshot = JSON.parse(client.save()) as JsonValue;
        void this.#write(s, async (version) => {
          // The log's end (the turn's finish) is written before the turn is stored as ended.
          await events?.close();
          if (turn !== null)
            try {
              s.hasSnapshot = true;
              return await this.store.endTurn(id, { turnId: turn.id, state: 'done', agent: snapshot, ui });
            } catch (error) {
              if (!isSessionStoreError(error, 'conflict')) throw error;
            }
          const now = await this.store.get(id);
          return this.store.update(id, now?.version ?? version, {
            agent: snapshot,
            ui,
            pending: [],
            ...(now?.turn?.state === 'interrupted' ? { turn: null } : {}),
          });
        }).catch(() => undefined);
      },
    });
    installPermissionGate(client, {
      mode,
      cwd: this.config.cwd,
      rules: { deny: [...this.config.deny] },
      // An answer is taken in the store before the call runs: a turn whose instance dies after this is not
      // continued elsewhere, and one another instance took over runs nothing here.
      ask: async (name, input, callId) => {
        const answer = await chat.ask(name, input, callId);
        const s = session as LiveSession;
        if (s.shelved) return false;
        if (callId === undefined || s.turn === null) return answer;
        return (await this.#take(s, callId)) ? answer : false;
      },
    });
    session = {
      id,
      client,
      chat,
      toolkit,
      mode,
      version: record.version,
      title: record.title,
      turn: null,
      queue: Promise.resolve(),
      hasSnapshot: record.agent !== null,
      relayed: new Set(),
      interrupted: interruptedTurn === null ? null : { steps },
      parked: restoredParked,
      parkedAt: null,
      shelved: false,
      events: null,
    };
    this.live.set(id, session);
    return session;
  }

  /**
   * Takes the stored approval of call `toolCallId` of this instance's turn (the answer came): false when the turn is
   * no longer this instance's (another one took it over), so the call is denied here.
   */
  #take(live: LiveSession, toolCallId: string): Promise<boolean> {
    const turnId = live.turn?.id;
    const run = live.queue.then(async () => {
      for (let attempt = 0; attempt < 5; attempt++) {
        const r = await this.#get(live.id);
        const t = r?.turn;
        if (!r || !t || t.id !== turnId || t.state !== 'running' || t.owner !== this.opened.instance)
          return false;
        if (!r.pending.some((p) => p.toolCallId === toolCallId)) return true;
        try {
          const written = await this.store.update(live.id, r.version, {
            pending: r.pending.filter((p) => p.toolCallId !== toolCallId),
          });
          live.version = written.version;
          return true;
        } catch (error) {
          if (!isSessionStoreError(error, 'conflict')) throw error;
        }
      }
      return false;
    });
    live.queue = run.then(
      () => undefined,
      () => undefined,
    );
    // A store that cannot record the answer denies the call (fail closed).
    return run.catch(() => false);
  }

  /**
   * Takes over the restored parked turn of `live` in the store: one checked write names this instance its owner and
   * takes its approvals, so of two instances answering at once exactly one continues it. True when this instance
   * has it (or nothing was parked); false when another instance took it or it ended.
   */
  async claimParked(live: LiveSession): Promise<boolean> {
    const parked = live.parked;
    if (parked === null) return true;
    await live.queue;
    for (let attempt = 0; attempt < 5; attempt++) {
      const r = await this.#get(live.id);
      const t = r?.turn;
      if (!r || !t || t.id !== parked.turnId || t.state !== 'running' || t.owner !== parked.owner)
        return false;
      try {
        const written = await this.store.update(live.id, r.version, {
          owner: this.opened.instance,
          pending: [],
        });
        live.version = written.version;
        live.turn = { id: parked.turnId, seq: t.steps.length };
        live.parked = null;
        // Followers on any instance read the continuation from the turn's live log, after what its instance wrote.
        const store = this.store;
        live.events = hasEventLog(store)
          ? new TurnEventWriter(store, live.id, parked.turnId, {
              ready: live.queue,
              next: (await store.lastEventSeq(live.id, parked.turnId).catch(() => -1)) + 1,
            })
          : null;
        return true;
      } catch (error) {
        if (!isSessionStoreError(error, 'conflict')) throw error;
      }
    }
    return false;
  }

  /**
   * Gives up a restored parked turn (a new message, Stop): taken over first, then ended interrupted with its
   * approvals denied. `SessionBusyError` when another instance took it.
   */
  async #abandonParked(live: LiveSession): Promise<void> {
    if (live.parked === null) return;
    if (!(await this.claimParked(live)))
      throw new SessionBusyError(
        'another instance of the web host continues this turn; wait for it to end, then reload',
      );
    live.chat.abort();
    const turn = live.turn;
    live.turn = null;
    // The next turn's write stores the conversation as this instance has it (the parked turn's steps included).
    live.hasSnapshot = false;
    if (turn === null) return;
    const ui = JSON.parse(JSON.stringify(live.chat.messages)) as JsonValue;
    await this.#write(live, () =>
      this.store.endTurn(live.id, { turnId: turn.id, state: 'interrupted', ui: markInterrupted(ui) }),
    ).catch(() => undefined);
  }

  /** Stop: interrupts the running turn, or gives up a restored parked one. */
  async abort(live: LiveSession): Promise<void> {
    if (live.parked !== null) await this.#abandonParked(live);
    live.chat.abort();
  }

  /**
   * Records a new turn before it starts (the user sent a message): `SessionBusyError` when a turn of this session
   * runs on another instance. Approval answers continue the running turn and start none.
   */
  async beginTurn(live: LiveSession, message: unknown): Promise<void> {
    if (!isRec(message) || message.role !== 'user') return;
    await this.#abandonParked(live);
    if (live.chat.busy) {
      // A new user message interrupts this instance's running turn (its waiting approvals deny), as the chat would.
      live.chat.abort();
      await live.chat.idle();
    }
    await live.queue;
    const turnId = crypto.randomUUID();
    const prompt = promptOf(message);
    // One write: the turn, the session's name from its first prompt, and the conversation before the first turn
    // (the base an interrupted turn's steps extend).
    const named =
      live.title === 'New session' && prompt.trim() !== ''
        ? prompt.trim().replace(/\s+/g, ' ').slice(0, 80)
        : undefined;
    try {
      const record = await this.store.beginTurn(live.id, live.version, {
        turnId,
        owner: this.opened.instance,
        prompt,
        ...(named !== undefined ? { title: named } : {}),
        ...(live.hasSnapshot ? {} : { agent: JSON.parse(live.client.save()) as JsonValue }),
      });
      live.hasSnapshot = true;
      live.title = record.title;
      live.version = record.version;
      live.turn = { id: turnId, seq: 0 };
      const store = this.store;
      live.events = hasEventLog(store)
        ? new TurnEventWriter(store, live.id, turnId, { ready: live.queue })
        : null;
    } catch (error) {
      if (!isSessionStoreError(error, 'conflict')) throw error;
      const now = await this.#get(live.id);
      // Changed elsewhere since it was opened: the next open rebuilds it from storage.
      if (this.live.get(live.id) === live) this.live.delete(live.id);
      void live.toolkit.dispose();
      throw new SessionBusyError(
        now?.turn?.state === 'running'
          ? 'this session has a turn running on another instance of the web host; wait for it to end, then reload'
          : 'this session was changed on another instance of the web host; reload it',
      );
    }
  }

  /** Changes a session's permission mode in place (stored only, for a session running elsewhere). */
  async setMode(session: LiveSession | RemoteSession, mode: PermissionMode): Promise<void> {
    if (!('remote' in session)) {
      session.client.setPermissionMode(mode);
      session.mode = mode;
    }
    await this.#patch(session.id, (r) => ({ meta: { ...r.meta, mode } }));
  }

  /** Reads, patches and writes at the version read (again once over a concurrent write). */
  async #patch(
    id: string,
    patch: (r: SessionRecord) => Parameters<SessionStore['update']>[2],
  ): Promise<boolean> {
    const live = this.live.get(id);
    if (live) await live.queue;
    for (let attempt = 0; ; attempt++) {
      const r = await this.#get(id);
      if (!r) return false;
      try {
        const written = await this.store.update(id, r.version, patch(r));
        if (live && live.version === r.version) live.version = written.version;
        return true;
      } catch (error) {
        if (!isSessionStoreError(error, 'conflict') || attempt >= 3) throw error;
      }
    }
  }

  /** Renames a session; false when unknown. */
  async rename(id: string, title: string): Promise<boolean> {
    const done = await this.#patch(id, () => ({ title: title.slice(0, 200) }));
    const live = this.live.get(id);
    if (done && live) live.title = title.slice(0, 200);
    return done;
  }

  async #dispose(live: LiveSession): Promise<void> {
    if (this.live.get(live.id) === live) this.live.delete(live.id);
    live.chat.abort();
    await live.chat.idle();
    await live.queue;
    await live.toolkit.dispose();
  }

  /** Deletes a session (its running turn is interrupted); false when unknown. */
  async delete(id: string): Promise<boolean> {
    const live = this.live.get(id);
    this.live.delete(id);
    if (live) {
      live.chat.abort();
      await live.chat.idle();
      await live.queue;
      await live.toolkit.dispose();
    }
    return this.store.delete(id);
  }

  /** Interrupts every running turn, kills background jobs and waits for the last writes. */
  async close(): Promise<void> {
    this.unsubscribe();
    if (this.pruner) clearInterval(this.pruner);
    for (const live of this.live.values()) {
      await live.queue;
      // A turn that only waits for approvals, with its park stored, is left parked for the next start (ADR 0210).
      const step = live.client.pendingStep();
      if (
        live.turn !== null &&
        live.chat.pending.length > 0 &&
        step !== null &&
        JSON.stringify(step) === live.parkedAt
      )
        live.shelved = true;
      live.chat.abort();
      await live.chat.idle();
      await live.queue;
      await live.toolkit.dispose();
    }
    this.live.clear();
  }
}
