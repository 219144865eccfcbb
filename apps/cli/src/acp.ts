import { type AcpSessionStore, serveAcp } from '@codeagent/adapter-acp';
import { attachMcpServers } from '@codeagent/adapter-mcp';
import { createClient, loadSession } from '@codeagent/agent-core';
import { installPermissionGate, type PermissionGate, type PermissionRules } from '@codeagent/permission-gate';
import { createBuiltinToolkit } from '@codeagent/tools';
import type { CliOptions } from './args.js';
import { clean } from './clean.js';
import { chooseModel } from './model.js';
import { resolveDataDir, SessionStore } from './sessions.js';

/** What `codeagent acp` needs from the process. */
export interface AcpProcess {
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadableStream;
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

/** The CLI's session folder as the adapter's store: ACP sessions resume with `--resume` too, and back. */
function cliSessionStore(store: SessionStore): AcpSessionStore {
  return {
    save: async (id, session, info) => {
      await store.save(id, session, info.title);
    },
    // An ACP session id is a name in the sessions folder, never a path (the CLI's --resume also takes paths).
    load: async (id) => {
      if (!SESSION_ID.test(id) || id.endsWith('.json')) throw new Error(`invalid session id "${id}"`);
      return (await store.load(id)).session;
    },
    list: async () => {
      const out = [];
      for (const entry of await store.list()) {
        try {
          const { session } = await store.load(entry.id);
          const cwd = (session as { cwd?: unknown } | null)?.cwd;
          if (typeof cwd === 'string') {
            out.push({ sessionId: entry.id, cwd, title: entry.title, updatedAt: entry.updatedAt });
          }
        } catch {
          // Unreadable files are not listed (the CLI's /sessions does the same).
        }
      }
      return out;
    },
  };
}

/**
 * `codeagent acp`: serves the Agent Client Protocol over stdio until stdin closes. Stdout carries protocol
 * messages only; every log line goes to stderr.
 */
export async function runAcp(
  options: CliOptions,
  proc: AcpProcess,
  readRules: (cwd: string) => Promise<PermissionRules | undefined>,
  version: string,
): Promise<number> {
  const log = (line: string) => proc.stderr.write(`codeagent acp: ${clean(line)}\n`);
  const chosen = await chooseModel(options, proc.env);
  log(`model ${chosen.resolved.modelId} (${chosen.resolved.provider}), mode ${options.mode}`);
  if (chosen.note) log(chosen.note);
  const dataDir = resolveDataDir(options.dataDir, proc.env);
  const store = new SessionStore(dataDir);
  // An editor stopping its agent sends SIGTERM: end like a closed stdin, so running commands are killed.
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: shutting down`);
    stop.abort();
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  try {
    await serveAcp(
      {
        agentInfo: { name: 'codeagent', title: 'codeagent', version },
        mode: options.mode,
        store: cliSessionStore(store),
        newSessionId: () => store.newId(),
        log,
        // MCP servers from the editor's session/new and session/load (stdio and Streamable HTTP).
        mcp: { http: true },
        createSession: async ({ cwd, saved, mcpServers }) => {
          const rules = await readRules(cwd);
          let gate: PermissionGate | null = null;
          // Read-path rules reach Glob/Grep walks; a link cannot carry a write into protected configuration.
          const toolkit = createBuiltinToolkit({
            cwd,
            readFilter: (p) => gate?.readRestriction(p) == null,
            writeFilter: (p) => gate === null || gate.mode === 'bypass' || !gate.isProtectedPath(p),
          });
          const clientOptions = {
            model: chosen.resolved.model,
            cwd,
            tools: toolkit.tools,
            contextWindow: chosen.resolved.contextWindow,
            maxOutputTokens: chosen.resolved.maxOutputTokens,
            skills: {},
          };
          const client =
            saved === undefined ? createClient(clientOptions) : loadSession(saved, clientOptions);
          gate = installPermissionGate(client, {
            cwd,
            protectedPaths: [dataDir],
            ...(rules ? { rules } : {}),
          });
          // Their tools are exec (the editor is asked) unless rules say otherwise; a failing server is logged.
          const mcp = await attachMcpServers(client, mcpServers);
          for (const f of mcp.failures) log(`MCP server ${f.server}: ${f.reason}`);
          return {
            client,
            dispose: async () => {
              await mcp.close();
              await toolkit.dispose();
            },
          };
        },
      },
      { input: proc.stdin, output: proc.stdout, signal: stop.signal },
    );
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
  }
  log(stop.signal.aborted ? 'stopped' : 'stdin closed; exiting');
  return 0;
}
