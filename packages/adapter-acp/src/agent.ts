import { randomUUID } from 'node:crypto';
import {
  type AgentApp,
  type AgentContext,
  agent as acpAgent,
  type ClientCapabilities,
  type InitializeResponse,
  type McpServer,
  methods,
  PROTOCOL_VERSION,
  type PermissionOption,
  type PromptResponse,
  RequestError,
  type SessionUpdate,
  type StopReason as AcpStopReason,
} from '@agentclientprotocol/sdk';
import {
  type AgentEvent,
  type CodeagentClient,
  type StopReason,
  streamEvents,
  type ToolRecord,
  type Usage,
} from '@codeagent/agent-core';
import {
  type AskContext,
  type AskResult,
  describeGrantScope,
  installPermissionGate,
  type PermissionMode,
} from '@codeagent/permission-gate';
import { assertNever, type ToolCallView } from '@codeagent/render-intent';
import { listSkillsMeta } from '@codeagent/skills';
import {
  liveOutputNotice,
  type MappingContext,
  planEntries,
  textBlock,
  toolCallFields,
  toolCallNotice,
  toolResultNotices,
} from './mapping.js';
import { type AcpMcpServerConfig, mcpServersFromAcp } from './mcp.js';
import { sessionModeState, toPermissionMode } from './modes.js';
import { PromptContentError, promptToInput } from './prompt.js';
import { type AcpSessionStore, createMemorySessionStore } from './store.js';
import {
  holdIncompleteEscape,
  LIVE_CONTENT_INTERVAL_MS,
  LIVE_CONTENT_TAIL,
  LIVE_TERMINAL_KEEP,
  type LiveCall,
  liveCall,
} from './live.js';
import { plainText, visibleTitle } from './text.js';

/** What the host gets to build the client of a new or loaded session. */
export interface AcpSessionInit {
  /** The ACP session id. */
  readonly sessionId: string;
  /** Absolute working directory from the editor's request (never from a saved file). */
  readonly cwd: string;
  /** Permission mode the session starts in (the host's default; never from a saved file). */
  readonly mode: PermissionMode;
  /** For `session/load`: the saved `client.save()` JSON to restore with `loadSession(saved, {cwd, ...})`. */
  readonly saved?: unknown;
  /**
   * MCP servers from the editor's request (only with the `mcp` option; else always empty), ready for
   * `@codeagent/adapter-mcp`'s `attachMcpServers(client, mcpServers)`.
   */
  readonly mcpServers: Readonly<Record<string, AcpMcpServerConfig>>;
}

/**
 * A slash command the host adds beside skills (an MCP server's prompt, `mcp__<server>__<prompt>`): listed in
 * `available_commands_update`, and a prompt starting with `/<name>` is replaced by its expansion before the turn.
 */
export interface AcpHostCommand {
  /** The command name, without the slash. */
  readonly name: string;
  /** What it does (shown by the editor). */
  readonly description: string;
  /** The argument hint, e.g. `<file> [focus]` (`''`: none). */
  readonly argumentHint?: string;
  /** The text sent to the model for the raw argument text. */
  expand(args: string): Promise<string>;
}

/** A session's client, made by the host, and how to release what it holds (background jobs...). */
export interface AcpSessionHandle {
  /** The agent-core client of this session (one per session, never shared). */
  readonly client: CodeagentClient;
  /** The host's own slash commands (MCP prompts), listed after the skills. */
  readonly commands?: readonly AcpHostCommand[];
  /** Called when the session ends (connection closed, session reloaded). */
  readonly dispose?: () => void | Promise<void>;
}

