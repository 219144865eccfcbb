import { randomUUID } from 'node:crypto';
import { isRecord as isRec } from '@codeagent/artifact-schema/internal';
import { BaseStore, type Mutation, type MutationHint } from './base.js';
import {
  checkId,
  DEFAULT_MAX_RECORD_BYTES,
  decodeJson,
  decodeRecord,
  encodeJson,
  StoredText,
  storedJson,
} from './codec.js';
import { notFound, SessionStoreError } from './errors.js';
import { type Clock, waitingCount } from './operations.js';
import {
  type AppendEventsInput,
  type EventLogStore,
  type JsonValue,
  type ListOptions,
  MAX_EVENTS_PER_APPEND,
  type PruneEventsOptions,
  type ReadEventsOptions,
  type SessionRecord,
  type SessionSummary,
  TURN_STATES,
  type TurnEvent,
  type TurnEventsChange,
  type TurnState,
} from './types.js';

/** A row as a driver returns it. */
export type Row = Record<string, unknown>;

/** Runs statements (placeholders are `?`; the PostgreSQL driver numbers them). */
export interface SqlClient {
  query(sql: string, params?: readonly unknown[]): Promise<Row[]>;
  /** Runs a statement; resolves to the number of rows it changed. */
  run(sql: string, params?: readonly unknown[]): Promise<number>;
}

/** A database the SQL store runs on. */
export interface SqlDriver extends SqlClient {
  readonly dialect: 'sqlite' | 'postgres';
  /** Runs `fn` in one transaction that locks what it writes (SQLite `BEGIN IMMEDIATE`, PostgreSQL row locks). */
  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/** One schema migration: statements run in one transaction, recorded in `codeagent_schema`. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly statements: readonly string[];
}

/** The schema, as migrations (the same SQL in both dialects: TEXT and INTEGER columns, JSON kept as text). */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'sessions and steps',
    statements: [
      `CREATE TABLE codeagent_sessions (
        id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        title TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL,
        meta TEXT NOT NULL,
        turn_state TEXT,
        pending_count INTEGER NOT NULL,
        head TEXT NOT NULL,
        agent TEXT,
        ui TEXT
      )`,
      `CREATE TABLE codeagent_steps (
        session_id TEXT NOT NULL,
        turn_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (session_id, turn_id, seq)
      )`,
    ],
  },
  {
    version: 2,
    name: 'listing index',
    statements: ['CREATE INDEX codeagent_sessions_updated ON codeagent_sessions (updated_at)'],
  },
  {
    version: 3,
    name: 'turn event log',
    statements: [
      // The running (or last) turn's id as a column, so an append checks it without reading the head.
      'ALTER TABLE codeagent_sessions ADD COLUMN turn_id TEXT',
      `CREATE TABLE codeagent_events (
        session_id TEXT NOT NULL,
        turn_id TEXT NOT NULL,
        seq INTEGER NOT NULL,
        data TEXT NOT NULL,
        PRIMARY KEY (session_id, turn_id, seq)
      )`,
    ],
  },
  {
    version: 4,
    name: 'document revision',
    statements: [
      // A fresh id each time agent or ui is written: a process that cached the documents of a row knows them current.
      'ALTER TABLE codeagent_sessions ADD COLUMN doc_rev TEXT',
    ],
  },
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = MIGRATIONS[MIGRATIONS.length - 1]?.version ?? 0;

/**
 * Brings the database to {@link SCHEMA_VERSION}: refuses one migrated by newer code (`schema-too-new`) and one
 * with a migration recorded as started but not finished (`migration-incomplete`); runs each missing migration in
 * its own transaction (serialised between instances: SQLite's write lock, a PostgreSQL advisory lock).
 */
