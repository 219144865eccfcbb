import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { assertNever } from '@codeagent/render-intent';
import { clean } from './clean.js';
import type { PermissionConfig, PermissionMode, PermissionRules } from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import { DEMO_PERMISSIONS } from '@codeagent/providers';
import { copyDemoWorkspace } from '@codeagent/providers/node';
import { type CliOptions, CliUsageError, EXIT, parseCliArgs, USAGE, USAGE_HINT } from './args.js';
import { loadConfig } from './config.js';
import { CliHost, exitStatusFor, formatTokens, type HostIO } from './host.js';
import { type KeyInput, stdinKeys } from './keys.js';
import {
  chooseModel,
  DEFAULT_STALL_TIMEOUT_SECONDS,
  type ModelSpec,
  NoModelError,
  switchModel,
  type WindowSource,
} from './model.js';
import { renderHistory } from './history.js';
import { recoverTurn } from './journal.js';
import { attachMentions } from './mentions.js';
import { nullSink } from './output.js';
import { describeSession, pickSession } from './picker.js';
import { createSystemPrompt, displaySafe } from '@codeagent/system-prompt';
import { resolveColor } from '@codeagent/terminal';
import { runRepl } from './repl.js';
import { resolveDataDir, SessionStore } from './sessions.js';
import { type ResolvedSettings, resolveSettings } from './settings.js';
import type { PermissionsView } from './permissions.js';
import { killChildrenOnExit } from './signals.js';
import { mcpConfigPresent, noMcpServers, type SessionMcp } from './mcp-lazy.js';

import { VERSION } from './version.js';
import { wrapParts } from './wrap.js';

/** The prompt the demo sends (the scripted model replays its tour whatever the words). */
export const DEMO_PROMPT =
  'Give me a tour of this workspace: look around, tidy greet.ts, run the tests, and clean up the build folder.';

