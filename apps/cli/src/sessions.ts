import { randomUUID } from 'node:crypto';
import { mkdir, readdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { basename, isAbsolute, join, resolve } from 'node:path';

/** One saved session as listed by `/sessions`. */
export interface SessionEntry {
  id: string;
  path: string;
  updatedAt: Date;
  title: string;
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
  async save(id: string, session: unknown, title: string): Promise<string> {
    if (!ID_PATTERN.test(id)) throw new Error(`invalid session id "${id}"`);
    await mkdir(this.dir, { recursive: true });
    const file = join(this.dir, `${id}.json`);
    const tmp = `${file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify({ codeagentCliSession: 1, title, session })}\n`, 'utf8');
    await rename(tmp, file);
    return file;
  }

  /** Reads a session by id or by path; throws a clear error when it is missing or not a CLI session file. */
  async load(idOrPath: string): Promise<{ id: string; path: string; session: unknown; title: string }> {
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
    return { id: basename(path, '.json'), path, session: data.session, title };
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
      try {
        const [info, text] = await Promise.all([stat(path), readFile(path, 'utf8')]);
        const data: unknown = JSON.parse(text);
        const title =
          typeof data === 'object' && data !== null && 'title' in data && typeof data.title === 'string'
            ? data.title
            : '';
        entries.push({ id: basename(name, '.json'), path, updatedAt: info.mtime, title });
      } catch {
        // A damaged file is listed by nobody: /sessions shows what can be resumed.
      }
    }
    return entries.sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
  }
}