export async function migrate(
  driver: SqlDriver,
  migrations: readonly Migration[] = MIGRATIONS,
  clock: Clock = () => new Date(),
): Promise<number> {
  const latest = migrations[migrations.length - 1]?.version ?? 0;
  let applied = 0;
  for (;;) {
    const done = await driver.transaction(async (c) => {
      if (driver.dialect === 'postgres') await c.query('SELECT pg_advisory_xact_lock(72401519)');
      await c.run(`CREATE TABLE IF NOT EXISTS codeagent_schema (
        version INTEGER PRIMARY KEY,
        name TEXT NOT NULL,
        state TEXT NOT NULL,
        applied_at TEXT NOT NULL
      )`);
      const rows = await c.query('SELECT version, name, state FROM codeagent_schema ORDER BY version');
      const half = rows.find((r) => r.state !== 'applied');
      if (half)
        throw new SessionStoreError(
          'migration-incomplete',
          `schema migration ${String(half.version)} ("${String(half.name)}") was started and not finished (state "${String(half.state)}"): the database may be half migrated. Restore it from a backup, or finish that migration by hand and mark it applied in codeagent_schema, before starting codeagent.`,
        );
      const current = rows.reduce((max, r) => Math.max(max, Number(r.version)), 0);
      if (current > latest)
        throw new SessionStoreError(
          'schema-too-new',
          `the database has schema version ${current}, newer than this codeagent (${latest}); upgrade codeagent (it never runs on a schema it does not know)`,
        );
      const next = migrations.find((m) => m.version > current);
      if (!next) return true;
      await c.run('INSERT INTO codeagent_schema (version, name, state, applied_at) VALUES (?, ?, ?, ?)', [
        next.version,
        next.name,
        'applying',
        clock().toISOString(),
      ]);
      for (const statement of next.statements) await c.run(statement);
      await c.run("UPDATE codeagent_schema SET state = 'applied' WHERE version = ?", [next.version]);
      applied++;
      return false;
    });
    if (done) return applied;
  }
}

const COLUMNS =
  'id, version, title, created_at, updated_at, meta, turn_state, pending_count, head, agent, ui, doc_rev';

/** Options shared by the SQL stores. */
export interface SqlStoreOptions {
  /** Largest record (its JSON text) written; default 64 MiB. */
  readonly maxRecordBytes?: number;
  /** Clock for stored times (tests). */
  readonly now?: () => Date;
}

interface Encoded {
  readonly title: string;
  readonly meta: string;
  readonly head: string;
  readonly agent: string | null;
  readonly ui: string | null;
  readonly steps: readonly string[];
}

/** The stored texts of the large documents of a loaded row (`undefined`: not read, the write replaces it). */
interface StoredTexts {
  readonly agent: string | null | undefined;
  readonly ui: string | null | undefined;
  /** The stored text of each step of the loaded turn. */
  readonly steps: readonly string[];
}

/**
 * The columns of a record. A large document the write leaves as it was (the same object as the loaded one) is not
 * written, so it is not encoded either: the size check counts its stored text.
 */
function encode(r: SessionRecord, max: number, previous?: SessionRecord, stored?: StoredTexts): Encoded {
  const { steps = [], ...turn } = r.turn ?? {};
  const kept = (doc: 'agent' | 'ui'): string | undefined => {
    const text = stored?.[doc];
    return previous !== undefined && r[doc] === previous[doc] && typeof text === 'string' ? text : undefined;
  };
  const out: Encoded = {
    title: encodeJson(r.title, 'title', r.id),
    meta: encodeJson(r.meta, 'meta', r.id),
    head: encodeJson({ turn: r.turn === null ? null : turn, pending: r.pending }, 'the turn', r.id),
    // A document the write kept or was given is held as its text (StoredText): written as it is, not re-encoded.
    agent: r.agent === null ? null : (kept('agent') ?? storedJson(r.agent, 'agent', r.id)),
    ui: r.ui === null ? null : (kept('ui') ?? storedJson(r.ui, 'ui', r.id)),
    // A step loaded with the record keeps its stored text; a new one is encoded.
    steps: steps.map((s, i) =>
      previous?.turn?.steps[i] === s && stored?.steps[i] !== undefined
        ? (stored.steps[i] as string)
        : storedJson(s, 'a step', r.id),
    ),
  };
  let size =
    out.title.length + out.meta.length + out.head.length + (out.agent?.length ?? 0) + (out.ui?.length ?? 0);
  for (const s of out.steps) size += s.length;
  if (size > max)
    throw new SessionStoreError('too-large', `session "${r.id}" would be larger than ${max} bytes`, {
      sessionId: r.id,
    });
  return out;
}

