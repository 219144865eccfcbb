import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { serve } from '@hono/node-server';
import { createApp } from './app.js';
import type { HostConfig } from './config.js';
import { newToken } from './security.js';
import { SessionManager } from './sessions.js';
import { openSessionStore } from './store.js';

/** Options of {@link startWebHost}. */
export interface StartOptions {
  readonly config: HostConfig;
  /** Port to listen on (0 = any free port). */
  readonly port?: number;
  /** SQLite file of the sessions; `:memory:` for tests. */
  readonly database: string;
  /**
   * A PostgreSQL URL (`CODEAGENT_DATABASE_URL`): sessions live there instead, and several instances may serve them.
   */
  readonly databaseUrl?: string | undefined;
  /** Folder of the built SPA; default the package's `dist/client`. */
  readonly clientDir?: string;
  /** The token; default a fresh random one. */
  readonly token?: string;
  /** Milliseconds an approval may wait before it denies (adapter default: 15 minutes). */
  readonly approvalTimeoutMs?: number;
}

/** A running web host. */
export interface WebHost {
  /** The URL to open, token included. */
  readonly url: string;
  /** The origin (`http://127.0.0.1:<port>`). */
  readonly origin: string;
  readonly port: number;
  readonly token: string;
  readonly sessions: SessionManager;
  /** `sqlite` or `postgres`. */
  readonly storage: string;
  /** Stops the server, interrupts turns, closes the database. */
  close(): Promise<void>;
}

/** Where sessions live: `<data dir>/web/sessions.db` (`--data-dir`, else `CODEAGENT_HOME`, else `~/.codeagent`). */
export function databasePath(dataDir: string | null, env: NodeJS.ProcessEnv): string {
  const base = dataDir
    ? resolve(dataDir)
    : env.CODEAGENT_HOME
      ? resolve(env.CODEAGENT_HOME)
      : join(homedir(), '.codeagent');
  return join(base, 'web', 'sessions.db');
}

/** The built SPA beside the built server (`dist/client`). */
export function defaultClientDir(): string {
  return fileURLToPath(new URL('../client/', import.meta.url));
}

/** Starts the web host on 127.0.0.1 (never another interface). */
export async function startWebHost(options: StartOptions): Promise<WebHost> {
  const token = options.token ?? newToken();
  const store = await openSessionStore({ database: options.database, databaseUrl: options.databaseUrl });
  const sessions = new SessionManager(store, options.config, options.approvalTimeoutMs);
  let port = 0;
  const app = createApp({
    sessions,
    config: options.config,
    token,
    port: () => port,
    clientDir: options.clientDir ?? defaultClientDir(),
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolveServer, reject) => {
    const s = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: options.port ?? 0 }, (info) => {
      port = info.port;
      resolveServer(s);
    });
    s.once('error', reject);
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    url: `${origin}/?token=${token}`,
    origin,
    port,
    token,
    sessions,
    storage: store.label,
    close: async () => {
      await sessions.close();
      await new Promise<void>((r) => {
        server.close(() => r());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
      await store.close();
    },
  };
}
