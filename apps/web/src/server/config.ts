import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { AgentTool } from '@codeagent/agent-core';
import type { LanguageModel } from 'ai';
import { DEMO_PERMISSIONS, demoModel, modelFromEnv, type ResolvedModel } from '@codeagent/providers';
import { copyDemoWorkspace } from '@codeagent/providers/node';

/** What the server runs: the workspace, how models are made, and what to tell the user. */
export interface HostConfig {
  /** The workspace the tools work in. */
  readonly cwd: string;
  /** A model for a new session (the demo model keeps its place in the script, so one per session). */
  readonly model: () => { model: LanguageModel; contextWindow: number; maxOutputTokens: number };
  /** Shown in the header. */
  readonly modelLabel: string;
  /** True when running the scripted demo model in a temporary copy of the demo workspace. */
  readonly demo: boolean;
  /** A note for the screen (e.g. that the demo runs), or `null`. */
  readonly note: string | null;
  /** Deny rules every session's gate gets. */
  readonly deny: readonly string[];
  /** Tools beyond the built-ins every new session gets (the MCP servers'); none when absent. */
  readonly tools?: () => readonly AgentTool<unknown>[];
}

/** Command-line options of the web host. */
export interface WebOptions {
  /** `--cwd <dir>`, else `CODEAGENT_CWD`, else the folder it was started from. */
  readonly cwd: string;
  /** `--port <n>`; default 0, any free port (the URL is printed after start). */
  readonly port: number;
  /** `--data-dir <dir>`, else `CODEAGENT_HOME`, else `~/.codeagent`. */
  readonly dataDir: string | null;
  /** `--demo`: force the scripted demo even when a provider is configured. */
  readonly demo: boolean;
  /** `--mcp-config <file>` (repeatable): MCP server files loaded without asking. */
  readonly mcpConfig?: readonly string[];
  /** `--approve-mcp <name>` (repeatable; `all`): project `.mcp.json` servers approved for this workspace. */
  readonly approveMcp?: readonly string[];
}

/** Usage text of `codeagent-web`. */
export const WEB_USAGE = `usage: codeagent-web [--cwd <dir>] [--port <n>] [--data-dir <dir>] [--demo]
                     [--mcp-config <file>]... [--approve-mcp <name>|all]...

Starts the codeagent web host on 127.0.0.1 and prints its URL (with the per-run token).
Model: the same CODEAGENT_* variables as the CLI; with none, the scripted demo model in a
temporary copy of the demo workspace.
MCP servers: --mcp-config files and $CODEAGENT_MCP_CONFIG (loaded as given), <data-dir>/mcp.json,
and the project's .mcp.json servers you approved (in the CLI, or here with --approve-mcp:
remembered for the workspace; a changed entry needs approving again).`;

/** Parses `codeagent-web` arguments; throws a clear error on bad ones. */
export function parseWebArgs(argv: readonly string[], cwd: string, env: NodeJS.ProcessEnv): WebOptions {
  let dir = env.CODEAGENT_CWD && env.CODEAGENT_CWD.trim() !== '' ? env.CODEAGENT_CWD : cwd;
  let port = 0;
  let dataDir: string | null = null;
  let demo = false;
  const mcpConfig: string[] = [];
  const approveMcp: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    const value = () => {
      const v = argv[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${arg} needs a value`);
      return v;
    };
    if (arg === '--cwd') dir = value();
    else if (arg === '--port') {
      const v = value();
      if (!/^[0-9]{1,5}$/.test(v) || Number(v) > 65535) throw new Error(`--port must be 0-65535, got ${v}`);
      port = Number(v);
    } else if (arg === '--data-dir') dataDir = value();
    else if (arg === '--demo') demo = true;
    else if (arg === '--mcp-config') mcpConfig.push(resolve(cwd, value()));
    else if (arg === '--approve-mcp') approveMcp.push(value());
    else throw new Error(`unknown argument ${arg}`);
  }
  return { cwd: resolve(cwd, dir), port, dataDir, demo, mcpConfig, approveMcp };
}

/** Milliseconds between scripted deltas, so the demo streams visibly. */
const DEMO_DELAY_MS = 12;

/** Chooses the model and workspace: a configured provider in `cwd`, else the demo in a temporary copy. */
export async function resolveHostConfig(options: WebOptions, env: NodeJS.ProcessEnv): Promise<HostConfig> {
  const resolved: ResolvedModel | null = options.demo ? null : modelFromEnv({ env });
  if (resolved && resolved.provider !== 'scripted') {
    return {
      cwd: options.cwd,
      model: () => resolved,
      modelLabel: `${resolved.modelId} (${resolved.provider})`,
      demo: false,
      note: null,
      deny: [],
    };
  }
  const cwd = await copyDemoWorkspace(
    join(await mkdtemp(join(tmpdir(), 'codeagent-web-demo-')), 'workspace'),
  );
  return {
    cwd,
    model: () => {
      const model = demoModel({ delayMs: DEMO_DELAY_MS });
      return { model, contextWindow: 200_000, maxOutputTokens: 8_000 };
    },
    modelLabel: 'codeagent-demo (scripted)',
    demo: true,
    note: 'No provider configured: this is the scripted demo model, working in a temporary copy of the demo workspace.',
    deny: [...DEMO_PERMISSIONS.rules.deny],
  };
}