/** Reads a stored row (untrusted) and the steps of its turn into a record; `invalid-data` for garbage. */
export function decodeRow(row: Row, steps: readonly Row[]): SessionRecord {
  const id = typeof row.id === 'string' ? row.id : undefined;
  const head = decodeJson(row.head, 'head', id);
  const turn =
    isRec(head) && isRec(head.turn)
      ? { ...head.turn, steps: steps.map((s) => decodeJson(s.data, 'a step', id)) }
      : null;
  return decodeRecord(
    {
      id: row.id,
      version: typeof row.version === 'string' ? Number(row.version) : row.version,
      title: decodeJson(row.title, 'title', id),
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      meta: decodeJson(row.meta, 'meta', id),
      agent: row.agent === null || row.agent === undefined ? null : decodeJson(row.agent, 'agent', id),
      ui: row.ui === null || row.ui === undefined ? null : decodeJson(row.ui, 'ui', id),
      turn,
      pending: isRec(head) ? head.pending : undefined,
    },
    id,
  );
}

/** A summary of a listed row; a row that cannot be read is listed as damaged with the reason. */
function summaryOf(row: Row): SessionSummary {
  const id = typeof row.id === 'string' ? row.id : '';
  try {
    const title = decodeJson(row.title, 'title', id);
    const meta = decodeJson(row.meta, 'meta', id);
    const version = typeof row.version === 'string' ? Number(row.version) : row.version;
    const state = row.turn_state;
    const pending = typeof row.pending_count === 'string' ? Number(row.pending_count) : row.pending_count;
    if (typeof title !== 'string') throw new Error('title is not text');
    if (!isRec(meta) || Object.values(meta).some((v) => typeof v !== 'string'))
      throw new Error('meta is not a map of text');
    if (typeof version !== 'number' || !Number.isSafeInteger(version) || version < 1)
      throw new Error('bad version');
    if (state !== null && !(TURN_STATES as readonly unknown[]).includes(state))
      throw new Error('bad turn state');
    if (typeof row.created_at !== 'string' || typeof row.updated_at !== 'string')
      throw new Error('bad times');
    return {
      id,
      version,
      title,
      createdAt: row.created_at,
      updatedAt: row.updated_at,
      meta: meta as Record<string, string>,
      turnState: state as TurnState | null,
      pendingCount: typeof pending === 'number' && Number.isSafeInteger(pending) ? pending : 0,
      damaged: null,
    };
  } catch (error) {
    const message = (error as Error).message.replace(/^stored session "[^"]*" is damaged: /, '');
    return {
      id,
      version: 0,
      title: '',
      createdAt: typeof row.created_at === 'string' ? row.created_at : new Date(0).toISOString(),
      updatedAt: typeof row.updated_at === 'string' ? row.updated_at : new Date(0).toISOString(),
      meta: {},
      turnState: null,
      pendingCount: 0,
      damaged: message.slice(0, 200),
    };
  }
}

/** Most characters of event data one {@link SqlStore.readEvents} call returns (at least one event): 8 MiB. */
const READ_EVENTS_BUDGET = 8 * 1024 * 1024;

const asNumber = (x: unknown): number => (typeof x === 'string' ? Number(x) : (x as number));

/** The SQL store over a driver: the same rows and semantics for SQLite and PostgreSQL. */
/** Stored texts of the large documents cached per session (64 MiB of text at most). */
const DOCUMENT_CACHE_CHARS = 64 * 1024 * 1024;

/**
 * The stored texts of the large documents of the sessions this store last wrote, each with the document revision
 * it wrote with them (`doc_rev`, a fresh id whenever a write of any process changes a document), least recently
 * used first: a text cached under the revision the row has now is the stored text, so a write that keeps the
 * documents need not read them again.
 */
class DocumentCache {
  readonly #entries = new Map<string, { rev: string; agent: string | null; ui: string | null }>();
  #chars = 0;

  get(id: string, rev: unknown): { agent: string | null; ui: string | null } | undefined {
    const e = this.#entries.get(id);
    if (e === undefined || typeof rev !== 'string' || e.rev !== rev) return undefined;
    this.#entries.delete(id);
    this.#entries.set(id, e);
    return e;
  }

