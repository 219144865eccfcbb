import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';

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
}

function metaOf(data: Record<string, unknown>): SessionMeta {
  const meta: SessionMeta = {};
  for (const key of ['cwd', 'provider', 'model', 'baseURL', 'apiKeyEnv'] as const) {
    const value = data[key];
    if (typeof value === 'string' && value.length <= 4096) meta[key] = value;
  }
  return meta;
}

/** Where the CLI keeps its data: `--data-dir`, else `$CODEAGENT_HOME`, else `~/.codeagent`. */
export function resolveDataDir(flag: string | null, env: NodeJS.ProcessEnv = process.env): string {
  if (flag) return resolve(flag);
  if (env.CODEAGENT_HOME) return resolve(env.CODEAGENT_HOME);
  return join(homedir(), '.codeagent');
}

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** Saves and lists session files under `<dataDir>/sessions`, one JSON file per session, written atomically. */
export class SessionStore {
  readonly dir: string;

  constructor(dataDir: string) {
    this.dir = join(dataDir, 'sessions');
  }

  /** A fresh session id: sortable by time, unique. */
  newId(now: Date = new Date()): string {
    return `${now.toISOString().replace(/[:.]/g, '-')}-${randomUUID().slice(0, 8)}`;
  }

  /** Writes the session JSON (`client.save()` output) with a title for listings; returns the file path. */
  async save(id: string, session: unknown, title: string, meta: SessionMeta = {}): Promise<string> {
    if (!ID_PATTERN.test(id)) throw new Error(`invalid session id "${id}"`);
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, `${id}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify({ codeagentCliSession: 1, title, ...meta, session })}\n`, 'utf8');
    await rename(tmp, file);
    return file;
  }

  /** Reads a session by id or by path; throws a clear error when it is missing or not a CLI session file. */
  async load(
    idOrPath: string,
  ): Promise<{ id: string; path: string; session: unknown; title: string; meta: SessionMeta }> {
    const path =
      isAbsolute(idOrPath) || idOrPath.endsWith('.json')
        ? resolve(idOrPath)
        : join(this.dir, `${idOrPath}.json`);
    if (!isAbsolute(idOrPath) && !idOrPath.endsWith('.json') && !ID_PATTERN.test(idOrPath)) {
      throw new Error(`invalid session id "${idOrPath}"`);
    }
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      throw new Error(`no saved session "${idOrPath}" (looked in ${path})`);
    }
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch (error) {
      throw new Error(`session file ${path} is not valid JSON: ${(error as Error).message}`);
    }
    if (typeof data !== 'object' || data === null || !('session' in data)) {
      throw new Error(`session file ${path} is not a codeagent CLI session`);
    }
    const title = 'title' in data && typeof data.title === 'string' ? data.title : '';
    return {
      id: basename(path, '.json'),
      path,
      session: data.session,
      title,
      meta: metaOf(data as Record<string, unknown>),
    };
  }

  /** Where the journal of a session's turn in flight goes (not a `.json`, so listings skip it). */
  journalPath(id: string): string {
    if (!ID_PATTERN.test(id)) throw new Error(`invalid session id "${id}"`);
    return join(this.dir, `${id}.turn-journal`);
  }

  /** The newest resumable session that ran in `cwd`, or null. */
  async latestFor(cwd: string): Promise<SessionEntry | null> {
    const wanted = resolve(cwd);
    return (await this.list()).find((s) => s.damaged === null && s.cwd === wanted) ?? null;
  }

  /** Lists saved sessions, newest first. */
  async list(): Promise<SessionEntry[]> {
    let names: string[];
    try {
      names = await readdir(this.dir);
    } catch {
      return [];
    }
    const entries: SessionEntry[] = [];
    for (const name of names) {
      if (!name.endsWith('.json')) continue;
      const path = join(this.dir, name);
      const id = basename(name, '.json');
      let updatedAt = new Date(0);
      try {
        const info = await stat(path);
        updatedAt = info.mtime;
        if (!info.isFile()) throw new Error('not a file');
        if (info.size > 256 * 1024 * 1024) throw new Error('larger than 256 MiB');
        const data: unknown = JSON.parse(await readFile(path, 'utf8'));
        if (typeof data !== 'object' || data === null || Array.isArray(data) || !('session' in data)) {
          throw new Error('not a codeagent CLI session');
        }
        const record = data as Record<string, unknown>;
        const title = typeof record.title === 'string' ? record.title : '';
        entries.push({ id, path, updatedAt, title, damaged: null, ...metaOf(record) });
      } catch (error) {
        // A damaged file is listed with the reason, never hidden.
        const reason = error instanceof SyntaxError ? 'not valid JSON' : (error as Error).message;
        entries.push({ id, path, updatedAt, title: '', damaged: reason.slice(0, 120) });
      }
    }
    return entries.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  }
}
