import { randomUUID } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { isRecord as isRec } from '@codeagent/artifact-schema/internal';
import { BaseStore, type Mutation } from './base.js';
import {
  DEFAULT_MAX_RECORD_BYTES,
  damaged,
  decodeRecord,
  encodeJson,
  storedJson,
  isSessionId,
  MAX_META_VALUE_CHARS,
} from './codec.js';
import { isSessionStoreError, SessionStoreError } from './errors.js';
import { waitingCount } from './operations.js';
import type { ListOptions, SessionRecord, SessionStore, SessionSummary } from './types.js';

/** The format number written in every session file (`codeagentCliSession`). */
export const SESSION_FILE_FORMAT = 2;
/** The schema number of a session folder (`.codeagent-store.json`). */
export const JSON_STORE_SCHEMA = 1;

/** Options of {@link createJsonFileStore}. */
export interface JsonFileStoreOptions {
  /** The folder of the session files (created when missing). */
  readonly dir: string;
  /** Largest file read or written; default 64 MiB. */
  readonly maxRecordBytes?: number;
  /** Milliseconds to wait for another writer's lock before failing with `unavailable`; default 5000. */
  readonly lockTimeoutMs?: number;
  /** A lock file older than this is taken over (its writer died); default 30000. */
  readonly staleLockMs?: number;
  /** Clock for stored times (tests). */
  readonly now?: () => Date;
}

const STORE_FILE = '.codeagent-store.json';
const LEGACY_META = ['cwd', 'provider', 'model', 'baseURL', 'apiKeyEnv'] as const;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The file text of a record. */
function encodeFile(record: SessionRecord): string {
  const { agent, ui, ...rest } = record;
  const head = encodeJson({ codeagentCliSession: SESSION_FILE_FORMAT, ...rest }, 'the session', record.id);
  // The two documents last, each written as its own text (a document the write was given is held as its text).
  return `${head.slice(0, -1)},"ui":${storedJson(ui, 'ui', record.id)},"session":${storedJson(agent, 'agent', record.id)}}\n`;
}

/**
 * Reads a session file: format 2, or a format-1 file of earlier CLIs (`{title, cwd, provider, model, session}`,
 * read as version 1 with its modification time). `invalid-data` for anything else.
 */
export function decodeSessionFile(text: string, id: string, mtime: Date): SessionRecord {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw damaged(id, 'not valid JSON');
  }
  if (!isRec(data) || !('session' in data)) throw damaged(id, 'not a codeagent session file');
  const format = data.codeagentCliSession ?? 1;
  if (format === 1) {
    const meta: Record<string, string> = {};
    for (const key of LEGACY_META) {
      const value = data[key];
      if (typeof value === 'string' && value.length <= MAX_META_VALUE_CHARS) meta[key] = value;
    }
    const at = Number.isNaN(mtime.getTime()) ? new Date(0).toISOString() : mtime.toISOString();
    return {
      id,
      version: 1,
      title: typeof data.title === 'string' ? data.title.slice(0, 4000) : '',
      createdAt: at,
      updatedAt: at,
      meta,
      agent: (data.session ?? null) as SessionRecord['agent'],
      ui: null,
      turn: null,
      pending: [],
    };
  }
  if (format !== SESSION_FILE_FORMAT) {
    if (typeof format === 'number' && format > SESSION_FILE_FORMAT)
      throw damaged(
        id,
        `written by a newer codeagent (format ${format}; this one reads up to ${SESSION_FILE_FORMAT})`,
      );
    throw damaged(id, 'unknown session file format');
  }
  return decodeRecord({ ...data, agent: data.session }, id);
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Sessions as JSON files, one per session (`<id>.json`), written atomically under a per-session lock file. */
class JsonFileStore extends BaseStore {
  readonly kind = 'json-files' as const;
  readonly #dir: string;
  readonly #max: number;
  readonly #lockTimeout: number;
  readonly #staleLock: number;
  readonly #host = hostname();
  #ready: Promise<void> | undefined;