/** Options of {@link createAcpAgent}. */
export interface AcpAgentOptions {
  /**
   * Builds the client of a session: model, tools, rules. The adapter then installs (or refreshes) the
   * permission gate with its own ask callback, which asks the editor.
   */
  readonly createSession: (init: AcpSessionInit) => AcpSessionHandle | Promise<AcpSessionHandle>;
  /** Where sessions are saved after each turn and loaded from; default: in memory. */
  readonly store?: AcpSessionStore;
  /** Permission mode of new and loaded sessions; default `default`. */
  readonly mode?: PermissionMode;
  /** `agentInfo` of the `initialize` response. */
  readonly agentInfo?: { readonly name: string; readonly version: string; readonly title?: string };
  /** Session id generator; default `randomUUID()`. */
  readonly newSessionId?: () => string;
  /**
   * Skill discovery for `available_commands_update` (`false`: no skills; the host's `commands` are still listed);
   * default: the standard dirs.
   */
  readonly skills?: { readonly dirs?: readonly string[]; readonly homeDir?: string } | false;
  /** Currency of `usage_update.cost` when the client has pricing; default `USD`. */
  readonly currency?: string;
  /** Diagnostics (the CLI writes them to stderr; never to the protocol stream). */
  readonly log?: (message: string) => void;
  /**
   * The host attaches MCP servers from the request (`session/new`, `session/load`): they reach `createSession` as
   * `mcpServers`, and `initialize` advertises `mcpCapabilities {http}`. Without it, requested servers are ignored
   * (and logged), and none are advertised.
   */
  readonly mcp?: { readonly http: boolean };
}

/** An ACP agent serving codeagent sessions: the SDK app plus the adapter's own state. */
export interface AcpAgent {
  /** The SDK agent app; connect it with `app.connect(ndJsonStream(...))`. */
  readonly app: AgentApp;
  /** Ids of the live sessions. */
  sessionIds(): readonly string[];
  /** Aborts every running turn and disposes every session. */
  dispose(): Promise<void>;
}

interface Turn {
  readonly controller: AbortController;
  readonly peer: AgentContext;
}

interface LiveSession {
  readonly id: string;
  readonly cwd: string;
  readonly handle: AcpSessionHandle;
  readonly calls: Map<string, ToolCallView>;
  /** Live output state of running calls. */
  readonly live: Map<string, LiveCall>;
  /** Calls shown as a `plan` (TodoWrite) rather than a tool call. */
  readonly planCalls: Set<string>;
  /** Resolved once a call's `tool_call` (or plan) was written, so its permission request never overtakes it. */
  readonly announced: Map<string, { readonly promise: Promise<void>; readonly resolve: () => void }>;
  title: string;
  turn: Turn | null;
}

/** Maps agent-core's stop reason to ACP's; `error` has no ACP stop reason and becomes a JSON-RPC error. */
export function acpStopReason(reason: StopReason): AcpStopReason | null {
  switch (reason) {
    case 'completed':
    case 'incomplete_tool_use':
      return 'end_turn';
    case 'truncated':
    case 'budget_exceeded':
      return 'max_tokens';
    case 'filtered':
      return 'refusal';
    case 'max_turns':
      return 'max_turn_requests';
    case 'interrupted':
      return 'cancelled';
    case 'error':
      return null;
    default:
      return assertNever(reason, 'adapter-acp stop reason');
  }
}

/** The `usage_update` of a turn's usage record. */
export function usageUpdate(usage: Usage, currency: string): SessionUpdate {
  return {
    sessionUpdate: 'usage_update',
    used: usage.nTokens,
    size: usage.modelLimit,
    ...(usage.costLast === null ? {} : { cost: { amount: usage.costLast, currency } }),
  };
}

const TITLE_LENGTH = 80;
/** Longest wait of a permission request for its call's `tool_call` to be written. */
const ANNOUNCE_WAIT_MS = 2_000;

/** Resolves when the call was announced, the turn aborted, or after {@link ANNOUNCE_WAIT_MS}. */
function announced(s: LiveSession, id: string, signal: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ANNOUNCE_WAIT_MS);
    signal.addEventListener('abort', done, { once: true });
    void announcement(s, id).promise.then(done);
  });
}

function announcement(s: LiveSession, id: string): { promise: Promise<void>; resolve: () => void } {
  let entry = s.announced.get(id);
  if (!entry) {
    let resolve: () => void = () => undefined;
    const promise = new Promise<void>((r) => {
      resolve = r;
    });
    entry = { promise, resolve };
    s.announced.set(id, entry);
  }
  return entry;
}

/**
 * Creates an ACP agent that serves codeagent sessions: `initialize`, `session/new|load|list|prompt|cancel|
 * set_mode`, updates per CONTRACTS.md §2 "ACP mapping", and `session/request_permission` round trips for the
 * permission gate's asks. Connect it to one editor: the client capabilities of the last `initialize` apply.
 */
