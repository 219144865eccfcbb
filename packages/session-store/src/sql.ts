import { isRecord as isRec } from '@codeagent/artifact-schema/internal';
import { BaseStore, type Mutation } from './base.js';
import { DEFAULT_MAX_RECORD_BYTES, decodeJson, decodeRecord, encodeJson } from './codec.js';
import { SessionStoreError } from './errors.js';
import { type Clock, waitingCount } from './operations.js';
import {
  TURN_STATES,
  type ListOptions,
  type SessionRecord,
  type SessionSummary,
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
  'id, version, title, created_at, updated_at, meta, turn_state, pending_count, head, agent, ui';

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

function encode(r: SessionRecord, max: number): Encoded {
  const { steps = [], ...turn } = r.turn ?? {};
  const out: Encoded = {
    title: encodeJson(r.title, 'title', r.id),
    meta: encodeJson(r.meta, 'meta', r.id),
    head: encodeJson({ turn: r.turn === null ? null : turn, pending: r.pending }, 'the turn', r.id),
    agent: r.agent === null ? null : encodeJson(r.agent, 'agent', r.id),
    ui: r.ui === null ? null : encodeJson(r.ui, 'ui', r.id),
    steps: steps.map((s) => encodeJson(s, 'a step', r.id)),
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

/** The SQL store over a driver: the same rows and semantics for SQLite and PostgreSQL. */
export class SqlStore extends BaseStore {
  readonly kind: 'sqlite' | 'postgres';
  protected readonly driver: SqlDriver;
  readonly #max: number;

  constructor(driver: SqlDriver, options: SqlStoreOptions = {}) {
    super(options.now);
    this.driver = driver;
    this.kind = driver.dialect;
    this.#max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
  }

  async #load(c: SqlClient, id: string, lock: boolean): Promise<SessionRecord | undefined> {
    const forUpdate = lock && this.driver.dialect === 'postgres' ? ' FOR UPDATE' : '';
    const rows = await c.query(`SELECT ${COLUMNS} FROM codeagent_sessions WHERE id = ?${forUpdate}`, [id]);
    const row = rows[0];
    if (!row) return undefined;
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
    return decodeRow(row, steps);
  }

  protected async load(id: string): Promise<SessionRecord | undefined> {
    return this.#load(this.driver, id, false);
  }

  /** Hook: runs inside the write's transaction after it (PostgreSQL sends its notification here). */
  protected async afterWrite(_c: SqlClient, _id: string, _version: number | null): Promise<void> {}

  protected async mutate(
    id: string,
    fn: (current: SessionRecord | undefined) => Mutation,
  ): Promise<{ result: Mutation; previous: SessionRecord | undefined }> {
    return this.driver.transaction(async (c) => {
      const previous = await this.#load(c, id, true);
      const result = fn(previous);
      if (result === null) return { result, previous };
      if ('delete' in result) {
        await c.run('DELETE FROM codeagent_steps WHERE session_id = ?', [id]);
        await c.run('DELETE FROM codeagent_sessions WHERE id = ?', [id]);
        await this.afterWrite(c, id, null);
        return { result, previous };
      }
      const e = encode(result, this.#max);
      const common = [
        result.version,
        e.title,
        result.updatedAt,
        e.meta,
        result.turn?.state ?? null,
        waitingCount(result.pending),
        e.head,
      ];
      if (!previous) {
        await c.run(
          `INSERT INTO codeagent_sessions (version, title, updated_at, meta, turn_state, pending_count, head, id, created_at, agent, ui)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
          [...common, id, result.createdAt, e.agent, e.ui],
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
        ];
        const params: unknown[] = [...common];
        // The large documents are written only when they changed.
        if (result.agent !== previous.agent) {
          sets.push('agent = ?');
          params.push(e.agent);
        }
        if (result.ui !== previous.ui) {
          sets.push('ui = ?');
          params.push(e.ui);
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
      else await c.run('DELETE FROM codeagent_steps WHERE session_id = ?', [id]);
      if (after)
        for (let seq = from; seq < e.steps.length; seq++)
          await c.run('INSERT INTO codeagent_steps (session_id, turn_id, seq, data) VALUES (?, ?, ?, ?)', [
            id,
            after.id,
            seq,
            e.steps[seq],
          ]);
      await this.afterWrite(c, id, result.version);
      return { result, previous };
    });
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