  constructor(options: JsonFileStoreOptions) {
    super(options.now);
    this.#dir = options.dir;
    this.#max = options.maxRecordBytes ?? DEFAULT_MAX_RECORD_BYTES;
    this.#lockTimeout = options.lockTimeoutMs ?? 5000;
    this.#staleLock = options.staleLockMs ?? 30_000;
  }

  /** Creates the folder and checks (or writes) its schema file. */
  ready(): Promise<void> {
    this.#ready ??= this.#init();
    return this.#ready;
  }

  async #init(): Promise<void> {
    try {
      await mkdir(this.#dir, { recursive: true });
    } catch (error) {
      throw new SessionStoreError(
        'unavailable',
        `cannot create the session folder ${this.#dir}: ${(error as Error).message}`,
        {
          cause: error,
        },
      );
    }
    const file = join(this.#dir, STORE_FILE);
    const text = await readFile(file, 'utf8').catch(() => null);
    if (text === null) {
      await writeFile(file, `${JSON.stringify({ codeagentSessionStore: JSON_STORE_SCHEMA })}\n`, {
        flag: 'wx',
      }).catch(() => undefined);
      return;
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new SessionStoreError('invalid-data', `${file} is not valid JSON; fix or remove it`);
    }
    const schema = isRec(data) ? data.codeagentSessionStore : undefined;
    if (isRec(data) && data.migrating !== undefined)
      throw new SessionStoreError(
        'migration-incomplete',
        `the session folder ${this.#dir} was being migrated (${String(data.migrating).slice(0, 80)}) and the migration did not finish; restore the folder from a backup`,
      );
    if (typeof schema !== 'number' || !Number.isSafeInteger(schema))
      throw new SessionStoreError('invalid-data', `${file} does not name a schema version`);
    if (schema > JSON_STORE_SCHEMA)
      throw new SessionStoreError(
        'schema-too-new',
        `the session folder ${this.#dir} has schema ${schema}, newer than this codeagent (${JSON_STORE_SCHEMA}); upgrade codeagent`,
      );
  }

  #path(id: string): string {
    return join(this.#dir, `${id}.json`);
  }

  async #read(id: string): Promise<SessionRecord | undefined> {
    const path = this.#path(id);
    let info: Awaited<ReturnType<typeof stat>>;
    try {
      info = await stat(path);
    } catch {
      return undefined;
    }
    if (!info.isFile()) throw damaged(id, 'not a regular file');
    if (info.size > this.#max) throw damaged(id, `larger than ${this.#max} bytes`);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw damaged(id, `cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    return decodeSessionFile(text, id, info.mtime);
  }

  protected async load(id: string): Promise<SessionRecord | undefined> {
    await this.ready();
    return this.#read(id);
  }

  async #lock(id: string): Promise<() => Promise<void>> {
    const path = join(this.#dir, `${id}.lock`);
    const deadline = Date.now() + this.#lockTimeout;
    const mine = `${process.pid}@${this.#host} ${randomUUID()}`;
    for (let wait = 2; ; wait = Math.min(wait * 2, 50)) {
      try {
        const handle = await open(path, 'wx');
        await handle.writeFile(mine);
        await handle.close();
        return async () => {
          const text = await readFile(path, 'utf8').catch(() => null);
          if (text === mine) await rm(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
          throw new SessionStoreError(
            'unavailable',
            `cannot lock session "${id}": ${(error as Error).message}`,
            {
              sessionId: id,
              cause: error,
            },
          );
      }
      // A lock whose writer died (an old file, or a pid of this host that no longer runs) is taken over.
      const [owner, info] = await Promise.all([
        readFile(path, 'utf8').catch(() => ''),
        stat(path).catch(() => null),
      ]);
      const [pidHost] = owner.split(' ');
      const [pid, host] = (pidHost ?? '').split('@');
      const dead = host === this.#host && /^\d+$/.test(pid ?? '') && !pidAlive(Number(pid));
      if (info === null || dead || Date.now() - info.mtimeMs > this.#staleLock) {
        await rm(path, { force: true });
        continue;
      }
      if (Date.now() > deadline)
        throw new SessionStoreError(
          'unavailable',
          `session "${id}" is locked by another writer (${pidHost ?? '?'})`,
          {
            sessionId: id,
          },
        );
      await sleep(wait);
    }
  }

  protected async mutate(
    id: string,
    fn: (current: SessionRecord | undefined) => Mutation,
  ): Promise<{ result: Mutation; previous: SessionRecord | undefined }> {
    await this.ready();
    const unlock = await this.#lock(id);
    try {
      const previous = await this.#read(id);
      const result = fn(previous);
      if (result === null) return { result, previous };
      if ('delete' in result) {
        await rm(this.#path(id), { force: true });
        return { result, previous };
      }
      const text = encodeFile(result);
      if (Buffer.byteLength(text) > this.#max)
        throw new SessionStoreError('too-large', `session "${id}" would be larger than ${this.#max} bytes`, {
          sessionId: id,
        });
      const tmp = `${this.#path(id)}.${process.pid}.${randomUUID().slice(0, 8)}.tmp`;
      try {
        await writeFile(tmp, text, 'utf8');
        await rename(tmp, this.#path(id));
      } catch (error) {
        await rm(tmp, { force: true });
        throw new SessionStoreError(
          'unavailable',
          `cannot write session "${id}": ${(error as Error).message}`,
          {
            sessionId: id,
            cause: error,
          },
        );
      }
      return { result, previous };
    } finally {
      await unlock();
    }
  }

  async list(options: ListOptions = {}): Promise<SessionSummary[]> {
    await this.ready();
    let names: string[];
    try {
      names = await readdir(this.#dir);
    } catch {
      return [];
    }
    const out: SessionSummary[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const id = name.slice(0, -'.json'.length);
      if (!isSessionId(id)) continue;
      try {
        const r = await this.#read(id);
        if (!r) continue;
        if (options.meta && Object.entries(options.meta).some(([k, v]) => r.meta[k] !== v)) continue;
        out.push({
          id: r.id,
          version: r.version,
          title: r.title,
          createdAt: r.createdAt,
          updatedAt: r.updatedAt,
          meta: r.meta,
          turnState: r.turn?.state ?? null,
          pendingCount: waitingCount(r.pending),
          damaged: null,
        });
      } catch (error) {
        if (!isSessionStoreError(error)) throw error;
        if (options.meta) continue;
        const at = (await stat(join(this.#dir, name)).catch(() => null))?.mtime ?? new Date(0);
        out.push({
          id,
          version: 0,
          title: '',
          createdAt: at.toISOString(),
          updatedAt: at.toISOString(),
          meta: {},
          turnState: null,
          pendingCount: 0,
          damaged: error.message.replace(/^stored session "[^"]*" is damaged: /, '').slice(0, 200),
        });
      }
    }
    out.sort((a, b) =>
      a.updatedAt < b.updatedAt ? 1 : a.updatedAt > b.updatedAt ? -1 : a.id < b.id ? 1 : -1,
    );
    return options.limit === undefined ? out : out.slice(0, Math.max(0, options.limit));
  }

  async close(): Promise<void> {}
}

/**
 * Opens a folder of JSON session files (what the CLI keeps in `~/.codeagent/sessions`): one readable file per
 * session, rewritten atomically (a temporary file, then a rename) under a per-session lock file, so two processes
 * never overwrite each other. Files of earlier CLIs (format 1) are read as version 1 and rewritten in format 2 by
 * the next write. Rejects a folder whose schema file is newer than this code.
 */
export async function createJsonFileStore(options: JsonFileStoreOptions): Promise<SessionStore> {
  const store = new JsonFileStore(options);
  await store.ready();
  return store;
}
