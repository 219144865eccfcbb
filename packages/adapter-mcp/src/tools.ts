import { type AgentTool, defineTool, type ToolContext } from '@codeagent/agent-core';
import type { ToolResult } from '@codeagent/artifact-schema';
import { type Capability, isCapability } from '@codeagent/permission-gate';
import type { ToolCallView } from '@codeagent/render-intent';
import { jsonSchema } from 'ai';
import type { McpServerConfig } from './config.js';
import type { McpServerSource } from './sources.js';
import {
  type McpConnectionOptions,
  type McpProgress,
  McpServerConnection,
  type McpToolInfo,
} from './connection.js';
import { mcpToolName } from './names.js';
import { errorResult, type McpResultLimits, mcpResultToToolResult } from './result.js';
import { clipServerText } from './text.js';
import { isPlainObject, isRecord } from '@codeagent/artifact-schema/internal';

/** How the user configured one server, beyond how to start it. */
export interface McpServerPolicy {
  /**
   * Whether the user trusts the server's annotations: only then does a `readOnlyHint: true` tool count as `read`
   * (annotations are untrusted by the spec). Default `false`: every tool is `exec` (asks in default mode).
   */
  readonly trusted?: boolean;
  /** Capability of every tool of the server (overrides the default and the hints). */
  readonly capability?: Capability;
  /** Per-tool settings by the server's tool name: a capability, or `disabled` to hide the tool. */
  readonly tools?: Readonly<
    Record<string, { readonly capability?: Capability; readonly disabled?: boolean }>
  >;
  /** Per-call timeout of this server's tools (ms). */
  readonly timeoutMs?: number;
}

/** The keys of an `mcpServers` entry that set its policy ({@link McpServerPolicy}) rather than how it starts. */
export const MCP_POLICY_KEYS = ['trusted', 'capability', 'tools', 'timeoutMs'] as const;

/** What {@link mcpSourcePolicy} found for one configured server. */
export interface McpSourcePolicy {
  /** The policy to attach the server with (`undefined`: the defaults, every tool `exec`). */
  readonly policy: McpServerPolicy | undefined;
  /** Set when the server must not start: its policy fields are malformed (a policy the user meant is never dropped). */
  readonly error?: string;
  /** Set when policy fields were ignored: a project's `.mcp.json` cannot widen what its own server may do. */
  readonly warning?: string;
}

/**
 * Reads the policy fields of one configured server's entry as written: `trusted` (boolean), `capability` (every
 * tool's), `tools` (`{"<tool>": {"capability"?, "disabled"?}}`) and `timeoutMs`. Only files the user controls set a
 * policy: in a project's `.mcp.json` (scope `project`, which a cloned repository can ship) the fields are ignored
 * with a warning, so a repository can never mark its own server trusted or its tools `read`.
 */
export function mcpSourcePolicy(source: Pick<McpServerSource, 'name' | 'scope' | 'entry'>): McpSourcePolicy {
  const entry = source.entry;
  const present = MCP_POLICY_KEYS.filter((k) => Object.hasOwn(entry, k));
  if (present.length === 0) return { policy: undefined };
  if (source.scope === 'project') {
    return {
      policy: undefined,
      warning: `${source.name}: ${present.join(', ')} ignored in a project's .mcp.json (a repository cannot widen what its server may do); set them in your own MCP config`,
    };
  }
  const bad = (what: string): McpSourcePolicy => ({
    policy: undefined,
    error: `${source.name}: ${what}; the server is not started`,
  });
  const policy: {
    trusted?: boolean;
    capability?: Capability;
    tools?: Record<string, { capability?: Capability; disabled?: boolean }>;
    timeoutMs?: number;
  } = {};
  if (Object.hasOwn(entry, 'trusted')) {
    if (typeof entry.trusted !== 'boolean') return bad('"trusted" must be true or false');
    policy.trusted = entry.trusted;
  }
  if (Object.hasOwn(entry, 'capability')) {
    if (!isCapability(entry.capability)) return bad('"capability" must be one of read, write, exec, net');
    policy.capability = entry.capability;
  }
  if (Object.hasOwn(entry, 'timeoutMs')) {
    const t = entry.timeoutMs;
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || t <= 0)
      return bad('"timeoutMs" must be a positive integer');
    policy.timeoutMs = t;
  }
  if (Object.hasOwn(entry, 'tools')) {
    if (!isPlainObject(entry.tools)) return bad('"tools" must be an object of tool names');
    const tools: Record<string, { capability?: Capability; disabled?: boolean }> = Object.create(null);
    for (const [name, setting] of Object.entries(entry.tools)) {
      if (!isPlainObject(setting)) return bad(`"tools.${name}" must be an object`);
      const one: { capability?: Capability; disabled?: boolean } = {};
      for (const key of Object.keys(setting)) {
        if (key !== 'capability' && key !== 'disabled')
          return bad(`"tools.${name}.${key}" is not a tool setting`);
      }
      if (Object.hasOwn(setting, 'capability')) {
        if (!isCapability(setting.capability)) return bad(`"tools.${name}.capability" is not a capability`);
        one.capability = setting.capability;
      }
      if (Object.hasOwn(setting, 'disabled')) {
        if (typeof setting.disabled !== 'boolean')
          return bad(`"tools.${name}.disabled" must be true or false`);
        one.disabled = setting.disabled;
      }
      tools[name] = one;
    }
    policy.tools = tools;
  }
  return { policy };
}

