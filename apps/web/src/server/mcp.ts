import { homedir } from 'node:os';
import { delimiter, join, resolve } from 'node:path';
import {
  type AttachedMcpServers,
  attachMcpServers,
  collectMcpServers,
  type McpServerPolicy,
  mcpSourcePolicy,
  McpApprovalStore,
  McpFileOAuthStore,
} from '@codeagent/adapter-mcp';
import type { AgentTool } from '@codeagent/agent-core';

/** Options of {@link startWebMcp}. */
export interface WebMcpOptions {
  /** The workspace (where the project's `.mcp.json` is looked for). */
  readonly cwd: string;
  /** The data dir: the user's `mcp.json` and the approvals (shared with the CLI). */
  readonly dataDir: string;
  /** `--mcp-config` files (loaded without asking). */
  readonly explicitFiles: readonly string[];
  /** `--approve-mcp` names (`all`: every project server): approved for this workspace and remembered. */
  readonly approve: readonly string[];
  /** The environment: `CODEAGENT_MCP_CONFIG` (files separated like PATH) and `${VAR}` expansion. */
  readonly env: Readonly<Record<string, string | undefined>>;
}

/** The web host's MCP servers: their tools for every session, startup lines, and how to stop them. */
export interface WebMcp {
  /** The servers' agent tools (shared by every session; each session's gate governs them). */
  tools(): readonly AgentTool<unknown>[];
  /** What to print at startup: servers started, held, failed. */
  readonly lines: readonly string[];
  /** Stops every server. */
  close(): Promise<void>;
}

/**
 * Starts the web host's MCP servers: `--mcp-config` files and `CODEAGENT_MCP_CONFIG` (named by the user: loaded
 * without asking), the user's `<data-dir>/mcp.json`, and the project's `.mcp.json` servers only when the user approved
 * exactly that entry for this workspace: in the CLI (the same approvals file) or with `--approve-mcp` here. There is no
 * terminal to ask at, so an unapproved project server is never started; the startup lines say how to approve it.
 */
export async function startWebMcp(options: WebMcpOptions): Promise<WebMcp> {
  const fromEnv = (options.env.CODEAGENT_MCP_CONFIG ?? '')
    .split(delimiter)
    .filter((f) => f.trim() !== '')
    .map((f) => resolve(f));
  const collected = collectMcpServers({
    cwd: options.cwd,
    explicitFiles: [...fromEnv, ...options.explicitFiles.map((f) => resolve(f))],
    userFile: join(options.dataDir, 'mcp.json'),
    env: options.env,
  });
  const lines = collected.warnings.map((w) => `mcp: ${w}`);
  const store = new McpApprovalStore(join(options.dataDir, 'mcp-approvals.json'));
  const tools: AgentTool<unknown>[] = [];
  const target = {
    registerTool<Args>(tool: AgentTool<Args>) {
      if (!tools.some((t) => t.name === tool.name)) tools.push(tool as unknown as AgentTool<unknown>);
    },
  };
  const start: Record<string, (typeof collected.servers)[number]['config']> = {};
  const policies: Record<string, McpServerPolicy> = {};
  for (const s of collected.servers) {
    // Trust and capabilities come only from files the user controls (a project's .mcp.json cannot set them).
    const found = mcpSourcePolicy(s);
    if (found.warning !== undefined) lines.push(`mcp: ${found.warning}`);
    if (found.error !== undefined) {
      lines.push(`mcp: ${found.error}`);
      continue;
    }
    if (found.policy !== undefined) policies[s.name] = found.policy;
    if (s.scope === 'project' && collected.workspace !== null) {
      const workspace = collected.workspace;
      if (options.approve.includes('all') || options.approve.includes(s.name)) {
        await store.record(workspace, s.name, s.fingerprint, 'approved');
      } else if ((await store.decision(workspace, s.name, s.fingerprint)) !== 'approved') {
        lines.push(
          `mcp: ${s.name} of ${s.file} not started: not approved for this workspace (restart with --approve-mcp ${s.name}, or approve it in the codeagent CLI)`,
        );
        continue;
      }
    }
    start[s.name] = s.config;
  }
  // Tokens the CLI got for OAuth servers are used here too; a sign-in needs the CLI's terminal.
  const attached: AttachedMcpServers = await attachMcpServers(target, start, {
    policies,
    oauth: {
      store: new McpFileOAuthStore(join(options.dataDir, 'mcp-tokens.json')),
      redirectUrl: 'http://127.0.0.1/callback',
      authorize: async ({ server }) => {
        throw new Error(`MCP server ${server} needs you to sign in: do it once in the codeagent CLI`);
      },
    },
    // Servers' questions have no one to answer them here.
    elicit: async () => ({ action: 'decline' }),
  });
  for (const f of attached.failures) lines.push(`mcp: ${f.server} failed: ${f.reason}`);
  for (const c of attached.connections) {
    if (c.state !== 'ready') continue;
    const count = tools.filter((t) => t.name.startsWith(`mcp__${c.name}__`)).length;
    lines.push(`mcp: ${c.name} ready · ${count} tool${count === 1 ? '' : 's'}`);
  }
  return { tools: () => [...tools], lines, close: () => attached.close() };
}

/** The data dir the CLI uses too (`--data-dir`, else `CODEAGENT_HOME`, else `~/.codeagent`): approvals are shared. */
export function webDataDir(dataDir: string | null, env: NodeJS.ProcessEnv): string {
  if (dataDir) return resolve(dataDir);
  return env.CODEAGENT_HOME ? resolve(env.CODEAGENT_HOME) : join(homedir(), '.codeagent');
}
