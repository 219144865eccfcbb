import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { isOwnerAlive, isSessionId as isStoreId, type SessionStore } from '@codeagent/session-store';

/** One session row as the list shows it. */
export interface SessionSummary {
  readonly id: string;
  readonly title: string;
  readonly mode: string;
  readonly createdAt: string;
  readonly updatedAt: string;
  /** The last turn's state (`running`, `interrupted`, `done`), or null before the first. */
  readonly turnState: string | null;
}

/** True when `id` has the shape of a session id (checked before any query). */
export function isSessionId(id: string): boolean {
  return isStoreId(id) && id.length <= 64;
}

/** Where the web host keeps sessions: SQLite by default, PostgreSQL when `CODEAGENT_DATABASE_URL` names one. */
export interface OpenedStore {
  readonly store: SessionStore;
  /** This instance's id (the owner of the turns it runs). */
  readonly instance: string;
  /** Whether the owner of a running turn still runs (false: it died, the turn is interrupted). */
  readonly ownerAlive: (owner: string | null) => Promise<boolean>;
  /** `sqlite` or `postgres`, for the start line. */
  readonly label: string;
}

/** Instances of this process that are open (an in-process restart leaves a closed one behind). */
const openInstances = new Set<string>();

/** `web:<instance>:<pid>@<host>`: who runs a turn. */
function ownerOf(instance: string): string {
  return `web:${instance}:${process.pid}@${hostname()}`;
}

/**
 * Opens the session store: PostgreSQL when `databaseUrl` is set (several instances may share it), else the SQLite
 * file `database` (`:memory:` for tests). A turn's owner is alive while its instance is open in this process, its
 * process runs (SQLite), or its connections are on the database (PostgreSQL).
 */
export async function openSessionStore(options: {
  readonly database: string;
  readonly databaseUrl?: string | undefined;
}): Promise<OpenedStore & { close(): Promise<void> }> {
  const instance = randomUUID();
  const owner = ownerOf(instance);
  openInstances.add(owner);
  const local = (o: string | null): boolean | undefined => {
    const match = o === null ? null : /^web:[^:]+:(\d+@.+)$/.exec(o);
    if (!match) return undefined;
    if (openInstances.has(o as string)) return true;
    if (match[1] === `${process.pid}@${hostname()}`) return false;
    return isOwnerAlive(match[1] as string);
  };
  try {
    if (options.databaseUrl) {
      const { createPostgresStore } = await import('@codeagent/session-store/postgres');
      const store = await createPostgresStore({
        url: options.databaseUrl,
        applicationName: `codeagent-web:${instance}`,
        // Requests of many sessions at once: a turn's writes are short transactions; reads (opening a session,
        // following a turn's log) have connections of their own.
        maxConnections: 20,
        maxReadConnections: 10,
      });
      return {
        store,
        instance: owner,
        label: 'postgres',
        ownerAlive: async (o) => {
          const here = local(o);
          if (here !== undefined && here) return true;
          const id = o === null ? null : /^web:([^:]+):/.exec(o)?.[1];
          if (!id) return here ?? true;
          return (await store.connectedApplications()).includes(`codeagent-web:${id}`);
        },
        close: async () => {
          openInstances.delete(owner);
          await store.close();
        },
      };
    }
    const { createSqliteStore } = await import('@codeagent/session-store/sqlite');
    const store = await createSqliteStore({ path: options.database });
    return {
      store,
      instance: owner,
      label: 'sqlite',
      ownerAlive: async (o) => local(o) ?? true,
      close: async () => {
        openInstances.delete(owner);
        await store.close();
      },
    };
  } catch (error) {
    openInstances.delete(owner);
    throw error;
  }
}