/** Options of {@link mcpAgentTools} and {@link attachMcpServers}. */
export interface McpToolOptions extends McpResultLimits {
  /** Per-server policies by server name. */
  readonly policies?: Readonly<Record<string, McpServerPolicy>>;
  /** Progress of running calls, for hosts that show it on the card (`callId` is the agent tool call id). */
  readonly onProgress?: (event: { callId: string; tool: string; progress: McpProgress }) => void;
}

/** Live progress text of one call at most (a server may send any number of notifications). */
const MCP_PROGRESS_OUTPUT_LIMIT = 16 * 1024;

/** One progress notification as a line of live output: `message (3/10)`, `(3)` without a total or message. */
function progressLine(p: McpProgress): string {
  const count = typeof p.total === 'number' ? `${p.progress}/${p.total}` : `${p.progress}`;
  const message = p.message === undefined ? '' : clipServerText(p.message, 200).replace(/\s+/g, ' ').trim();
  return message === '' ? `(${count})\n` : `${message} (${count})\n`;
}

/**
 * Progress notifications into the call's live output (`ctx.output`, the `tool-output` event) as stderr lines,
 * within {@link MCP_PROGRESS_OUTPUT_LIMIT} characters per call; the model never sees them.
 */
function progressOutput(output: NonNullable<ToolContext['output']>): (p: McpProgress) => void {
  let left = MCP_PROGRESS_OUTPUT_LIMIT;
  return (p) => {
    const line = progressLine(p);
    if (line.length > left) {
      left = 0;
      return;
    }
    left -= line.length;
    output({ stream: 'stderr', text: line });
  };
}

/** The capability a tool gets: per-tool override, per-server override, trusted read-only hint, else `exec`. */
export function mcpToolCapability(tool: McpToolInfo, policy: McpServerPolicy = {}): Capability {
  const own = policy.tools?.[tool.name]?.capability;
  if (own) return own;
  if (policy.capability) return policy.capability;
  return policy.trusted === true && tool.readOnlyHint ? 'read' : 'exec';
}

/** One agent tool for one MCP tool of a connection. */
function agentTool(
  connection: McpServerConnection,
  tool: McpToolInfo,
  policy: McpServerPolicy,
  options: McpToolOptions,
): AgentTool<Record<string, unknown>> {
  const name = mcpToolName(connection.name, tool.name);
  const server = clipServerText(connection.name, 64);
  const label = clipServerText(tool.title ?? tool.name, 120);
  const capability = mcpToolCapability(tool, policy);
  return defineTool<Record<string, unknown>>({
    name,
    description: tool.description === '' ? `${tool.name} (MCP server ${server})` : tool.description,
    inputSchema: jsonSchema<Record<string, unknown>>(tool.inputSchema as never),
    capability,
    async execute(args: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
      const live = ctx.output ? progressOutput(ctx.output) : undefined;
      const onProgress =
        options.onProgress || live
          ? (progress: McpProgress) => {
              options.onProgress?.({ callId: ctx.callId, tool: name, progress });
              live?.(progress);
            }
          : undefined;
      try {
        const raw = await connection.callTool(tool.name, isRecord(args) ? args : {}, {
          signal: ctx.signal,
          ...(policy.timeoutMs !== undefined ? { timeoutMs: policy.timeoutMs } : {}),
          ...(onProgress ? { onProgress } : {}),
        });
        return mcpResultToToolResult(raw, { server, tool: label }, options);
      } catch (error) {
        return errorResult(error instanceof Error ? error.message : String(error), `${server} · ${label}`);
      }
    },
    presentCall(args: Record<string, unknown>): ToolCallView {
      return {
        card: 'generic',
        title: `${server} · ${label}`,
        kind: capability === 'read' ? 'read' : 'other',
        rawInput: args,
      };
    },
  });
}

