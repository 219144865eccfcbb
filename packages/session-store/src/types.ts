/** A JSON value: what the store keeps for a host's documents (the agent snapshot, the UI history, steps). */
export type JsonValue = null | boolean | number | string | JsonValue[] | { [key: string]: JsonValue };

/** Where the last turn of a session stands. */
export type TurnState = 'running' | 'interrupted' | 'done';

/** Every turn state, in a fixed order. */
export const TURN_STATES: readonly TurnState[] = ['running', 'interrupted', 'done'];

/** The turn a session runs or last ran, with the steps it completed. */
export interface TurnRecord {
  /** The turn's id (unique within the session). */
  readonly id: string;
  readonly state: TurnState;
  /**
   * Who runs it: a process (`pid@host` for the CLI) or a server instance id; `null` when unknown. A host that finds
   * a `running` turn whose owner is gone marks it interrupted ({@link SessionStore.endTurn}).
   */
  readonly owner: string | null;
  /** What started the turn (the host's own shape: the user prompt). */
  readonly prompt: JsonValue;
  /** The completed steps, in order (the host's own shape: the messages of one model answer and its tool results). */
  readonly steps: readonly JsonValue[];
  /** ISO 8601. */
  readonly startedAt: string;
  /** ISO 8601: the last step, or the end. */
  readonly updatedAt: string;
}

/** The answer to a stored approval. */
export interface ApprovalAnswer {
  /** Only `true` allows. */
  readonly approved: boolean;
  /** The answer's reason (e.g. an "allow always" marker), or `null`. */
  readonly reason: string | null;
  /** ISO 8601. */
  readonly answeredAt: string;
}

/** An approval a parked turn waits for, kept so that any instance (or a restarted one) can show and answer it. */
export interface StoredApproval {
  /** The id the UI answers. */
  readonly approvalId: string;
  /** The tool call it is about. */
  readonly toolCallId: string;
  readonly toolName: string;
  /** The exact input that runs when it is approved. */
  readonly input: JsonValue;
  /** ISO 8601. */
  readonly requestedAt: string;
  /** The answer, once one came; `null` while it waits. */
  readonly answer: ApprovalAnswer | null;
}

/** One stored session: a versioned row. Every write makes `version` one larger. */
export interface SessionRecord {
  readonly id: string;
  /** 1 when created; every successful write adds one. A write names the version it read (optimistic concurrency). */
  readonly version: number;
  readonly title: string;
  /** ISO 8601. */
  readonly createdAt: string;
  /** ISO 8601. */
  readonly updatedAt: string;
  /** Host metadata (cwd, permission mode, provider, model...): short strings, never a secret. */
  readonly meta: Readonly<Record<string, string>>;
  /** The agent snapshot at the last turn end (agent-core `client.save()`, parsed), or `null`. */
  readonly agent: JsonValue | null;
  /** The host's own view of the conversation (the web host's UI messages), or `null`. */
  readonly ui: JsonValue | null;
  /** The running or last turn, or `null` before the first. */
  readonly turn: TurnRecord | null;
  /** Approvals the turn waits for (and answers that have not been taken yet). */
  readonly pending: readonly StoredApproval[];
}

/** A session as a listing shows it (no documents). */
export interface SessionSummary {
  readonly id: string;
  readonly version: number;
  readonly title: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  readonly meta: Readonly<Record<string, string>>;
  /** The state of the last turn, or `null` before the first. */
  readonly turnState: TurnState | null;
  /** Approvals waiting for an answer. */
  readonly pendingCount: number;
  /** Why the stored row cannot be read (then the other fields are placeholders), or `null` when it is fine. */
  readonly damaged: string | null;
}

/** What {@link SessionStore.create} needs. */
export interface CreateSessionInput {
  /** The id; default a random UUID. */
  readonly id?: string;
  readonly title: string;
  readonly meta?: Readonly<Record<string, string>>;
  readonly agent?: JsonValue | null;
  readonly ui?: JsonValue | null;
}

