import { type AcpSessionStore, serveAcp } from '@codeagent/adapter-acp';
import { attachMcpServers, mcpSlashCommands } from '@codeagent/adapter-mcp';
import { createClient, loadSession } from '@codeagent/agent-core';
import { installPermissionGate, type PermissionGate, type PermissionRules } from '@codeagent/permission-gate';
import { createBuiltinToolkit } from '@codeagent/tools';
import type { CliOptions } from './args.js';
import { clean } from './clean.js';
import { loadConfig } from './config.js';
import { chooseModel } from './model.js';
import { createSystemPrompt } from '@codeagent/system-prompt';
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
  const dataDir = resolveDataDir(options.dataDir, proc.env);
  const { config, path: configPath } = await loadConfig(dataDir);
  const chosen = await chooseModel(options, { env: proc.env, config, configPath });
  if (chosen.demo) {
    // The scripted tour edits and deletes files: never in an editor's real workspace.
    throw new Error('the scripted demo model does not run under acp; configure a model or pass --script');
  }
  log(`model ${chosen.resolved.modelId} (${chosen.resolved.provider}), mode ${options.mode}`);
  if (chosen.note) log(chosen.note);
  const store = new SessionStore(dataDir);
  // An editor stopping its agent sends SIGTERM (a closed terminal SIGHUP): end like a closed stdin, so running
  // commands are killed; whatever is still running when the process exits is killed by the exit hook.
  const stop = new AbortController();
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: shutting down`);
    stop.abort();
  };
  const toolkits = new Set<ReturnType<typeof createBuiltinToolkit>>();
  const onExit = () => {
    for (const toolkit of toolkits) toolkit.killAll('SIGKILL');
  };
  process.once('SIGTERM', onSignal);
  process.once('SIGINT', onSignal);
  process.once('SIGHUP', onSignal);
  process.on('exit', onExit);
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
          toolkits.add(toolkit);
          // The same system prompt as the terminal: role, environment, git state, the workspace's AGENTS.md...
          const prompt = await createSystemPrompt({
            cwd,
            ...(proc.env.HOME ? { homeDir: proc.env.HOME } : {}),
          });
          for (const warning of prompt.warnings) log(`instructions: ${warning}`);
          const clientOptions = {
            model: chosen.resolved.model,
            cwd,
            tools: toolkit.tools,
            contextWindow: chosen.contextWindow,
            maxOutputTokens: chosen.maxOutputTokens,
            skills: {},
            system: prompt.text,
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
            // The servers' prompts as slash commands, listed with the skills.
            commands: await mcpSlashCommands(mcp.connections),
            dispose: async () => {
              await mcp.close();
              await toolkit.dispose();
              toolkits.delete(toolkit);
            },
          };
        },
      },
      { input: proc.stdin, output: proc.stdout, signal: stop.signal },
    );
  } finally {
    process.off('SIGTERM', onSignal);
    process.off('SIGINT', onSignal);
    process.off('SIGHUP', onSignal);
    process.off('exit', onExit);
  }
  log(stop.signal.aborted ? 'stopped' : 'stdin closed; exiting');
  return 0;
}