/**
 * The agent tools of one connected server, named `mcp__<server>__<tool>`, with the server's JSON Schemas passed
 * through. A tool the server stops offering answers with the server's error, as an error result.
 */
export async function mcpAgentTools(
  connection: McpServerConnection,
  options: McpToolOptions = {},
): Promise<AgentTool<Record<string, unknown>>[]> {
  return toolsOf(connection, await connection.tools(), options);
}

function toolsOf(
  connection: McpServerConnection,
  listed: readonly McpToolInfo[],
  options: McpToolOptions,
): AgentTool<Record<string, unknown>>[] {
  const policy = options.policies?.[connection.name] ?? {};
  return listed
    .filter((t) => policy.tools?.[t.name]?.disabled !== true)
    .map((t) => agentTool(connection, t, policy, options));
}

/** What {@link attachMcpServers} attached. */
export interface AttachedMcpServers {
  /** One connection per configured server. */
  readonly connections: readonly McpServerConnection[];
  /** The names of the agent tools registered so far. */
  readonly tools: readonly string[];
  /** Servers that could not be listed, with the reason (cleaned); their tools are missing until a restart. */
  readonly failures: readonly { readonly server: string; readonly reason: string }[];
  /**
   * Registers tools that servers announced (`list_changed`) while a turn ran, when tools cannot be added; hosts call
   * it between turns. Returns the names registered.
   */
  refresh(): string[];
  /** Stops every server. */
  close(): Promise<void>;
}

/** The part of a codeagent client that attaching needs (`CodeagentClient` has it). */
export interface McpAttachTarget {
  /** Registers one tool with the client (and its gate); throws while a turn runs or on a duplicate name. */
  registerTool<Args>(tool: AgentTool<Args>): void;
}

/**
 * Starts every configured server, lists its tools and registers them with the client, where the permission gate
 * governs them like any tool (rules such as `mcp__github__*` match). A server that fails to start is reported in
 * `failures`, never thrown; its stderr is kept on its connection and never printed. Tools a server adds later
 * (`notifications/tools/list_changed`) are registered at once, or by {@link AttachedMcpServers.refresh} when a turn
 * was running.
 */
export async function attachMcpServers(
  client: McpAttachTarget,
  servers: Readonly<Record<string, McpServerConfig>>,
  options: McpToolOptions & McpConnectionOptions = {},
): Promise<AttachedMcpServers> {
  const registered = new Set<string>();
  const pending = new Map<string, AgentTool<Record<string, unknown>>>();
  const register = (tool: AgentTool<Record<string, unknown>>): boolean => {
    if (registered.has(tool.name)) return true;
    try {
      client.registerTool(tool);
      registered.add(tool.name);
      pending.delete(tool.name);
      return true;
    } catch {
      pending.set(tool.name, tool);
      return false;
    }
  };
  const connections: McpServerConnection[] = [];
  for (const [name, config] of Object.entries(servers)) {
    const connection: McpServerConnection = new McpServerConnection(name, config, {
      ...options,
      onToolsChanged: (listed) => {
        for (const tool of toolsOf(connection, listed, options)) register(tool);
        options.onToolsChanged?.(listed);
      },
    });
    connections.push(connection);
  }
  const failures: { server: string; reason: string }[] = [];
  await Promise.all(
    connections.map(async (connection) => {
      try {
        for (const tool of await mcpAgentTools(connection, options)) register(tool);
      } catch (error) {
        failures.push({
          server: connection.name,
          reason: error instanceof Error ? error.message : String(error),
        });
      }
    }),
  );
  return {
    connections,
    get tools() {
      return [...registered].sort();
    },
    failures,
    refresh: () => [...pending.values()].filter(register).map((t) => t.name),
    close: async () => {
      await Promise.all(connections.map((c) => c.close()));
    },
  };
}
