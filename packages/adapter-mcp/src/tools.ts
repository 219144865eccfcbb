import { type AgentTool, defineTool, type ToolContext } from '@codeagent/agent-core';
import type { ToolResult } from '@codeagent/artifact-schema';
import type { Capability } from '@codeagent/permission-gate';
import type { ToolCallView } from '@codeagent/render-intent';
import { jsonSchema } from 'ai';
import type { McpServerConfig } from './config.js';
import {
  type McpConnectionOptions,
  type McpProgress,
  McpServerConnection,
  type McpToolInfo,
} from './connection.js';
import { mcpToolName } from './names.js';
import { errorResult, type McpResultLimits, mcpResultToToolResult } from './result.js';
import { clipServerText } from './text.js';

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

const isRecord = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

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
