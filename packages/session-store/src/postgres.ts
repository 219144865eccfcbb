import pg from 'pg';
import type { Mutation, MutationHint } from './base.js';
import { SessionStoreError } from './errors.js';
import { migrate, type Row, type SqlClient, type SqlDriver, SqlStore, type SqlStoreOptions } from './sql.js';
import type {
  EventLogStore,
  ReadEventsOptions,
  SessionChange,
  SessionRecord,
  TurnEvent,
  TurnEventsChange,
} from './types.js';

/** Options of {@link createPostgresStore}. */
export interface PostgresStoreOptions extends SqlStoreOptions {
  /** A `postgres://user:password@host:port/database` URL (what `CODEAGENT_DATABASE_URL` holds). */
  readonly url: string;
  /** Most connections this process opens for writes; default 10. */
  readonly maxConnections?: number;
  /**
   * Most connections this process opens for reads (a session, a listing, a turn's event log), and as many again for
   * event appends; default 4. Reads and appends have their own, so a page opening a session, a follower reading a
   * log or a turn writing its log never waits behind the transactions of busy turns.
   */
  readonly maxReadConnections?: number;
  /** Milliseconds to wait for a connection; default 5000. */
  readonly connectTimeoutMs?: number;
  /**
   * How long a call keeps retrying while the server cannot be reached (restarted, failed over) before it fails
   * with `unavailable`; default 30000. A store being opened does not retry: an unreachable server at start is a
   * clear error at once.
   */
  readonly reconnectTimeoutMs?: number;
  /**
   * The `application_name` of this process's connections (at most 63 bytes), so that other instances can tell it is
   * alive ({@link PostgresSessionStore.connectedApplications}); default `codeagent`.
   */
  readonly applicationName?: string;
}

/** The PostgreSQL store: a session store with a turn event log that can also tell which instances are connected. */
export interface PostgresSessionStore extends EventLogStore {
  /**
   * The `application_name`s connected to the database now, of this instance too. An instance killed with
   * SIGKILL drops out as soon as the server sees its sockets close, so a host uses this to tell whether the owner of
   * a running turn is gone (the turn is then interrupted) or still runs it elsewhere.
   */
  connectedApplications(): Promise<string[]>;
}

/** The channel every write is announced on (`NOTIFY codeagent_sessions, '{"id":…,"version":…}'`). */
export const NOTIFY_CHANNEL = 'codeagent_sessions';

/**
 * The channel every event append is announced on (`NOTIFY codeagent_events, '{"id":…,"turnId":…,"seq":…}'`): only
 * where to read, never the events (a payload stays far below PostgreSQL's 8000-byte limit whatever was logged).
 */
export const EVENTS_CHANNEL = 'codeagent_events';

/** Shows a database URL without its password. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password !== '') u.password = '***';
    return u.toString();
  } catch {
    return '(an unreadable URL)';
  }
}

const TRANSIENT_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  '57P01', // admin_shutdown
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now (starting up, shutting down)
  '08000',
  '08001',
  '08003',
  '08004',
  '08006',
]);

/**
 * True for a failure of the connection (the server restarted, the network dropped, no pooled connection came free in
 * time), not of the statement.
 */
function transient(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown };
  if (typeof e?.code === 'string' && TRANSIENT_CODES.has(e.code)) return true;
  const message = typeof e?.message === 'string' ? e.message : '';
  // "timeout exceeded when trying to connect": every pooled connection stayed busy (a loaded server); try again.
  return /Connection terminated|connection timeout|Client has encountered a connection error|not queryable|timeout exceeded when trying to connect/i.test(
    message,
  );
}