export function createAcpAgent(options: AcpAgentOptions): AcpAgent {
  const store = options.store ?? createMemorySessionStore();
  const defaultMode = options.mode ?? 'default';
  const log = options.log ?? (() => undefined);
  const currency = options.currency ?? 'USD';
  const newId = options.newSessionId ?? (() => randomUUID());
  const sessions = new Map<string, LiveSession>();
  let clientCapabilities: ClientCapabilities = {};

  const mapping = (s: LiveSession): MappingContext => ({
    cwd: s.cwd,
    terminalOutput: clientCapabilities._meta?.terminal_output === true,
  });

  const send = async (peer: AgentContext, sessionId: string, update: SessionUpdate) => {
    await peer.notify(methods.client.session.update, { sessionId, update });
  };

  async function ask(
    s: LiveSession,
    name: string,
    input: unknown,
    id: string | undefined,
    context?: AskContext,
  ): Promise<AskResult> {
    const turn = s.turn;
    if (turn === null || turn.controller.signal.aborted || id === undefined) return false;
    // Updates are written in event order; the gate asks as soon as the loop reaches the call. Wait (boundedly)
    // until the editor has the call's tool_call and everything before it.
    await announced(s, id, turn.controller.signal);
    if (turn.controller.signal.aborted) return false;
    const view = s.calls.get(id) ?? { card: 'generic', title: name, kind: 'other', rawInput: input };
    const f = toolCallFields(id, view, mapping(s));
    // The approval shows the command and its description; the terminal it will run in does not exist yet.
    const content = f.content.filter((c) => c.type !== 'terminal');
    // "Allow always" is permission-gate's scoped session grant (the CLI's and the web host's too): a Bash command
    // prefix or exact command, a file tool's path. The gate offers a scope only for the mode's asks (never past an
    // ask rule or a protected path); a whole-tool scope is never offered here (ADR 0171).
    const scope = context?.grantScope ?? null;
    const grant = scope !== null && scope.kind !== 'tool' ? scope : null;
    const offered: PermissionOption[] = [
      { optionId: 'allow_once', name: 'Allow once', kind: 'allow_once' },
      ...(grant
        ? [
            {
              optionId: 'allow_always',
              name: visibleTitle(`Always allow ${describeGrantScope(name, grant)} in this session`),
              kind: 'allow_always' as const,
            },
          ]
        : []),
      { optionId: 'reject_once', name: 'Reject', kind: 'reject_once' },
    ];
    let outcome: unknown;
    try {
      const response = await turn.peer.request(
        methods.client.session.requestPermission,
        {
          sessionId: s.id,
          toolCall: {
            toolCallId: id,
            title: f.title,
            kind: f.kind,
            status: 'pending',
            ...(content.length > 0 ? { content } : {}),
            ...(f.locations.length > 0 ? { locations: f.locations } : {}),
            rawInput: input,
          },
          options: offered,
        },
        { cancellationSignal: turn.controller.signal, stopWaitingOnCancel: true },
      );
      outcome = response.outcome;
    } catch (error) {
      log(`permission request for ${name} (${id}) failed: ${errorText(error)}; denied`);
      return false;
    }
    if (typeof outcome !== 'object' || outcome === null) return false;
    const o = outcome as { outcome?: unknown; optionId?: unknown };
    if (o.outcome === 'cancelled') {
      // The editor cancelled the prompt turn (it answers pending requests so before or after session/cancel).
      turn.controller.abort();
      return false;
    }
    if (o.outcome !== 'selected') return false;
    switch (o.optionId) {
      case 'allow_once':
        return true;
      case 'allow_always':
        // The gate records the grant in the scope it computed (the one the option named).
        return grant === null ? false : { allow: true, scope: 'session' };
      default:
        // reject_once, and any id we did not offer: a rejection.
        return false;
    }
  }

  function mcpServersOf(list: readonly McpServer[]): Readonly<Record<string, AcpMcpServerConfig>> {
    if (list.length === 0) return {};
    if (!options.mcp) {
      log(`${list.length} MCP server(s) in the request ignored: this host does not attach MCP servers`);
      return {};
    }
    const { servers, skipped } = mcpServersFromAcp(list, options.mcp);
    for (const line of skipped) log(line);
    return servers;
  }

  async function openSession(
    sessionId: string,
    cwd: string,
    saved: unknown,
    mcp: readonly McpServer[],
  ): Promise<LiveSession> {
    const previous = sessions.get(sessionId);
    if (previous) await closeSession(previous);
    const handle = await options.createSession({
      sessionId,
      cwd,
      mode: defaultMode,
      mcpServers: mcpServersOf(mcp),
      ...(saved === undefined ? {} : { saved }),
    });
    const s: LiveSession = {
      id: sessionId,
      cwd,
      handle,
      calls: new Map(),
      live: new Map(),
      planCalls: new Set(),
      announced: new Map(),
      title: '',
      turn: null,
    };
    // The session's mode is the adapter's, whatever the host's client was built with; from here on it lives in
    // the gate and `set_mode` changes it there alone.
    installPermissionGate(handle.client, {
      mode: defaultMode,
      cwd,
      ask: (name, input, id, context) => ask(s, name, input, id, context),
    });
    sessions.set(sessionId, s);
    return s;
  }

  async function closeSession(s: LiveSession): Promise<void> {
    s.turn?.controller.abort();
    sessions.delete(s.id);
    try {
      await s.handle.dispose?.();
    } catch (error) {
      log(`disposing session ${s.id}: ${errorText(error)}`);
    }
  }

  /** A leading `/<host command> args` in the first text part becomes the command's expansion. */
  async function expandHostCommand(
    s: LiveSession,
    input: ReturnType<typeof promptToInput>,
  ): Promise<ReturnType<typeof promptToInput>> {
    const first = input[0];
    const commands = s.handle.commands ?? [];
    if (first?.type !== 'text' || commands.length === 0) return input;
    const match = /^\/(\S+)(?:[ \t]+([\s\S]*))?$/u.exec(first.text.trim());
    const command = match ? commands.find((c) => c.name === match[1]) : undefined;
    if (!match || !command) return input;
    let text: string;
    try {
      text = await command.expand(match[2] ?? '');
    } catch (error) {
      throw RequestError.invalidParams({ command: command.name }, plainText(errorText(error)));
    }
    log(`session ${s.id}: running /${command.name}`);
    return [{ type: 'text', text }, ...input.slice(1)];
  }

  async function availableCommands(peer: AgentContext, s: LiveSession): Promise<void> {
    const hosted = s.handle.commands ?? [];
    if (options.skills === false && hosted.length === 0) return;
    try {
      const skills =
        options.skills === false
          ? []
          : (
              await listSkillsMeta({
                cwd: s.cwd,
                ...(options.skills?.dirs ? { dirs: options.skills.dirs } : {}),
                ...(options.skills?.homeDir ? { homeDir: options.skills.homeDir } : {}),
              })
            ).skills;
      await send(peer, s.id, {
        sessionUpdate: 'available_commands_update',
        availableCommands: [
          ...skills.map((skill) => ({
            name: skill.name,
            description: plainText(skill.description),
            ...(skill.argumentHint ? { input: { hint: plainText(skill.argumentHint) } } : {}),
          })),
          // The host's commands (MCP prompts) after the skills.
          ...hosted.map((c) => ({
            name: c.name,
            description: plainText(c.description),
            ...(c.argumentHint ? { input: { hint: plainText(c.argumentHint) } } : {}),
          })),
        ],
      });
    } catch (error) {
      log(`listing commands for ${s.id}: ${errorText(error)}`);
    }
  }

  function requireSession(sessionId: string): LiveSession {
    const s = sessions.get(sessionId);
    if (!s) throw RequestError.sessionNotFound(sessionId);
    return s;
  }

  function requireCwd(cwd: string): string {
    if (!cwd.startsWith('/')) throw RequestError.invalidParams({ cwd }, 'cwd must be an absolute path');
    return cwd;
  }

  async function replay(peer: AgentContext, s: LiveSession): Promise<void> {
    const client = s.handle.client;
    const records = new Map<string, ToolRecord>(client.toolRecords().map((r) => [r.id, r]));
    const ctx = mapping(s);
    for (const message of client.messages) {
      if (message.role === 'system' || message.role === 'tool') continue;
      const kind = message.role === 'user' ? 'user_message_chunk' : 'agent_message_chunk';
      if (typeof message.content === 'string') {
        if (message.content !== '')
          await send(peer, s.id, { sessionUpdate: kind, content: textBlock(message.content) });
        continue;
      }
      for (const part of message.content) {
        switch (part.type) {
          case 'text':
            if (part.text !== '')
              await send(peer, s.id, { sessionUpdate: kind, content: textBlock(part.text) });
            break;
          case 'reasoning':
            await send(peer, s.id, { sessionUpdate: 'agent_thought_chunk', content: textBlock(part.text) });
            break;
          case 'image':
            if (typeof part.image === 'string' && !/^https?:/.test(part.image)) {
              await send(peer, s.id, {
                sessionUpdate: kind,
                content: { type: 'image', data: part.image, mimeType: part.mediaType ?? 'image/png' },
              });
            }
            break;
          case 'tool-call': {
            const record = records.get(part.toolCallId);
            const todo = part.toolName === 'TodoWrite' ? planEntries(part.input) : null;
            if (todo && record?.isError !== true) {
              await send(peer, s.id, { sessionUpdate: 'plan', entries: todo });
              break;
            }
            const callView: ToolCallView = record?.callView ?? {
              card: 'generic',
              title: part.toolName,
              kind: 'other',
              rawInput: part.input,
            };
            await send(peer, s.id, toolCallNotice(part.toolCallId, callView, part.input, ctx));
            if (record) {
              for (const u of toolResultNotices(
                part.toolCallId,
                callView,
                record.view,
                record.isError,
                ctx,
              )) {
                await send(peer, s.id, u);
              }
            }
            break;
          }
          default:
            // Files, tool results and approval parts have no ACP history form.
            break;
        }
      }
    }
  }

  /**
   * Live output of a running call (ADR 0172): appended to the editor's terminal as `_meta.terminal_output` when it
   * announced terminal output, else the tail as a content update at most every 200 ms. A plan (TodoWrite) has none.
   */
  async function liveOutput(s: LiveSession, peer: AgentContext, id: string, text: string): Promise<void> {
    const call = s.calls.get(id);
    if (call === undefined || s.planCalls.has(id)) return;
    let live = s.live.get(id);
    if (!live) {
      live = liveCall();
      s.live.set(id, live);
    }
    const state = live;
    const ctx = mapping(s);
    if (ctx.terminalOutput && call.card === 'terminal') {
      if (state.full) return;
      const { ready, held } = holdIncompleteEscape(state.held + text);
      state.held = held;
      if (state.text.length + ready.length > LIVE_TERMINAL_KEEP) {
        state.full = true;
        return;
      }
      if (ready === '') return;
      state.text += ready;
      const first = !state.started;
      state.started = true;
      await send(peer, s.id, liveOutputNotice(id, call, ready, first, ctx));
      return;
    }
    const tail = state.text + text;
    state.text = tail.length > LIVE_CONTENT_TAIL ? tail.slice(tail.length - LIVE_CONTENT_TAIL) : tail;
    const flush = async () => {
      state.timer = null;
      // The result replaced the live view meanwhile: nothing more for this call.
      if (s.live.get(id) !== state) return;
      state.lastSent = performance.now();
      const first = !state.started;
      state.started = true;
      await send(peer, s.id, liveOutputNotice(id, call, state.text, first, ctx));
    };
    if (performance.now() - state.lastSent >= LIVE_CONTENT_INTERVAL_MS) await flush();
    else if (state.timer === null) {
      state.timer = setTimeout(
        () => {
          flush().catch((error: unknown) => log(`live output of ${id}: ${errorText(error)}`));
        },
        Math.max(0, state.lastSent + LIVE_CONTENT_INTERVAL_MS - performance.now()),
      );
    }
  }

  async function onEvent(s: LiveSession, peer: AgentContext, event: AgentEvent): Promise<void> {
    const ctx = mapping(s);
    switch (event.type) {
      case 'delta':
        await send(peer, s.id, { sessionUpdate: 'agent_message_chunk', content: textBlock(event.text) });
        return;
      case 'thinking':
        await send(peer, s.id, { sessionUpdate: 'agent_thought_chunk', content: textBlock(event.text) });
        return;
      case 'tool-request': {
        s.calls.set(event.id, event.view);
        const entries = event.name === 'TodoWrite' ? planEntries(event.arguments) : null;
        try {
          if (entries) {
            s.planCalls.add(event.id);
            await send(peer, s.id, { sessionUpdate: 'plan', entries });
          } else {
            await send(peer, s.id, toolCallNotice(event.id, event.view, event.arguments, ctx));
          }
        } finally {
          announcement(s, event.id).resolve();
        }
        return;
      }
      case 'tool-result': {
        const call = s.calls.get(event.id);
        s.calls.delete(event.id);
        const live = s.live.get(event.id);
        s.live.delete(event.id);
        if (live?.timer) clearTimeout(live.timer);
        const streamed = live && ctx.terminalOutput && call?.card === 'terminal' ? live.text : undefined;
        if (s.planCalls.delete(event.id)) {
          if (!event.isError) return;
          // A failed TodoWrite is shown, or the editor would keep a plan the agent does not have.
          await send(
            peer,
            s.id,
            toolCallNotice(event.id, call ?? { card: 'generic', title: event.name }, null, ctx),
          );
        }
        for (const u of toolResultNotices(event.id, call, event.view, event.isError, ctx, streamed))
          await send(peer, s.id, u);
        return;
      }
      case 'tool-output':
        await liveOutput(s, peer, event.id, event.text);
        return;
      case 'usage':
        await send(peer, s.id, usageUpdate(event.usage, currency));
        return;
      case 'error':
        log(`session ${s.id}: ${event.recovered ? 'recovered' : 'error'}: ${event.message}`);
        return;
      case 'compaction':
        log(`session ${s.id}: compaction ${event.decision.action}: ${event.decision.reason}`);
        return;
      case 'tick':
      case 'end':
        return;
      default:
        assertNever(event, 'adapter-acp event');
    }
  }

  async function save(s: LiveSession): Promise<void> {
    try {
      await store.save(s.id, JSON.parse(s.handle.client.save()), { title: s.title, cwd: s.cwd });
    } catch (error) {
      log(`saving session ${s.id}: ${errorText(error)}`);
    }
  }

  async function runPrompt(
    s: LiveSession,
    peer: AgentContext,
    signal: AbortSignal,
    prompt: Parameters<typeof promptToInput>[0],
  ): Promise<PromptResponse> {
    if (s.turn !== null)
      throw RequestError.invalidRequest({ sessionId: s.id }, 'a prompt is already running in this session');
    let input: ReturnType<typeof promptToInput>;
    try {
      input = promptToInput(prompt);
    } catch (error) {
      if (error instanceof PromptContentError) throw RequestError.invalidParams(undefined, error.message);
      throw error;
    }
    // The session is busy from here on, before anything is awaited: a second prompt is refused, never run.
    const controller = new AbortController();
    const onAbort = () => controller.abort();
    signal.addEventListener('abort', onAbort, { once: true });
    s.turn = { controller, peer };
    const titled = s.title === '';
    if (titled) {
      const first = input.find((p) => p.type === 'text');
      s.title = first
        ? plainText(first.text).replace(/\s+/g, ' ').trim().slice(0, TITLE_LENGTH)
        : 'image prompt';
    }
    let stopReason: StopReason = 'error';
    let failure = '';
    try {
      // Editors show the title in their session lists.
      if (titled) {
        await send(peer, s.id, { sessionUpdate: 'session_info_update', title: s.title }).catch(
          () => undefined,
        );
      }
      // A host command (an MCP prompt) is expanded while the session is already busy.
      input = await expandHostCommand(s, input);
      for await (const event of streamEvents(s.handle.client, input, { signal: controller.signal })) {
        if (event.type === 'end') {
          stopReason = event.result.stopReason;
          continue;
        }
        if (event.type === 'error' && !event.recovered) failure = event.message;
        try {
          await onEvent(s, peer, event);
        } catch (error) {
          // The editor is gone: stop the turn instead of running tools nobody can see.
          log(`session ${s.id}: sending an update failed (${errorText(error)}); cancelling the turn`);
          controller.abort();
        }
      }
    } finally {
      signal.removeEventListener('abort', onAbort);
      s.turn = null;
      s.calls.clear();
      s.planCalls.clear();
      s.announced.clear();
      await save(s);
    }
    if (controller.signal.aborted) return { stopReason: 'cancelled' };
    const mapped = acpStopReason(stopReason);
    if (mapped === null)
      throw RequestError.internalError({ sessionId: s.id }, plainText(failure || 'the turn failed'));
    return { stopReason: mapped };
  }

  const app = acpAgent({ name: options.agentInfo?.name ?? 'codeagent' })
    .onRequest(methods.agent.initialize, ({ params }): InitializeResponse => {
      clientCapabilities = params.clientCapabilities ?? {};
      return {
        protocolVersion: Math.min(Math.max(1, params.protocolVersion), PROTOCOL_VERSION),
        agentCapabilities: {
          loadSession: true,
          promptCapabilities: { image: true, audio: false, embeddedContext: true },
          mcpCapabilities: { http: options.mcp?.http === true, sse: false },
          sessionCapabilities: { list: {} },
        },
        agentInfo: {
          name: options.agentInfo?.name ?? 'codeagent',
          version: options.agentInfo?.version ?? '0.0.0',
          ...(options.agentInfo?.title ? { title: options.agentInfo.title } : {}),
        },
        authMethods: [],
      };
    })
    .onRequest(methods.agent.session.new, async ({ params, client }) => {
      const cwd = requireCwd(params.cwd);
      const s = await openSession(newId(), cwd, undefined, params.mcpServers);
      // Saved at once, so an editor can load a session it created before its first prompt.
      await save(s);
      setTimeout(() => void availableCommands(client, s), 0);
      return { sessionId: s.id, modes: sessionModeState(s.handle.client.permissionMode) };
    })
    .onRequest(methods.agent.session.load, async ({ params, client }) => {
      const cwd = requireCwd(params.cwd);
      let saved: unknown;
      try {
        saved = await store.load(params.sessionId);
      } catch {
        throw RequestError.sessionNotFound(params.sessionId);
      }
      let s: LiveSession;
      try {
        s = await openSession(params.sessionId, cwd, saved, params.mcpServers);
      } catch (error) {
        throw RequestError.invalidParams(
          { sessionId: params.sessionId },
          `cannot load the session: ${plainText(errorText(error))}`,
        );
      }
      const listed = (await store.list()).find((e) => e.sessionId === params.sessionId);
      s.title = listed?.title ?? '';
      await replay(client, s);
      setTimeout(() => void availableCommands(client, s), 0);
      return { modes: sessionModeState(s.handle.client.permissionMode) };
    })
    .onRequest(methods.agent.session.list, async ({ params }) => {
      const all = await store.list();
      return {
        sessions: all
          .filter((e) => params.cwd == null || e.cwd === params.cwd)
          .map((e) => ({
            sessionId: e.sessionId,
            cwd: e.cwd,
            title: e.title === '' ? null : plainText(e.title),
            updatedAt: e.updatedAt.toISOString(),
          })),
      };
    })
    .onRequest(methods.agent.session.setMode, async ({ params, client }) => {
      const s = requireSession(params.sessionId);
      const mode = toPermissionMode(params.modeId);
      if (mode === null) throw RequestError.invalidParams({ modeId: params.modeId }, 'unknown mode');
      s.handle.client.setPermissionMode(mode);
      await send(client, s.id, { sessionUpdate: 'current_mode_update', currentModeId: mode });
      return {};
    })
    .onRequest(methods.agent.session.prompt, ({ params, client, signal }) =>
      runPrompt(requireSession(params.sessionId), client, signal, params.prompt),
    )
    .onNotification(methods.agent.session.cancel, ({ params }) => {
      sessions.get(params.sessionId)?.turn?.controller.abort();
    });

  return {
    app,
    sessionIds: () => [...sessions.keys()],
    async dispose() {
      for (const s of [...sessions.values()]) await closeSession(s);
    },
  };
}

function errorText(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