/** The fields {@link SessionStore.update} replaces (absent ones are kept). */
export interface SessionPatch {
  readonly title?: string;
  /** Replaces the whole metadata map. */
  readonly meta?: Readonly<Record<string, string>>;
  readonly agent?: JsonValue | null;
  readonly ui?: JsonValue | null;
  /** Replaces the whole list of stored approvals. */
  readonly pending?: readonly StoredApproval[];
  /**
   * `null` forgets the last turn and its steps (a host that folded an interrupted turn's steps into `agent`);
   * a running turn is only ended through {@link SessionStore.endTurn}.
   */
  readonly turn?: null;
  /**
   * A new owner of the running turn: an instance taking over a turn whose owner is gone (a turn parked on approvals,
   * continued elsewhere). Checked like every update by the version read, so of two instances racing for one turn
   * exactly one becomes its owner; `conflict` when no turn is running.
   */
  readonly owner?: string | null;
}

/** What {@link SessionStore.beginTurn} needs. */
export interface BeginTurnInput {
  /** The turn id; default a random UUID. */
  readonly turnId?: string;
  readonly owner: string | null;
  readonly prompt: JsonValue;
  /** A new title, written in the same write (a host names a session after its first prompt). */
  readonly title?: string;
  /** The agent snapshot before the turn, written in the same write (the base an interrupted turn's steps extend). */
  readonly agent?: JsonValue | null;
}

/** What {@link SessionStore.appendStep} needs. */
export interface AppendStepInput {
  readonly turnId: string;
  /** The step's position in the turn (0 for the first): a step written twice or out of order is a conflict. */
  readonly seq: number;
  readonly step: JsonValue;
}

/** What {@link SessionStore.endTurn} needs. */
export interface EndTurnInput {
  readonly turnId: string;
  readonly state: 'done' | 'interrupted';
  /** The agent snapshot after the turn (a `done` turn's steps are then folded into it and dropped). */
  readonly agent?: JsonValue | null;
  readonly ui?: JsonValue | null;
  /** Clears stored approvals too (default true). */
  readonly clearPending?: boolean;
}

/** What a listing may filter on. */
export interface ListOptions {
  /** Only sessions whose metadata has these exact values. */
  readonly meta?: Readonly<Record<string, string>>;
  /** At most this many (newest first). */
  readonly limit?: number;
}

/** A committed write, as {@link SessionStore.subscribe} reports it. */
export interface SessionChange {
  readonly id: string;
  /** The version written, or `null` for a deletion. */
  readonly version: number | null;
}

/**
 * Where sessions live. Every write is checked: {@link SessionStore.update} and {@link SessionStore.delete} name the
 * version they read, turn writes name the turn (and step position) they continue, an answer names a waiting
 * approval. A write that does not match is a `conflict` {@link SessionStoreError}, never a silent overwrite.
 */
export interface SessionStore {
  /** Which implementation this is. */
  readonly kind: 'json-files' | 'sqlite' | 'postgres';
  /** Sessions, most recently updated first; a damaged row is listed with the reason. */
  list(options?: ListOptions): Promise<SessionSummary[]>;
  /** One session, or `undefined` when there is none; a damaged row throws `invalid-data`. */
  get(id: string): Promise<SessionRecord | undefined>;
  /** Creates a session at version 1 (`exists` when the id is taken). */
  create(input: CreateSessionInput): Promise<SessionRecord>;
  /** Replaces fields when the stored version is `expectedVersion`. */
  update(id: string, expectedVersion: number, patch: SessionPatch): Promise<SessionRecord>;
  /** Starts a turn (state `running`, no steps) when the stored version is `expectedVersion`. */
  beginTurn(id: string, expectedVersion: number, input: BeginTurnInput): Promise<SessionRecord>;
  /**
   * Appends a completed step to the running turn `turnId` at position `seq`. Checked by turn and position, not by
   * row version, so a rename elsewhere does not fail a running turn; writing the same step again is a no-op.
   */
  appendStep(id: string, input: AppendStepInput): Promise<SessionRecord>;
  /** Ends the running turn `turnId` (`done` or `interrupted`). */
  endTurn(id: string, input: EndTurnInput): Promise<SessionRecord>;
  /** Records the answer of a waiting approval (`not-found` when none waits under that id, `conflict` if answered). */
  answerApproval(
    id: string,
    approvalId: string,
    answer: Omit<ApprovalAnswer, 'answeredAt'>,
  ): Promise<SessionRecord>;
  /** Deletes a session (with `expectedVersion`, only at that version); false when there was none. */
  delete(id: string, expectedVersion?: number): Promise<boolean>;
  /**
   * Calls `listener` after each committed write. PostgreSQL reports the writes of every process on the database
   * (LISTEN/NOTIFY); the file and SQLite stores report this process's writes.
   */
  subscribe(listener: (change: SessionChange) => void): () => void;
  /** Releases connections and files. */
  close(): Promise<void>;
}

