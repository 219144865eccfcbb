/** A saved session as `session/list` reports it. */
export interface AcpSessionEntry {
  /** The ACP session id. */
  readonly sessionId: string;
  /** Working directory the session ran in. */
  readonly cwd: string;
  /** A title (the first prompt, shortened), or `''`. */
  readonly title: string;
  /** Last save. */
  readonly updatedAt: Date;
}

/**
 * Where the adapter saves sessions (`client.save()` JSON) after every turn and loads them for `session/load`.
 * A host backs it by its own storage (the CLI: its sessions folder).
 */
export interface AcpSessionStore {
  /** Saves (or replaces) a session. */
  save(
    sessionId: string,
    session: unknown,
    info: { readonly title: string; readonly cwd: string },
  ): Promise<void>;
  /** The saved JSON of a session; rejects when there is none. */
  load(sessionId: string): Promise<unknown>;
  /** Every saved session, newest first. */
  list(): Promise<readonly AcpSessionEntry[]>;
}

/** An in-memory session store: sessions live as long as the process (tests, embedded hosts). */
export function createMemorySessionStore(): AcpSessionStore {
  const saved = new Map<string, { json: string; entry: AcpSessionEntry }>();
  return {
    async save(sessionId, session, info) {
      saved.set(sessionId, {
        json: JSON.stringify(session),
        entry: { sessionId, cwd: info.cwd, title: info.title, updatedAt: new Date() },
      });
    },
    async load(sessionId) {
      const s = saved.get(sessionId);
      if (!s) throw new Error(`no saved session "${sessionId}"`);
      return JSON.parse(s.json) as unknown;
    },
    async list() {
      return [...saved.values()]
        .map((s) => s.entry)
        .sort((a, b) => b.updatedAt.getTime() - a.updatedAt.getTime());
    },
  };
}
