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