/** One entry of a running turn's event log: its position in the turn (0, 1, 2...) and what the host logged. */
export interface TurnEvent {
  /** The position in the turn's log, dense from 0: a reader that resumes names the last one it saw. */
  readonly seq: number;
  /** The host's own shape (the web host logs UI message chunks). */
  readonly data: JsonValue;
}

/** What {@link TurnEventLog.appendEvents} needs. */
export interface AppendEventsInput {
  /** The running turn the events belong to. */
  readonly turnId: string;
  /** The position of the first event: the number of events logged before (a gap or an overlap is a conflict). */
  readonly seq: number;
  /** The events, in order (at most {@link MAX_EVENTS_PER_APPEND}). */
  readonly events: readonly JsonValue[];
}

/** Most events one {@link TurnEventLog.appendEvents} call writes. */
export const MAX_EVENTS_PER_APPEND = 1000;

/** What {@link TurnEventLog.readEvents} reads. */
export interface ReadEventsOptions {
  readonly turnId: string;
  /** Events after this position (default -1: from the first). */
  readonly after?: number;
  /** At most this many (default and ceiling 1000). */
  readonly limit?: number;
}

/** Events appended to a turn's log, as {@link TurnEventLog.subscribeEvents} reports them. */
export interface TurnEventsChange {
  readonly id: string;
  readonly turnId: string;
  /** The position of the last event written. */
  readonly seq: number;
}

/** What {@link TurnEventLog.pruneEvents} drops. */
export interface PruneEventsOptions {
  /**
   * Milliseconds a finished turn's log is kept after its session's last write (default 60000), so that a reader
   * still following it reads to its end; a running turn's log is never pruned.
   */
  readonly keepMs?: number;
}

/**
 * The live log of running turns, beside the stored steps: what a host streams (text deltas, tool cards, live output,
 * approval requests) so that a reader elsewhere (another instance on the same database, a page that reconnects)
 * follows the turn event by event and resumes after the last event it saw. Only the SQL stores have it (the JSON
 * file store is single-process: a host follows its own turns in memory). A turn's log is written by the one instance
 * that runs it; it is not the durable record (the steps and the UI history are): finished turns' logs are pruned.
 */
export interface TurnEventLog {
  /**
   * Appends events to the log of the running turn `turnId` at position `seq` and returns the next position.
   * `conflict` when the session does not run that turn, or `seq` leaves a gap or overlaps other events; writing the
   * same events at the same position again is a no-op (a retry after a lost commit).
   */
  appendEvents(id: string, input: AppendEventsInput): Promise<number>;
  /** The events of a turn after a position, in order; a reader checks that the first is `after + 1` (no gap). */
  readEvents(id: string, options: ReadEventsOptions): Promise<TurnEvent[]>;
  /** The position of the last event of a turn's log, or -1 when none is stored. */
  lastEventSeq(id: string, turnId: string): Promise<number>;
  /** Deletes the logs of turns that ended (or were replaced) more than `keepMs` ago; returns the rows deleted. */
  pruneEvents(options?: PruneEventsOptions): Promise<number>;
  /**
   * Calls `listener` after each committed append. PostgreSQL reports the appends of every process on the database
   * (NOTIFY carries only the session, the turn and the position); SQLite reports this process's.
   */
  subscribeEvents(listener: (change: TurnEventsChange) => void): () => void;
}

/** A session store with a turn event log (SQLite and PostgreSQL). */
export interface EventLogStore extends SessionStore, TurnEventLog {}

/** True when `store` keeps turn event logs ({@link TurnEventLog}). */
export function hasEventLog(store: SessionStore): store is EventLogStore {
  const s = store as Partial<EventLogStore>;
  return typeof s.appendEvents === 'function' && typeof s.readEvents === 'function';
}