function numbered(sql: string): string {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

class PostgresDriver implements SqlDriver {
  readonly dialect = 'postgres' as const;
  readonly pool: pg.Pool;
  readonly readPool: pg.Pool;
  /** The connections event appends use (one statement each), apart from the transactions of session writes. */
  readonly logPool: pg.Pool;
  readonly url: string;
  readonly applicationName: string;

  constructor(pool: pg.Pool, readPool: pg.Pool, logPool: pg.Pool, url: string, applicationName: string) {
    this.pool = pool;
    this.readPool = readPool;
    this.logPool = logPool;
    this.url = url;
    this.applicationName = applicationName;
  }

  static client(c: pg.PoolClient | pg.Pool): SqlClient {
    return {
      query: async (sql, params = []) => (await c.query(numbered(sql), params as unknown[])).rows as Row[],
      run: async (sql, params = []) => (await c.query(numbered(sql), params as unknown[])).rowCount ?? 0,
    };
  }

  query(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    return PostgresDriver.client(this.readPool).query(sql, params);
  }

  run(sql: string, params?: readonly unknown[]): Promise<number> {
    return PostgresDriver.client(this.pool).run(sql, params);
  }

  async transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T> {
    const c = await this.pool.connect();
    // The server may drop a checked-out connection (a restart): the failed query reports it, not a crash.
    const ignore = () => undefined;
    c.on('error', ignore);
    let broken = false;
    try {
      await c.query('BEGIN');
      const out = await fn(PostgresDriver.client(c));
      await c.query('COMMIT');
      return out;
    } catch (error) {
      broken = transient(error);
      if (!broken) await c.query('ROLLBACK').catch(() => undefined);
      throw error;
    } finally {
      c.off('error', ignore);
      c.release(broken ? true : undefined);
    }
  }

  async close(): Promise<void> {
    await Promise.all([this.pool.end(), this.readPool.end(), this.logPool.end()]);
  }
}

/**
 * One statement (its own transaction, one round trip) that appends events when the session runs the turn and the
 * log ends right before them, and announces them; it inserts nothing otherwise (the checked path then says why).
 */
const APPEND_FAST = `WITH s AS (
    SELECT 1 FROM codeagent_sessions WHERE id = $1 AND turn_id = $2 AND turn_state = 'running' FOR SHARE
  ), ins AS (
    INSERT INTO codeagent_events (session_id, turn_id, seq, data)
    SELECT $1, $2, $3::int + u.ord::int - 1, u.data FROM unnest($4::text[]) WITH ORDINALITY AS u(data, ord)
    WHERE EXISTS (SELECT 1 FROM s)
      AND (SELECT COALESCE(MAX(seq), -1) FROM codeagent_events WHERE session_id = $1 AND turn_id = $2) = $3::int - 1
    RETURNING seq
  )
  SELECT n, CASE WHEN n > 0 THEN pg_notify($5, $6) END AS notified FROM (SELECT count(*)::int AS n FROM ins) AS c`;

/** The PostgreSQL store: the SQL store with retries over reconnects and LISTEN/NOTIFY change reports. */
class PostgresStore extends SqlStore implements PostgresSessionStore {
  protected override readonly lazyDocuments = false;
  readonly #pg: PostgresDriver;
  readonly #reconnectMs: number;
  #listener: pg.Client | undefined;
  #listening: Promise<void> | undefined;
  #closed = false;
  readonly #seen = new Set<string>();
  readonly #seenEvents = new Set<string>();

  constructor(driver: PostgresDriver, options: PostgresStoreOptions) {
    super(driver, options);
    this.#pg = driver;
    this.#reconnectMs = options.reconnectTimeoutMs ?? 30_000;
  }

  async #retry<T>(what: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.#reconnectMs;
    for (let wait = 50; ; wait = Math.min(wait * 2, 1000)) {
      try {
        return await what();
      } catch (error) {
        if (!transient(error) || this.#closed) throw error;
        if (Date.now() > deadline)
          throw new SessionStoreError(
            'unavailable',
            `PostgreSQL at ${redactUrl(this.#pg.url)} has not answered for ${Math.round(this.#reconnectMs / 1000)} s: ${(error as Error).message}`,
            { cause: error },
          );
        await sleep(wait);
      }
    }
  }

  async connectedApplications(): Promise<string[]> {
    const rows = await this.#retry(() =>
      this.#pg.query(
        'SELECT DISTINCT application_name FROM pg_stat_activity WHERE datname = current_database()',
      ),
    );
    return rows.map((r) => String(r.application_name));
  }

  protected override async load(id: string): Promise<SessionRecord | undefined> {
    return this.#retry(() => super.load(id));
  }

  override async list(...args: Parameters<SqlStore['list']>) {
    return this.#retry(() => super.list(...args));
  }

  protected override async mutate(
    id: string,
    fn: (current: SessionRecord | undefined) => Mutation,
    _hint?: MutationHint,
  ): Promise<{ result: Mutation; previous: SessionRecord | undefined }> {
    // A connection lost during COMMIT leaves the outcome unknown: when the retry finds exactly the record the
    // first attempt wrote, that attempt committed and the call succeeds (it is not a conflict with itself). That
    // compares whole records, so every column is read (no hint).
    let attempted: SessionRecord | undefined;
    return this.#retry(() =>
      super.mutate(id, (current) => {
        if (attempted && current && current.version === attempted.version && same(current, attempted))
          return null;
        const result = fn(current);
        if (result !== null && !('delete' in result)) attempted = result;
        return result;
      }),
    );
  }

  protected override async afterWrite(c: SqlClient, id: string, version: number | null): Promise<void> {
    await c.query('SELECT pg_notify(?, ?)', [NOTIFY_CHANNEL, JSON.stringify({ id, version })]);
  }

  protected override async afterAppend(c: SqlClient, change: TurnEventsChange): Promise<void> {
    await c.query('SELECT pg_notify(?, ?)', [EVENTS_CHANNEL, JSON.stringify(change)]);
  }

  protected override async appendEncoded(
    id: string,
    turnId: string,
    first: number,
    encoded: readonly string[],
  ): Promise<number> {
    const end = first + encoded.length;
    const change: TurnEventsChange = { id, turnId, seq: end - 1 };
    try {
      const rows = await this.#retry(
        async () =>
          (
            await this.#pg.logPool.query(APPEND_FAST, [
              id,
              turnId,
              first,
              encoded,
              EVENTS_CHANNEL,
              JSON.stringify(change),
            ])
          ).rows,
      );
      if (Number(rows[0]?.n) === encoded.length) {
        this.notifyEvents(change);
        return end;
      }
    } catch (error) {
      // Another writer took a position (a unique violation): the checked path tells a retry from a conflict.
      if ((error as { code?: unknown }).code !== '23505') throw error;
    }
    return super.appendEncoded(id, turnId, first, encoded);
  }

  protected override runAppend(
    append: () => Promise<{ next: number; change: TurnEventsChange | null }>,
  ): Promise<number> {
    // A retry after a lost COMMIT finds the same events stored and is a no-op (see appendEvents).
    return super.runAppend(() => this.#retry(append));
  }

  override readEvents(id: string, options: ReadEventsOptions): Promise<TurnEvent[]> {
    return this.#retry(() => super.readEvents(id, options));
  }

  override lastEventSeq(id: string, turnId: string): Promise<number> {
    return this.#retry(() => super.lastEventSeq(id, turnId));
  }

  override pruneEvents(...args: Parameters<SqlStore['pruneEvents']>): Promise<number> {
    return this.#retry(() => super.pruneEvents(...args));
  }

  protected override notifyEvents(change: TurnEventsChange): void {
    // With a listener up, every append (this process's too) arrives through NOTIFY; report each once.
    const key = `${change.id}:${change.turnId}:${change.seq}`;
    if (this.#seenEvents.has(key)) return;
    this.#seenEvents.add(key);
    if (this.#seenEvents.size > 10_000) this.#seenEvents.clear();
    super.notifyEvents(change);
  }

  override subscribeEvents(listener: (change: TurnEventsChange) => void): () => void {
    const off = super.subscribeEvents(listener);
    this.#listening ??= this.#listen();
    return off;
  }

  protected override notify(change: SessionChange): void {
    // With a listener up, every write (this process's too) arrives through NOTIFY; report each once.
    const key = `${change.id}:${change.version}`;
    if (this.#seen.has(key)) return;
    this.#seen.add(key);
    if (this.#seen.size > 10_000) this.#seen.clear();
    super.notify(change);
  }

  override subscribe(listener: (change: SessionChange) => void): () => void {
    const off = super.subscribe(listener);
    this.#listening ??= this.#listen();
    return off;
  }

  /** Connects the LISTEN client, and connects it again whenever it drops (until closed). */
  async #listen(): Promise<void> {
    for (let wait = 100; !this.#closed; wait = Math.min(wait * 2, 2000)) {
      const client = new pg.Client({
        connectionString: this.#pg.url,
        connectionTimeoutMillis: 5000,
        application_name: this.#pg.applicationName,
      });
      try {
        const lost = new Promise<void>((resolve) => {
          client.on('error', () => resolve());
          client.on('end', () => resolve());
        });
        await client.connect();
        client.on('notification', (message) => {
          if (message.payload === undefined) return;
          try {
            const data = JSON.parse(message.payload) as {
              id?: unknown;
              version?: unknown;
              turnId?: unknown;
              seq?: unknown;
            };
            if (typeof data.id !== 'string') return;
            if (
              message.channel === NOTIFY_CHANNEL &&
              (typeof data.version === 'number' || data.version === null)
            )
              this.notify({ id: data.id, version: data.version });
            else if (
              message.channel === EVENTS_CHANNEL &&
              typeof data.turnId === 'string' &&
              typeof data.seq === 'number'
            )
              this.notifyEvents({ id: data.id, turnId: data.turnId, seq: data.seq });
          } catch {
            // Not ours.
          }
        });
        await client.query(`LISTEN ${NOTIFY_CHANNEL}`);
        await client.query(`LISTEN ${EVENTS_CHANNEL}`);
        this.#listener = client;
        wait = 100;
        await lost;
      } catch {
        // Retried below.
      }
      this.#listener = undefined;
      await client.end().catch(() => undefined);
      if (!this.#closed) await sleep(wait);
    }
  }

  override async close(): Promise<void> {
    this.#closed = true;
    await this.#listener?.end().catch(() => undefined);
    await super.close();
  }
}

function same(a: SessionRecord, b: SessionRecord): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

/**
 * Opens a PostgreSQL session store (node-postgres): connects, runs the schema migrations (serialised between
 * instances by an advisory lock) and fails at once with `unavailable` naming the server (password hidden) when it
 * cannot be reached. Afterwards calls retry through a server restart for up to `reconnectTimeoutMs`. Every write
 * is announced with NOTIFY, so `subscribe` sees the writes of every instance (and `subscribeEvents` the appends).
 */
export async function createPostgresStore(options: PostgresStoreOptions): Promise<PostgresSessionStore> {
  let parsed: URL;
  try {
    parsed = new URL(options.url);
  } catch {
    throw new SessionStoreError(
      'invalid-input',
      'the PostgreSQL URL is not a URL (expected postgres://user@host:port/database)',
    );
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:')
    throw new SessionStoreError(
      'invalid-input',
      `the PostgreSQL URL must start with postgres:// (got ${parsed.protocol}//)`,
    );
  const applicationName = (options.applicationName ?? 'codeagent').slice(0, 63);
  const pool = new pg.Pool({
    connectionString: options.url,
    application_name: applicationName,
    max: options.maxConnections ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  const readPool = new pg.Pool({
    connectionString: options.url,
    application_name: applicationName,
    max: options.maxReadConnections ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  const logPool = new pg.Pool({
    connectionString: options.url,
    application_name: applicationName,
    max: options.maxReadConnections ?? 4,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5000,
  });
  // An idle connection the server closed (a restart) is dropped and replaced; it must not crash the process.
  for (const p of [pool, readPool, logPool]) p.on('error', () => undefined);
  const driver = new PostgresDriver(pool, readPool, logPool, options.url, applicationName);
  try {
    await migrate(driver, undefined, options.now);
  } catch (error) {
    await driver.close().catch(() => undefined);
    if (error instanceof SessionStoreError) throw error;
    throw new SessionStoreError(
      'unavailable',
      `cannot use PostgreSQL at ${redactUrl(options.url)}: ${(error as Error).message || String((error as { code?: unknown }).code ?? error)}`,
      { cause: error },
    );
  }
  return new PostgresStore(driver, options);
}

export { SCHEMA_VERSION } from './sql.js';