  set(id: string, rev: string, agent: string | null, ui: string | null): void {
    this.delete(id);
    const chars = (agent?.length ?? 0) + (ui?.length ?? 0);
    if (chars > DOCUMENT_CACHE_CHARS / 4) return;
    this.#entries.set(id, { rev, agent, ui });
    this.#chars += chars;
    for (const old of this.#entries.keys()) {
      if (this.#chars <= DOCUMENT_CACHE_CHARS) break;
      this.delete(old);
    }
  }

  delete(id: string): void {
    const e = this.#entries.get(id);
    if (e === undefined) return;
    this.#entries.delete(id);
    this.#chars -= (e.agent?.length ?? 0) + (e.ui?.length ?? 0);
  }
}

export class SqlStore extends BaseStore implements EventLogStore {
  readonly kind: 'sqlite' | 'postgres';
  protected readonly driver: SqlDriver;
  readonly #max: number;
  readonly #eventListeners = new Set<(change: TurnEventsChange) => void>();

  constructor(driver: SqlDriver, options: SqlStoreOptions = {}) {
    super(options.now);
    this.driver = driver;
    this.kind = driver.dialect;
    this.#max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  }

  /**
   * Whether a write may load the large documents without decoding them ({@link StoredText}); PostgreSQL's retry after a
   * lost COMMIT compares whole records, so it reads everything.
   */
  protected readonly lazyDocuments: boolean = true;
  readonly #documents = new DocumentCache();

  /**
   * Reads a record inside `c`, with the stored texts of its large documents. A document the write replaces whole
   * (`hint`) is not read: the record carries `null` for it (never written back as that: the write replaces it).
   * With `lazy`, a stored document is not decoded either: the record holds it as a {@link StoredText}.
   */
  async #loadForWrite(
    c: SqlClient,
    id: string,
    lock: boolean,
    hint: MutationHint = {},
    lazy = false,
  ): Promise<{ record: SessionRecord; stored: StoredTexts; rev: string | null } | undefined> {
    const forUpdate = lock && this.driver.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const wanted = (doc: 'agent' | 'ui') => !(doc === 'agent' ? hint.replacesAgent : hint.replacesUi);
    // Lazy: the small columns first; the documents from the cache when it holds this revision, else read.
    const columns = COLUMNS.replace(
      ', agent',
      lazy || !wanted('agent') ? ', NULL AS agent' : ', agent',
    ).replace(', ui', lazy || !wanted('ui') ? ', NULL AS ui' : ', ui');
    const rows = await c.query(`SELECT ${columns} FROM codeagent_sessions WHERE id = ?${forUpdate}`, [id]);
    let row = rows[0];
    if (!row) return undefined;
    if (lazy && (wanted('agent') || wanted('ui'))) {
      const cached = this.#documents.get(id, row.doc_rev);
      if (cached) row = { ...row, agent: cached.agent, ui: cached.ui };
      else {
        const docs = (await c.query('SELECT agent, ui FROM codeagent_sessions WHERE id = ?', [id]))[0] ?? {};
        row = { ...row, agent: docs.agent, ui: docs.ui };
      }
      if (!wanted('agent')) row = { ...row, agent: null };
      if (!wanted('ui')) row = { ...row, ui: null };
    }
    let turnId: unknown;
    try {
      const head = JSON.parse(String(row.head)) as unknown;
      turnId = isRec(head) && isRec(head.turn) ? head.turn.id : undefined;
    } catch {
      turnId = undefined;
    }
    const steps =
      typeof turnId === 'string'
        ? await c.query(
            'SELECT data FROM codeagent_steps WHERE session_id = ? AND turn_id = ? ORDER BY seq',
            [id, turnId],
          )
        : [];
    const text = (v: unknown, skipped: boolean | undefined): string | null | undefined =>
      skipped ? undefined : typeof v === 'string' ? v : v === null || v === undefined ? null : undefined;
    const stored: StoredTexts = {
      agent: text(row.agent, hint.replacesAgent),
      ui: text(row.ui, hint.replacesUi),
      steps: steps.map((r) => (typeof r.data === 'string' ? r.data : '')),
    };
    const unread = (doc: 'agent' | 'ui') => lazy && typeof stored[doc] === 'string';
    const record = decodeRow(
      { ...row, ...(unread('agent') ? { agent: null } : {}), ...(unread('ui') ? { ui: null } : {}) },
      steps,
    );
    return {
      record:
        unread('agent') || unread('ui')
          ? {
              ...record,
              ...(unread('agent')
                ? { agent: new StoredText(stored.agent as string, id) as unknown as JsonValue }
                : {}),
              ...(unread('ui')
                ? { ui: new StoredText(stored.ui as string, id) as unknown as JsonValue }
                : {}),
            }
          : record,
      stored,
      rev: typeof row.doc_rev === 'string' ? row.doc_rev : null,
    };
  }

