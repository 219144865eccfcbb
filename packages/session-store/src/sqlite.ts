import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { SessionStoreError } from './errors.js';
import { migrate, type Row, type SqlClient, type SqlDriver, SqlStore, type SqlStoreOptions } from './sql.js';
import type { EventLogStore } from './types.js';

/** Options of {@link createSqliteStore}. */
export interface SqliteStoreOptions extends SqlStoreOptions {
  /** The database file (its folder is created), or `:memory:`. */
  readonly path: string;
  /** Milliseconds to wait for another process's write lock; default 5000. */
  readonly busyTimeoutMs?: number;
}

/** One better-sqlite3 connection; calls are queued so that a transaction's statements never interleave. */
class SqliteDriver implements SqlDriver {
  readonly dialect = 'sqlite' as const;
  readonly #db: Database.Database;
  readonly #busyMs: number;
  #queue: Promise<unknown> = Promise.resolve();

  constructor(db: Database.Database, busyMs: number) {
    this.#db = db;
    this.#busyMs = busyMs;
  }

  /**
   * `BEGIN IMMEDIATE`, waiting for another connection's write lock without blocking the event loop (SQLite's own
   * busy timeout would spin synchronously, and the holder may be this very process).
   */
  async #begin(): Promise<void> {
    const deadline = Date.now() + this.#busyMs;
    for (let wait = 1; ; wait = Math.min(wait * 2, 25)) {
      try {
        this.#db.exec('BEGIN IMMEDIATE');
        return;
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if ((code !== 'SQLITE_BUSY' && code !== 'SQLITE_LOCKED') || Date.now() > deadline) throw error;
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }
  }

  #serial<T>(fn: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(fn, fn);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  #client: SqlClient = {
    query: async (sql, params = []) => this.#db.prepare(sql).all(...params) as Row[],
    run: async (sql, params = []) => {
      const statement = this.#db.prepare(sql);
      if (!statement.reader) return statement.run(...params).changes;
      statement.all(...params);
      return 0;
    },
  };

  query(sql: string, params?: readonly unknown[]): Promise<Row[]> {
    return this.#serial(() => this.#client.query(sql, params));
  }

  run(sql: string, params?: readonly unknown[]): Promise<number> {
    return this.#serial(() => this.#client.run(sql, params));
  }

  transaction<T>(fn: (client: SqlClient) => Promise<T>): Promise<T> {
    return this.#serial(async () => {
      await this.#begin();
      try {
        const out = await fn(this.#client);
        this.#db.exec('COMMIT');
        return out;
      } catch (error) {
        if (this.#db.inTransaction) this.#db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  async close(): Promise<void> {
    await this.#serial(async () => this.#db.close());
  }
}

/**
 * Opens (or creates) a SQLite session store with better-sqlite3 (WAL journal), running the schema migrations first.
 * Several processes may share the file (writes take SQLite's lock); changes and event appends are reported to this
 * process only.
 */
export async function createSqliteStore(options: SqliteStoreOptions): Promise<EventLogStore> {
  let db: Database.Database;
  try {
    if (options.path !== ':memory:') mkdirSync(dirname(options.path), { recursive: true });
    db = new Database(options.path, { timeout: 0 });
    if (options.path !== ':memory:') db.pragma('journal_mode = WAL');
  } catch (error) {
    throw new SessionStoreError(
      'unavailable',
      `cannot open the SQLite database ${options.path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  const driver = new SqliteDriver(db, options.busyTimeoutMs ?? 5000);
  try {
    await migrate(driver, undefined, options.now);
  } catch (error) {
    await driver.close();
    if (error instanceof SessionStoreError) throw error;
    throw new SessionStoreError(
      'unavailable',
      `cannot use the SQLite database ${options.path}: ${(error as Error).message}`,
      {
        cause: error,
      },
    );
  }
  return new SqlStore(driver, options);
}

export { SCHEMA_VERSION } from './sql.js';
