import { randomUUID } from 'node:crypto';
import { readFile, rm, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';
import {
  appendTurnSteps,
  createJsonFileStore,
  decodeSessionFile,
  isSessionStoreError,
  type JsonValue,
  processOwner,
  type SessionRecord,
  type SessionStore as Store,
  staleRunningTurn,
} from '@codeagent/session-store';

/** What a session file records besides the conversation (never a key). */
export interface SessionMeta {
  /** The folder the session ran in. */
  cwd?: string | undefined;
  provider?: string | undefined;
  model?: string | undefined;
  baseURL?: string | undefined;
  apiKeyEnv?: string | undefined;
}

/** One saved session as listed by `/sessions`. */
export interface SessionEntry extends SessionMeta {
  id: string;
  path: string;
  updatedAt: Date;
  title: string;
  /** Why the file cannot be resumed (not JSON, not a session...), or null when it is fine. */
  damaged: string | null;
  /** True when its last turn was cut off (the process was killed) and not saved whole. */
  interrupted?: boolean;
}

/** A session read for `--resume` / `--continue`. */
export interface LoadedSession {
  id: string;
  path: string;
  /** The agent-core session JSON, with the completed steps of an interrupted turn appended. */
  session: unknown;
  title: string;
  meta: SessionMeta;
  /** Set when the last turn was interrupted (a kill): how many of its steps completed (and were appended). */
  interrupted: { steps: number } | null;
}

/** Follows one turn: the journal hands it the prompt and each completed step; it saves them in order. */
export interface TurnSink {
  begin(prompt: string): void;
  /** One completed step: the assistant message and its tool results (AI SDK messages). */
  step(messages: readonly unknown[]): void;
}

const META_KEYS = ['cwd', 'provider', 'model', 'baseURL', 'apiKeyEnv'] as const;

function metaOf(record: Readonly<Record<string, string>>): SessionMeta {
  const meta: SessionMeta = {};
  for (const key of META_KEYS) if (typeof record[key] === 'string') meta[key] = record[key];
  return meta;
}

function storedMeta(meta: SessionMeta): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of META_KEYS) {
    const value = meta[key];
    if (typeof value === 'string' && value.length <= 4096) out[key] = value;
  }
  return out;
}

/** Where the CLI keeps its data: `--data-dir`, else `$CODEAGENT_HOME`, else `~/.codeagent`. */
export function resolveDataDir(flag: string | null, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.CODEAGENT_HOME) return resolve(env.CODEAGENT_HOME);
  return join(homedir(), '.codeagent');
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/**
 * The CLI's sessions: `<dataDir>/sessions/<id>.json`, one file per session, through the JSON file store of
 * `@codeagent/session-store` (versioned, written atomically under a lock; files of earlier CLIs are read and
 * rewritten in the new format). A turn's completed steps are saved as they complete, so a kill loses at most the
 * step in flight; the next resume appends them and says the turn was interrupted.
 */