  async #load(c: SqlClient, id: string, lock: boolean): Promise<SessionRecord | undefined> {
    return (await this.#loadForWrite(c, id, lock))?.record;
  }

  protected async load(id: string): Promise<SessionRecord | undefined> {
    return this.#load(this.driver, id, false);
  }

  /** Hook: runs inside the write's transaction after it (PostgreSQL sends its notification here). */
  protected async afterWrite(_c: SqlClient, _id: string, _version: number | null): Promise<void> {}

  protected async mutate(
    id: string,
    fn: (current: SessionRecord | undefined) => Mutation,
    hint?: MutationHint,
  ): Promise<{ result: Mutation; previous: SessionRecord | undefined }> {
    // What the write leaves stored, remembered once it committed.
    let written: { rev: string; agent: string | null; ui: string | null } | null | undefined;
    const out = await this.driver.transaction(async (c) => {
      const loaded = await this.#loadForWrite(c, id, true, hint, this.lazyDocuments);
      const previous = loaded?.record;
      const result = fn(previous);
      if (result === null) return { result, previous };
      if ('delete' in result) {
        await c.run('DELETE FROM codeagent_steps WHERE session_id = ?', [id]);
        await c.run('DELETE FROM codeagent_events WHERE session_id = ?', [id]);
        await c.run('DELETE FROM codeagent_sessions WHERE id = ?', [id]);
        await this.afterWrite(c, id, null);
        written = null;
        return { result, previous };
      }
      const e = encode(result, this.#max, previous, loaded?.stored);
      const common = [
        result.version,
        e.title,
        result.updatedAt,
        e.meta,
        result.turn?.state ?? null,
        waitingCount(result.pending),
        e.head,
        result.turn?.id ?? null,
      ];
      // The document revision: a fresh one when a document is written, else the stored one.
      let rev = loaded?.rev ?? null;
      if (!previous) {
        rev = randomUUID();
        await c.run(
          `INSERT INTO codeagent_sessions (version, title, updated_at, meta, turn_state, pending_count, head, turn_id, id, created_at, agent, ui, doc_rev)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [...common, id, result.createdAt, e.agent, e.ui, rev],
        );
      } else {
        const sets = [
          'version = ?',
          'title = ?',
          'updated_at = ?',
          'meta = ?',
          'turn_state = ?',
          'pending_count = ?',
          'head = ?',
          'turn_id = ?',
        ];
        const params: unknown[] = [...common];
        // The large documents are written only when they changed.
        const writesAgent = result.agent !== previous.agent || hint?.replacesAgent === true;
        const writesUi = result.ui !== previous.ui || hint?.replacesUi === true;
        if (writesAgent) {
          sets.push('agent = ?');
          params.push(e.agent);
        }
        if (writesUi) {
          sets.push('ui = ?');
          params.push(e.ui);
        }
        if (writesAgent || writesUi || rev === null) {
          rev = randomUUID();
          sets.push('doc_rev = ?');
          params.push(rev);
        }
        const changed = await c.run(
          `UPDATE codeagent_sessions SET ${sets.join(', ')} WHERE id = ? AND version = ?`,
          [...params, id, previous.version],
        );
        if (changed !== 1)
          throw new SessionStoreError(
            'conflict',
            `session "${id}" was changed by another writer; reload it and try again`,
            {
              sessionId: id,
            },
          );
      }
      const before = previous?.turn;
      const after = result.turn;
      let from = 0;
      if (before && after && before.id === after.id && after.steps.length >= before.steps.length)
        from = before.steps.length;
      // A session that had no turn has no steps (a new session, its first turn): nothing to delete.
      else if (before) await c.run('DELETE FROM codeagent_steps WHERE session_id = ?', [id]);
      // Another turn replaced this one (or it was forgotten): its live log goes with it.
      if (before && before.id !== after?.id)
        await c.run('DELETE FROM codeagent_events WHERE session_id = ? AND turn_id <> ?', [
          id,
          after?.id ?? '',
        ]);
      if (after)
        for (let seq = from; seq < e.steps.length; seq++)
          await c.run('INSERT INTO codeagent_steps (session_id, turn_id, seq, data) VALUES (?, ?, ?, ?)', [
            id,
            after.id,
            seq,
            e.steps[seq],
          ]);
      await this.afterWrite(c, id, result.version);
      written = {
        rev,
        agent: e.agent,
        ui: e.ui,
      };
      return { result, previous };
    });
    if (this.lazyDocuments) {
      if (written === null) this.#documents.delete(id);
      else if (written) this.#documents.set(id, written.rev, written.agent, written.ui);
    }
    return out;
  }

  /** Hook: runs inside an append's transaction after it (PostgreSQL sends its notification here). */
  protected async afterAppend(_c: SqlClient, _change: TurnEventsChange): Promise<void> {}

  /** Reports an append to this process's event listeners. */
  protected notifyEvents(change: TurnEventsChange): void {
    for (const listener of this.#eventListeners) {
      try {
        listener(change);
      } catch {
        // A listener's failure is its own.
      }
    }
  }

  subscribeEvents(listener: (change: TurnEventsChange) => void): () => void {
    this.#eventListeners.add(listener);
    return () => this.#eventListeners.delete(listener);
  }

  async appendEvents(id: string, input: AppendEventsInput): Promise<number> {
    checkId(id);
    const turnId = checkId(input.turnId);
    const first = input.seq;
    if (!Number.isSafeInteger(first) || first < 0)
      throw new SessionStoreError('invalid-input', 'an event position must be a non-negative integer', {
        sessionId: id,
      });
    if (!Array.isArray(input.events) || input.events.length > MAX_EVENTS_PER_APPEND)
      throw new SessionStoreError(
        'invalid-input',
        `events must be a list of at most ${MAX_EVENTS_PER_APPEND}`,
        { sessionId: id },
      );
    const encoded = input.events.map((event) => {
      const text = encodeJson(event, 'an event', id);
      if (text.length > this.#max)
        throw new SessionStoreError(
          'too-large',
          `an event of session "${id}" is larger than ${this.#max} bytes`,
          {
            sessionId: id,
          },
        );
      return text;
    });
    if (encoded.length === 0) return first;
    return this.appendEncoded(id, turnId, first, encoded);
  }

  /** Appends checked, encoded events (PostgreSQL first tries one statement, then this). */
  protected async appendEncoded(
    id: string,
    turnId: string,
    first: number,
    encoded: readonly string[],
  ): Promise<number> {
    const end = first + encoded.length;
    return this.runAppend(async () =>
      this.driver.transaction(async (c) => {
        const share = this.driver.dialect === 'postgres' ? ' FOR SHARE' : '';
        const rows = await c.query(
          `SELECT turn_id, turn_state, (SELECT MAX(seq) FROM codeagent_events WHERE session_id = ? AND turn_id = ?) AS last
           FROM codeagent_sessions WHERE id = ?${share}`,
          [id, turnId, id],
        );
        const row = rows[0];
        if (!row) throw notFound(id);
        if (row.turn_id !== turnId || row.turn_state !== 'running')
          throw new SessionStoreError(
            'conflict',
            `session "${id}" does not run turn "${turnId}" (it ended, or another turn replaced it)`,
            { sessionId: id },
          );
        const next = row.last === null || row.last === undefined ? 0 : asNumber(row.last) + 1;
        if (first < next) {
          // A retry after a lost commit writes exactly what is stored: a no-op. Anything else overlaps.
          const stored = await c.query(
            'SELECT seq, data FROM codeagent_events WHERE session_id = ? AND turn_id = ? AND seq >= ? AND seq < ? ORDER BY seq',
            [id, turnId, first, end],
          );
          if (stored.length === encoded.length && stored.every((r, i) => r.data === encoded[i]))
            return { next, change: null };
          throw new SessionStoreError(
            'conflict',
            `events from ${first} of turn "${turnId}" overlap ${next} stored events written by another writer`,
            { sessionId: id },
          );
        }
        if (first > next)
          throw new SessionStoreError(
            'conflict',
            `events from ${first} of turn "${turnId}" would leave a gap after ${next} stored events`,
            { sessionId: id },
          );
        for (let at = 0; at < encoded.length; at += 200) {
          const part = encoded.slice(at, at + 200);
          await c.run(
            `INSERT INTO codeagent_events (session_id, turn_id, seq, data) VALUES ${part.map(() => '(?, ?, ?, ?)').join(', ')}`,
            part.flatMap((data, i) => [id, turnId, first + at + i, data]),
          );
        }
        const change: TurnEventsChange = { id, turnId, seq: end - 1 };
        await this.afterAppend(c, change);
        return { next: end, change };
      }),
    );
  }

  /** Runs one append (PostgreSQL wraps it in its reconnect retries); reports it when it wrote. */
  protected async runAppend(
    append: () => Promise<{ next: number; change: TurnEventsChange | null }>,
  ): Promise<number> {
    const { next, change } = await append();
    if (change) this.notifyEvents(change);
    return next;
  }

  async readEvents(id: string, options: ReadEventsOptions): Promise<TurnEvent[]> {
    checkId(id);
    const turnId = checkId(options.turnId);
    const after = Number.isSafeInteger(options.after) ? Math.max(-1, options.after as number) : -1;
    const limit = Math.max(1, Math.min(1000, Math.floor(options.limit ?? 1000)));
    // The running total of sizes keeps one read bounded (a log of huge tool outputs is read over several calls).
    const rows = await this.driver.query(
      `SELECT seq, data FROM (
         SELECT seq, data, SUM(LENGTH(data)) OVER (ORDER BY seq) - LENGTH(data) AS before
         FROM codeagent_events WHERE session_id = ? AND turn_id = ? AND seq > ? ORDER BY seq LIMIT ?
       ) AS window_rows WHERE before < ? ORDER BY seq`,
      [id, turnId, after, limit, READ_EVENTS_BUDGET],
    );
    return rows.map((r) => {
      const seq = asNumber(r.seq);
      if (!Number.isSafeInteger(seq) || seq < 0)
        throw new SessionStoreError(
          'invalid-data',
          `stored session "${id}" is damaged: an event position is not a number`,
          {
            sessionId: id,
          },
        );
      return { seq, data: decodeJson(r.data, `event ${seq}`, id) as TurnEvent['data'] };
    });
  }

  async lastEventSeq(id: string, turnId: string): Promise<number> {
    checkId(id);
    checkId(turnId);
    const rows = await this.driver.query(
      'SELECT MAX(seq) AS last FROM codeagent_events WHERE session_id = ? AND turn_id = ?',
      [id, turnId],
    );
    const last = rows[0]?.last;
    return last === null || last === undefined ? -1 : asNumber(last);
  }

  async pruneEvents(options: PruneEventsOptions = {}): Promise<number> {
    const keepMs = Math.max(0, options.keepMs ?? 60_000);
    const cutoff = new Date(this.clock().getTime() - keepMs).toISOString();
    return this.driver.run(
      `DELETE FROM codeagent_events WHERE NOT EXISTS (
         SELECT 1 FROM codeagent_sessions s
         WHERE s.id = codeagent_events.session_id AND s.turn_id = codeagent_events.turn_id
           AND (s.turn_state = 'running' OR s.updated_at > ?)
       )`,
      [cutoff],
    );
  }

  async list(options: ListOptions = {}): Promise<SessionSummary[]> {
    const limit = options.limit === undefined ? -1 : Math.max(0, Math.floor(options.limit));
    const rows = await this.driver.query(
      `SELECT id, version, title, created_at, updated_at, meta, turn_state, pending_count FROM codeagent_sessions
       ORDER BY updated_at DESC, id DESC`,
    );
    let out = rows.map(summaryOf);
    if (options.meta) {
      const want = Object.entries(options.meta);
      out = out.filter((s) => s.damaged === null && want.every(([k, v]) => s.meta[k] === v));
    }
    return limit < 0 ? out : out.slice(0, limit);
  }

  async close(): Promise<void> {
    await this.driver.close();
  }
}
