import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';

/** One session row as the list shows it. */
export interface SessionSummary {
  readonly id: string;
  readonly title: string;
  readonly mode: string;
  readonly createdAt: string;
  readonly updatedAt: string;
}

/** One stored session: the agent-core session JSON (at the last turn end) and the UI history. */
export interface StoredSession extends SessionSummary {
  /** `client.save()` output at the last turn end, or `null` before the first turn ended. */
  readonly agent: string | null;
  /** The UI messages (JSON text). */
  readonly ui: string;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** True when `id` has the shape of a session id (checked before any query). */
export function isSessionId(id: string): boolean {
  return ID.test(id);
}

/** Sessions in one SQLite file (better-sqlite3, WAL); `:memory:` for tests. */
export class SessionStore {
  private readonly db: Database.Database;

  constructor(path: string) {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    this.db = new Database(path);
    this.db.pragma('journal_mode = WAL');
    this.db.exec(`CREATE TABLE IF NOT EXISTS sessions (
      id TEXT PRIMARY KEY,
      title TEXT NOT NULL,
      mode TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      agent TEXT,
      ui TEXT NOT NULL
    )`);
  }

  /** Sessions, most recently updated first. */
  list(): SessionSummary[] {
    return this.db
      .prepare(
        'SELECT id, title, mode, created_at AS createdAt, updated_at AS updatedAt FROM sessions ORDER BY updated_at DESC, rowid DESC',
      )
      .all() as SessionSummary[];
  }

  /** One session, or `undefined`. */
  get(id: string): StoredSession | undefined {
    if (!isSessionId(id)) return undefined;
    return this.db
      .prepare(
        'SELECT id, title, mode, created_at AS createdAt, updated_at AS updatedAt, agent, ui FROM sessions WHERE id = ?',
      )
      .get(id) as StoredSession | undefined;
  }

  /** Creates a session. */
  create(id: string, title: string, mode: string): void {
    const now = new Date().toISOString();
    this.db
      .prepare(
        'INSERT INTO sessions (id, title, mode, created_at, updated_at, agent, ui) VALUES (?, ?, ?, ?, ?, NULL, ?)',
      )
      .run(id, title, mode, now, now, '[]');
  }

  /** Stores the UI history (and, when given, the agent session JSON). */
  saveMessages(id: string, ui: string, agent?: string): void {
    const now = new Date().toISOString();
    if (agent === undefined)
      this.db.prepare('UPDATE sessions SET ui = ?, updated_at = ? WHERE id = ?').run(ui, now, id);
    else
      this.db
        .prepare('UPDATE sessions SET ui = ?, agent = ?, updated_at = ? WHERE id = ?')
        .run(ui, agent, now, id);
  }

  /** Renames a session; false when it does not exist. */
  rename(id: string, title: string): boolean {
    return this.db.prepare('UPDATE sessions SET title = ? WHERE id = ?').run(title, id).changes > 0;
  }

  /** Stores the permission mode. */
  setMode(id: string, mode: string): void {
    this.db.prepare('UPDATE sessions SET mode = ? WHERE id = ?').run(mode, id);
  }

  /** Deletes a session; false when it did not exist. */
  delete(id: string): boolean {
    return this.db.prepare('DELETE FROM sessions WHERE id = ?').run(id).changes > 0;
  }

  /** Closes the database. */
  close(): void {
    this.db.close();
  }
}
