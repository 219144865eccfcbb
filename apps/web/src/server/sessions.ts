import { randomUUID } from 'node:crypto';
import { type AgentUIChat, type AgentUIMessage, createAgentUIChat } from '@codeagent/adapter-ai-sdk-ui';
import { type CodeagentClient, createClient, loadSession } from '@codeagent/agent-core';
import { installPermissionGate, PERMISSION_MODES, type PermissionMode } from '@codeagent/permission-gate';
import { type BuiltinToolkit, createBuiltinToolkit } from '@codeagent/tools';
import type { HostConfig } from './config.js';
import type { SessionStore, SessionSummary } from './store.js';

/** A session that is open in this process: its client, tools and chat. */
export interface LiveSession {
  readonly id: string;
  readonly client: CodeagentClient;
  readonly chat: AgentUIChat;
  readonly toolkit: BuiltinToolkit;
  mode: PermissionMode;
}

/** True when `x` is a permission mode name. */
export function isPermissionMode(x: unknown): x is PermissionMode {
  return typeof x === 'string' && (PERMISSION_MODES as readonly string[]).includes(x);
}

/** Opens, creates and forgets sessions; one agent-core client per session, never shared. */
export class SessionManager {
  private readonly live = new Map<string, LiveSession>();

  constructor(
    private readonly store: SessionStore,
    private readonly config: HostConfig,
    private readonly approvalTimeoutMs?: number,
  ) {}

  /** Sessions, most recent first. */
  list(): SessionSummary[] {
    return this.store.list();
  }

  /** Creates a session in the default mode. */
  create(title = 'New session', mode: PermissionMode = 'default'): SessionSummary {
    const id = randomUUID();
    this.store.create(id, title.slice(0, 200), mode);
    return this.store.list().find((s) => s.id === id) as SessionSummary;
  }

  /** The live session for `id`, opening it from storage when needed; `undefined` when unknown. */
  open(id: string): LiveSession | undefined {
    const existing = this.live.get(id);
    if (existing) return existing;
    const row = this.store.get(id);
    if (!row) return undefined;
    const mode: PermissionMode = isPermissionMode(row.mode) ? row.mode : 'default';
    const toolkit = createBuiltinToolkit({ cwd: this.config.cwd });
    const { model, contextWindow, maxOutputTokens } = this.config.model();
    const options = {
      model,
      cwd: this.config.cwd,
      tools: [...toolkit.tools, ...(this.config.tools?.() ?? [])],
      permissionMode: mode,
      contextWindow,
      maxOutputTokens,
    };
    let client: CodeagentClient;
    try {
      client = row.agent === null ? createClient(options) : loadSession(row.agent, options);
    } catch {
      // A damaged agent session: the UI history stays readable, the conversation starts afresh.
      client = createClient(options);
    }
    let stored: unknown = [];
    try {
      stored = JSON.parse(row.ui);
    } catch {
      stored = [];
    }
    const chat = createAgentUIChat({
      client,
      messages: (Array.isArray(stored) ? stored : []) as AgentUIMessage[],
      ...(this.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: this.approvalTimeoutMs } : {}),
      // A person answers approvals: 100 ms more before the dock appears batches the calls of one model step.
      parkSettleMs: 100,
      // Stop is an explicit call (POST .../abort): a reload mid-stream leaves the turn running, the page reconnects.
      interruptOnDisconnect: false,
      // Writes to a deleted session change no row.
      onChange: (messages) => this.store.saveMessages(id, JSON.stringify(messages)),
      onTurnEnd: () => this.store.saveMessages(id, JSON.stringify(chat.messages), client.save()),
    });
    installPermissionGate(client, {
      mode,
      cwd: this.config.cwd,
      rules: { deny: [...this.config.deny] },
      ask: chat.ask,
    });
    const session: LiveSession = { id, client, chat, toolkit, mode };
    this.live.set(id, session);
    return session;
  }

  /** Changes a session's permission mode in place. */
  setMode(session: LiveSession, mode: PermissionMode): void {
    installPermissionGate(session.client, { mode });
    session.client.setPermissionMode(mode);
    session.mode = mode;
    this.store.setMode(session.id, mode);
  }

  /** Renames a session; false when unknown. */
  rename(id: string, title: string): boolean {
    return this.store.rename(id, title.slice(0, 200));
  }

  /** Deletes a session (its running turn is interrupted); false when unknown. */
  async delete(id: string): Promise<boolean> {
    const live = this.live.get(id);
    this.live.delete(id);
    const deleted = this.store.delete(id);
    if (live) {
      live.chat.abort();
      await live.chat.idle();
      await live.toolkit.dispose();
    }
    return deleted;
  }

  /** Interrupts every running turn and kills background jobs. */
  async close(): Promise<void> {
    for (const live of this.live.values()) {
      live.chat.abort();
      await live.chat.idle();
      await live.toolkit.dispose();
    }
    this.live.clear();
  }
}