/** Process-level streams and environment, injectable for tests. */
export interface CliProcess {
  argv: readonly string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
  stdin: NodeJS.ReadStream;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

/** Runs the `codeagent` command and returns its exit status. */
export async function runCli(proc: CliProcess): Promise<number> {
  let options: CliOptions;
  try {
    options = parseCliArgs(proc.argv, proc.cwd);
  } catch (error) {
    if (error instanceof CliUsageError) {
      proc.stderr.write(`codeagent: ${error.message}\n${USAGE_HINT}\n`);
      return EXIT.usage;
    }
    throw error;
  }
  if (options.command === 'help') {
    proc.stdout.write(`${USAGE}\n`);
    return 0;
  }
  if (options.command === 'version') {
    proc.stdout.write(`codeagent ${VERSION}\n`);
    return 0;
  }
  if (options.command === 'acp') {
    try {
      // The ACP adapter and its SDK load only for `codeagent acp`.
      const { runAcp } = await import('./acp.js');
      return await runAcp(options, proc, (cwd) => acpRules(options, proc, cwd), VERSION);
    } catch (error) {
      proc.stderr.write(`codeagent: ${clean(error instanceof Error ? error.message : String(error))}\n`);
      return 1;
    }
  }
  const oneShot = options.command === 'prompt';
  // -p: stdout carries only the answer (or NDJSON); progress goes to stderr when asked for or on a terminal.
  const showProgress = !oneShot || (!options.json && (options.verbose || proc.stderr.isTTY === true));
  const progress: HostIO['stdout'] = !oneShot ? proc.stdout : showProgress ? proc.stderr : nullSink();
  // One colour rule for the whole host: --no-color, then NO_COLOR, then FORCE_COLOR, then the terminal.
  const colorFor = (stream: { isTTY?: boolean }) =>
    resolveColor({ color: options.noColor ? false : 'auto', env: proc.env, isTTY: stream.isTTY === true });
  const color = colorFor(progress);
  const keys: KeyInput =
    showProgress && !options.json
      ? stdinKeys(proc.stdin)
      : { interactive: false, capture: () => () => undefined };
  const io: HostIO = {
    stdout: options.json ? proc.stdout : progress,
    stderr: proc.stderr,
    env: proc.env,
    keys,
  };
  const dataDir = resolveDataDir(options.dataDir, proc.env);
  const store = new SessionStore(dataDir);
  // Work that waits on files, git and WebAssembly starts now and runs beside the model lookup (awaited below).
  const grammar = loadInstalledShellGrammar();
  grammar.catch(() => undefined);
  const promptFor = (dir: string) =>
    createSystemPrompt({
      cwd: dir,
      override: options.systemPrompt ?? undefined,
      append: options.appendSystemPrompt ?? undefined,
      ...(proc.env.HOME ? { homeDir: proc.env.HOME } : {}),
    });
  const early = {
    cwd: resolve(options.cwd),
    prompt: options.command === 'demo' ? null : promptFor(resolve(options.cwd)),
  };
  early.prompt?.catch(() => undefined);
  try {
    const { config, path: configPath } = await loadConfig(dataDir);
    // A resumed session is found first: it brings its provider and model.
    let sessionId = store.newId();
    let resume: unknown;
    let remembered: ModelSpec | undefined;
    const found = await findSession(options, store, resolve(options.cwd), {
      write: (text) => proc.stderr.write(text),
      keys: stdinKeys(proc.stdin),
      color: colorFor(proc.stderr),
      interactive: proc.stdin.isTTY === true && proc.stderr.isTTY === true,
    });
    if (found === 'cancelled') return EXIT.completed;
    let recovered = 0;
    let interrupted = false;
    if (found !== null) {
      sessionId = found.id;
      resume = found.session;
      // A turn killed mid-way left its completed steps in the store (or, from an earlier CLI, in a journal file):
      // they rejoin the conversation.
      interrupted = found.interrupted !== null;
      recovered = found.interrupted?.steps ?? 0;
      const journal = interrupted ? null : await recoverTurn(store.journalPath(found.id), found.session);
      if (journal !== null) {
        resume = journal.session;
        recovered = journal.steps;
        interrupted = true;
      }
      if (found.meta.provider !== undefined && found.meta.model !== undefined) {
        remembered = {
          provider: found.meta.provider,
          model: found.meta.model,
          baseURL: found.meta.baseURL,
          apiKeyEnv: found.meta.apiKeyEnv,
        };
      }
    }
    const modelContext = { env: proc.env, config, configPath, remembered };
    let chosen: Awaited<ReturnType<typeof chooseModel>>;
    try {
      chosen = await chooseModel(options, modelContext);
    } catch (error) {
      if (!(error instanceof NoModelError)) throw error;
      proc.stderr.write(`codeagent: ${error.message}\n`);
      return EXIT.usage;
    }
    let cwd = resolve(options.cwd);
    let mode: PermissionMode = options.mode;
    let rules: PermissionRules | undefined;
    let permissions: PermissionConfig | undefined;
    let view: PermissionsView;
    if (options.command === 'demo' || chosen.demo) {
      // The scripted tour edits and deletes files: it only ever runs on a temporary copy of its workspace.
      cwd = await copyDemoWorkspace(await mkdtemp(join(tmpdir(), 'codeagent-demo-')));
      mode = DEMO_PERMISSIONS.permissionMode;
      rules = { deny: [...DEMO_PERMISSIONS.rules.deny] };
      view = {
        sources: rules.deny?.map((rule) => ({ list: 'deny', rule, file: '(demo)' })) ?? [],
        ignored: [],
        files: [],
      };
    } else {
      // Settings that exist but cannot be read or parsed stop the CLI here, naming the file (fail closed).
      const interactive = options.command === 'repl' && io.keys.interactive && !options.json;
      const settings = await resolveSettings({
        cwd,
        dataDir,
        modeFlag: options.modeExplicit ? options.mode : null,
        trustFlag: options.trust,
        ...(interactive
          ? { askTrust: (file: string, widening: readonly string[]) => askTrust(io, file, widening, color) }
          : {}),
      });
      mode = settings.mode;
      permissions = settings.config;
      view = settings;
      // One-shot runs cannot ask: say what was not applied and how to apply it.
      if (!interactive) warnIgnored(proc.stderr, settings);
    }
    const prompt = await (cwd === early.cwd && early.prompt !== null ? early.prompt : promptFor(cwd));
    const host = new CliHost(io, {
      system: prompt.text,
      cwd,
      mode,
      rules,
      permissions,
      protectedPaths: [dataDir],
      json: options.json,
      color,
      chosen,
      resume,
      quiet: !showProgress,
      journal: () => store.turnSink(sessionId),
    });
    for (const warning of host.ruleWarnings(view.sources))
      proc.stderr.write(`codeagent: warning: ${clean(warning)}\n`);
    // SIGINT/SIGTERM/SIGHUP and exit end the session's process groups: nothing is left re-parented to init. The REPL
    // keeps SIGINT for its own Ctrl+C (the first interrupts or arms, the second exits through the exit hook).
    let mcp: SessionMcp | null = null;
    const stopSignals = killChildrenOnExit(
      (signal) => host.toolkit.killAll(signal) + (mcp?.kill(signal) ?? 0),
      {
        ...(options.command === 'repl' ? { signals: ['SIGTERM', 'SIGHUP'] as const } : {}),
        beforeExit: () => {
          if (proc.stdin.isTTY === true) proc.stdin.setRawMode(false);
        },
      },
    );
    const info = (line: string) => {
      if (showProgress) progress.write(`${line}\n`);
    };
    const banner = wrapParts(
      [
        `codeagent ${VERSION}`,
        `model ${clean(chosen.resolved.modelId)} (${chosen.resolved.provider})`,
        `window ${formatTokens(chosen.contextWindow)}${windowNote(chosen.windowSource)}`,
        `mode ${mode}`,
        `cwd ${clean(cwd)}`,
      ],
      progress.columns ?? 100,
    );
    for (const line of banner) info(color ? `\u001b[1m${line}\u001b[0m` : line);
    if (chosen.note) info(chosen.note);
    // The gate parses Bash commands with the bash grammar; until it loads, compound commands are asked for.
    try {
      await grammar;
    } catch (e) {
      info(
        `warning: the bash grammar did not load (${clean(e instanceof Error ? e.message : String(e))}); Bash commands beyond plain words will be asked for`,
      );
    }
    const files = prompt.instructions.map((file) => displaySafe(file.label));
    info(
      `system prompt ${(prompt.bytes / 1024).toFixed(1)} kB${files.length > 0 ? ` · instructions: ${files.join(', ')}` : ''}`,
    );
    for (const warning of prompt.warnings) info(`instructions: ${displaySafe(warning)}`);
    if (options.command !== 'demo' && !chosen.demo) {
      // MCP servers: --mcp-config files, the user's mcp.json, and the project's .mcp.json servers the user approved.
      const asking = options.command === 'repl' && io.keys.interactive && !options.json;
      const explicitFiles = options.mcpConfig.map((file) => resolve(proc.cwd, file));
      // The MCP adapter and its SDK load only when a config could name a server (or --approve-mcp needs checking).
      if (options.approveMcp.length > 0 || mcpConfigPresent(cwd, dataDir, explicitFiles)) {
        const { askMcpApproval, CliMcp } = await import('./mcp.js');
        mcp = await CliMcp.start(host, {
          cwd,
          dataDir,
          explicitFiles,
          approve: options.approveMcp,
          ask: asking ? askMcpApproval(io, color) : undefined,
          // Sign-ins and servers' questions need the terminal; without it they fail or are declined.
          user: asking
            ? { stdout: io.stdout, keys: io.keys, color, question: (ask) => host.question(ask) }
            : undefined,
          note: (line, warn) => {
            if (showProgress) info(line);
            else if (warn) proc.stderr.write(`codeagent: ${line}\n`);
          },
          env: proc.env,
        });
      } else mcp = noMcpServers();
    }
    if (resume !== undefined) {
      info(`resumed session ${sessionId} (${host.client.messages.length} messages)`);
      if (recovered > 0) {
        info(`recovered ${recovered} completed step(s) of a turn that was interrupted before it was saved`);
      } else if (interrupted) {
        info('the last turn was interrupted before any step completed');
      }
      if (!options.json)
        for (const line of renderHistory(
          host.client.messages,
          color,
          progress.isTTY === true ? progress.columns : undefined,
        ))
          info(line);
      if (!options.json && host.client.messages.length > 0)
        info(color ? '\u001b[2m── resumed ──\u001b[0m' : '── resumed ──');
    }
    const save = async (title: string) => {
      const spec = host.model.spec;
      const file = await store.save(sessionId, JSON.parse(host.client.save()), title, {
        cwd,
        provider: spec.provider,
        model: spec.model,
        baseURL: spec.baseURL,
        apiKeyEnv: spec.apiKeyEnv,
      });
      host.turnSaved();
      return file;
    };
    try {
      if (options.command === 'demo' || options.command === 'prompt') {
        const prompt = options.command === 'demo' ? DEMO_PROMPT : (options.prompt ?? '');
        if (options.json) {
          proc.stdout.write(
            `${JSON.stringify({
              type: 'session',
              sessionId,
              provider: chosen.resolved.provider,
              model: chosen.resolved.modelId,
              cwd,
              mode,
              resumed: resume !== undefined,
            })}\n`,
          );
        } else info(`› ${clean(prompt)}`);
        // `-p "/mcp__server__prompt args"`: the server's prompt is what the model gets (no @mentions inside it).
        const fromMcp = options.command === 'prompt' && mcp !== null ? await mcp.expand(prompt) : null;
        if (fromMcp !== null && 'error' in fromMcp) {
          proc.stderr.write(`codeagent: ${fromMcp.error}\n`);
          return EXIT.usage;
        }
        if (fromMcp !== null) info(fromMcp.label);
        const attached =
          options.command === 'prompt' && fromMcp === null
            ? await attachMentions(prompt, host.toolkit.workspace)
            : null;
        for (const note of attached?.notes ?? []) proc.stderr.write(`${displaySafe(note)}\n`);
        // Saved before the turn too, so a journal of its steps has a session to rejoin if the process dies.
        await save(prompt.slice(0, 80));
        const result = await host.runTurn(fromMcp?.text ?? attached?.prompt ?? prompt);
        await save(prompt.slice(0, 80));
        if (oneShot && !options.json && host.lastAnswer.trim() !== '') {
          proc.stdout.write(host.lastAnswer.endsWith('\n') ? host.lastAnswer : `${host.lastAnswer}\n`);
        }
        info(`session saved: ${sessionId} (resume with: codeagent --resume ${sessionId})`);
        if (options.command === 'demo') info(`demo workspace left at ${cwd}`);
        const status = exitStatusFor(result);
        if (oneShot && status === EXIT.completed && host.lastDenials > 0) {
          if (!showProgress && !options.json) {
            proc.stderr.write(`codeagent: ${host.lastDenials} tool call(s) denied (exit status 3)\n`);
          }
          return EXIT.stopped;
        }
        return status;
      }
      return await runRepl({
        host,
        io,
        stdin: proc.stdin,
        store,
        cwd,
        color,
        save,
        newSession: () => {
          sessionId = store.newId();
          return sessionId;
        },
        sessionId: () => sessionId,
        resolveModel: (name) =>
          switchModel(name, host.model, {
            ...modelContext,
            stallSeconds:
              options.stallTimeoutSeconds ?? config.stallTimeoutSeconds ?? DEFAULT_STALL_TIMEOUT_SECONDS,
          }),
        modelNames: Object.keys(config.models ?? {}),
        historyFile: join(dataDir, 'history'),
        permissions: view,
        mcp,
      });
    } finally {
      // Servers are stopped before the exit: none is left running after the CLI (stdin closed, SIGTERM, SIGKILL).
      await mcp?.close();
      await stopSignals();
      await host.dispose();
    }
  } catch (error) {
    proc.stderr.write(`codeagent: ${clean(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  }
}

/** How the banner qualifies the window figure. */
function windowNote(source: WindowSource): string {
  switch (source) {
    case 'server':
      return ' from the server';
    case 'default':
      return ' (assumed: unknown model; set --context-window)';
    case 'flag':
    case 'config':
    case 'env':
    case 'table':
      return '';
    default:
      return assertNever(source, 'windowNote');
  }
}

/**
 * The session to resume: `--resume <id>`, `--resume` alone (a picker on a terminal), `--continue` (the newest of
 * this folder); null for a new session, `'cancelled'` when the user left the picker.
 */
async function findSession(
  options: CliOptions,
  store: SessionStore,
  cwd: string,
  io: { write: (text: string) => void; keys: KeyInput; color: boolean; interactive: boolean },
): Promise<Awaited<ReturnType<SessionStore['load']>> | null | 'cancelled'> {
  if (options.continue) {
    const latest = await store.latestFor(cwd);
    if (latest === null)
      throw new Error(`no saved session for ${cwd} to continue (start one with: codeagent)`);
    return store.load(latest.id);
  }
  if (options.resume === null) return null;
  if (options.resume !== '') return store.load(options.resume);
  const sessions = await store.list();
  if (!io.interactive) {
    const lines = sessions.slice(0, 10).map((s) => `  ${describeSession(s)}`);
    throw new Error(
      `--resume needs a session id when there is no terminal to pick one${lines.length > 0 ? `:\n${lines.join('\n')}` : ' (no saved sessions)'}`,
    );
  }
  if (!sessions.some((s) => s.damaged === null)) throw new Error('no saved sessions to resume');
  const picked = await pickSession(sessions, cwd, io);
  return picked === null ? 'cancelled' : store.load(picked.id);
}

/**
 * Rules for an ACP session's workspace: user and project settings read fail-closed, the project's narrowed unless
 * the workspace is trusted (the editor cannot be asked; `--trust` or an earlier interactive answer counts).
 */
async function acpRules(
  options: CliOptions,
  proc: CliProcess,
  cwd: string,
): Promise<PermissionRules | undefined> {
  const settings = await resolveSettings({
    cwd: resolve(cwd),
    dataDir: resolveDataDir(options.dataDir, proc.env),
    modeFlag: null,
    trustFlag: options.trust,
  });
  warnIgnored(proc.stderr, settings);
  return settings.config.rules;
}

/** Says which entries of untrusted project settings were not applied (they would have widened permissions). */
function warnIgnored(stderr: NodeJS.WritableStream, settings: ResolvedSettings): void {
  if (settings.ignored.length === 0) return;
  const files = [...new Set(settings.ignored.map((i) => i.file))].join(', ');
  const entries = settings.ignored.map((i) => clean(i.entry));
  const shown =
    entries.length > 10
      ? `${entries.slice(0, 10).join(', ')}, … ${entries.length - 10} more`
      : entries.join(', ');
  stderr.write(
    `codeagent: workspace not trusted: ignored ${settings.ignored.length} entr${settings.ignored.length === 1 ? 'y' : 'ies'} of ${clean(files)} that would widen permissions (${shown}); pass --trust to apply them\n`,
  );
}

/** Asks once, by keystroke, whether to trust a workspace whose settings would widen permissions. */
async function askTrust(
  io: HostIO,
  file: string,
  widening: readonly string[],
  color: boolean,
): Promise<boolean> {
  const b = (s: string) => (color ? `\u001b[1m${s}\u001b[0m` : s);
  io.stdout.write(`${b("This workspace's settings would widen permissions:")} ${clean(file)}\n`);
  for (const w of widening.slice(0, 20)) io.stdout.write(`  ${clean(w)}\n`);
  if (widening.length > 20) io.stdout.write(`  … and ${widening.length - 20} more\n`);
  io.stdout.write(
    `Trust only a workspace whose files you trust (a cloned repository can ship this file).\n${b('Trust this workspace and apply them?')}  ${b('[y]')} yes, remember  ${b('[n]')} no, keep them narrowed  `,
  );
  const yes = await new Promise<boolean>((done) => {
    const release = io.keys.capture((key) => {
      const name = (key.name ?? key.sequence ?? '').toLowerCase();
      if (
        name !== 'y' &&
        name !== 'n' &&
        name !== 'escape' &&
        name !== 'return' &&
        !(key.ctrl && key.name === 'c')
      )
        return;
      release();
      done(name === 'y');
    });
  });
  io.stdout.write(yes ? 'trusted\n' : 'not trusted: deny and ask rules apply, the rest is ignored\n');
  return yes;
}