export class SessionStore {
  readonly dir: string;
  #store: Promise<Store> | undefined;
  /** The version this process last read or wrote, per session (a write names it). */
  readonly #versions = new Map<string, number>();
  /** The running turn this process writes, per session. */
  readonly #turns = new Map<string, { id: string; seq: number }>();
  /** Writes of one session, in order. */
  readonly #queues = new Map<string, Promise<void>>();
  /** Sessions loaded with an interrupted turn (its steps appended to the conversation). */
  readonly #interrupted = new Set<string>();

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'sessions');
  }

  #open(): Promise<Store> {
    this.#store ??= createJsonFileStore({ dir: this.dir });
    return this.#store;
  }

  /** A fresh session id: sortable by time, unique. */
  newId(now: Date = new Date()): string {
    return `${now.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
  }

  #queue(id: string, job: () => Promise<void>): Promise<void> {
    const run = (this.#queues.get(id) ?? Promise.resolve()).then(job);
    // A failed step is a safety net lost, not the turn's end: the whole save after the turn still runs.
    const settled = run.catch(() => undefined);
    this.#queues.set(id, settled);
    return run;
  }

  #remember(record: SessionRecord): SessionRecord {
    this.#versions.set(record.id, record.version);
    return record;
  }

  /**
   * Writes the session JSON (`client.save()` output) with a title for listings; a turn this process runs is ended
   * (its steps are then in the snapshot). Returns the file path. A session changed by another process since this
   * one read it is not overwritten: the error says so.
   */
  async save(id: string, session: unknown, title: string, meta: SessionMeta = {}): Promise<string> {
    if (!ID_PATTERN.test(id)) throw new Error(`invalid session id "${id}"`);
    await this.#queues.get(id);
    const store = await this.#open();
    const agent = (session ?? null) as JsonValue;
    const fields = { title: title.slice(0, 1000), meta: storedMeta(meta) };
    const turn = this.#turns.get(id);
    this.#turns.delete(id);
    await this.#queue(id, async () => {
      const known = this.#versions.get(id);
      if (known === undefined) {
        const existing = await store.get(id);
        if (existing === undefined) {
          this.#remember(await store.create({ id, ...fields, agent }));
          return;
        }
        // A session this process did not read (an id reused across processes): only its own version may be written.
        this.#versions.set(id, existing.version);
      }
      let version = this.#versions.get(id) as number;
      if (turn !== undefined) {
        try {
          version = this.#remember(
            await store.endTurn(id, { turnId: turn.id, state: 'done', agent }),
          ).version;
        } catch (error) {
          if (!isSessionStoreError(error, 'conflict')) throw error;
          // The turn was never stored (its first write failed): the whole save below still lands.
        }
      }
      // An interrupted turn's steps were appended on resume: the snapshot holds them now, the turn is forgotten.
      const folded = this.#interrupted.delete(id);
      try {
        this.#remember(
          await store.update(id, version, { ...fields, agent, ...(folded ? { turn: null } : {}) }),
        );
        // A turn journal of an earlier CLI, read on resume, is in the snapshot now.
        await rm(this.journalPath(id), { force: true });
      } catch (error) {
        if (isSessionStoreError(error, 'conflict'))
          throw new Error(
            `session ${id} was changed by another codeagent process since this one read it; it was not overwritten (${error.message})`,
          );
        throw error;
      }
    });
    return join(this.dir, `${id}.json`);
  }

  /** Follows the turn the session `id` runs next (steps saved as they complete). */
  turnSink(id: string): TurnSink {
    const turnId = randomUUID();
    return {
      begin: (prompt) => {
        void this.#queue(id, async () => {
          const store = await this.#open();
          const version = this.#versions.get(id);
          if (version === undefined) return;
          this.#remember(await store.beginTurn(id, version, { turnId, owner: processOwner(), prompt }));
          this.#turns.set(id, { id: turnId, seq: 0 });
        }).catch(() => undefined);
      },
      step: (messages) => {
        void this.#queue(id, async () => {
          const turn = this.#turns.get(id);
          if (turn === undefined) return;
          const store = await this.#open();
          const seq = turn.seq;
          this.#remember(
            await store.appendStep(id, { turnId, seq, step: { messages: messages as JsonValue[] } }),
          );
          turn.seq = seq + 1;
        }).catch(() => undefined);
      },
    };
  }

  /** Reads a session by id or by path; throws a clear error when it is missing or not a CLI session file. */
  async load(idOrPath: string): Promise<LoadedSession> {
    const byPath = isAbsolute(idOrPath) || idOrPath.endsWith('.json');
    if (!byPath && !ID_PATTERN.test(idOrPath)) throw new Error(`invalid session id "${idOrPath}"`);
    const path = byPath ? resolve(idOrPath) : join(this.dir, `${idOrPath}.json`);
    const id = basename(path, '.json');
    let record: SessionRecord | undefined;
    try {
      if (byPath && resolve(path, '..') !== resolve(this.dir)) {
        // A file elsewhere is only read (the folder it is in is not made a session folder).
        const text = await readFile(path, 'utf8');
        record = decodeSessionFile(text, ID_PATTERN.test(id) ? id : 'session', (await stat(path)).mtime);
      } else {
        record = ID_PATTERN.test(id) ? await (await this.#open()).get(id) : undefined;
      }
    } catch (error) {
      if (isSessionStoreError(error)) throw new Error(`session file ${path}: ${error.message}`);
      record = undefined;
    }
    if (record === undefined) throw new Error(`no saved session "${idOrPath}" (looked in ${path})`);
    if (byPath && resolve(path, '..') !== resolve(this.dir)) record = { ...record, id };
    else this.#remember(record);
    let interrupted: LoadedSession['interrupted'] = null;
    let session: unknown = record.agent;
    const turn = record.turn;
    const stale = staleRunningTurn(record);
    if (turn !== null && (turn.state === 'interrupted' || stale !== null)) {
      const recovered = appendTurnSteps(record.agent, turn);
      session = recovered.agent;
      interrupted = { steps: recovered.steps };
      if (this.#versions.has(id)) this.#interrupted.add(id);
      if (stale !== null && this.#versions.has(id)) {
        // Recorded as interrupted: it shows so in listings, and the next save folds the steps in.
        try {
          this.#remember(await (await this.#open()).endTurn(id, { turnId: stale.id, state: 'interrupted' }));
        } catch {
          // Another process got there first; the steps are read either way.
        }
      }
    }
    return { id, path, session, title: record.title, meta: metaOf(record.meta), interrupted };
  }

  /** Where the journal of a session's turn in flight went in earlier CLIs (read once on resume). */
  journalPath(id: string): string {
    if (!ID_PATTERN.test(id)) throw new Error(`invalid session id "${id}"`);
    return join(this.dir, `${id}.turn-journal`);
  }

  /** The newest resumable session that ran in `cwd`, or null. */
  async latestFor(cwd: string): Promise<SessionEntry | null> {
    const wanted = resolve(cwd);
    return (await this.list()).find((s) => s.damaged === null && s.cwd === wanted) ?? null;
  }

  /** Lists saved sessions, newest first; damaged files are listed with the reason. */
  async list(): Promise<SessionEntry[]> {
    let summaries: Awaited<ReturnType<Store['list']>>;
    try {
      summaries = await (await this.#open()).list();
    } catch {
      return [];
    }
    const store = await this.#open();
    const out: SessionEntry[] = [];
    for (const s of summaries) {
      // A turn still marked running is interrupted when its process is gone (killed).
      let interrupted = s.turnState === 'interrupted';
      if (s.turnState === 'running') {
        const record = await store.get(s.id).catch(() => undefined);
        interrupted = record !== undefined && staleRunningTurn(record) !== null;
      }
      out.push({
        id: s.id,
        path: join(this.dir, `${s.id}.json`),
        updatedAt: new Date(s.updatedAt),
        title: s.title,
        damaged: s.damaged,
        ...(interrupted ? { interrupted: true } : {}),
        ...metaOf(s.meta),
      });
    }
    return out;
  }
}
