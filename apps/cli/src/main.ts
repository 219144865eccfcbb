import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runAcp } from './acp.js';
import { clean } from './clean.js';
import type { PermissionConfig, PermissionMode, PermissionRules } from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import { DEMO_PERMISSIONS } from '@codeagent/providers';
import { copyDemoWorkspace } from '@codeagent/providers/node';
import { type CliOptions, CliUsageError, parseCliArgs, USAGE } from './args.js';
import { CliHost, exitStatusFor, type HostIO } from './host.js';
import { stdinKeys } from './keys.js';
import { chooseModel } from './model.js';
import { runRepl } from './repl.js';
import { resolveDataDir, SessionStore } from './sessions.js';
import { type ResolvedSettings, resolveSettings } from './settings.js';
import type { PermissionsView } from './permissions.js';

/** The CLI's version, shown by `--version`. */
export const VERSION = '0.0.0';

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
      proc.stderr.write(`codeagent: ${error.message}\n\n${USAGE}\n`);
      return 2;
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
      return await runAcp(options, proc, (cwd) => acpRules(options, proc, cwd), VERSION);
    } catch (error) {
      proc.stderr.write(`codeagent: ${clean(error instanceof Error ? error.message : String(error))}\n`);
      return 1;
    }
  }
  const color =
    !options.noColor &&
    !(proc.env.NO_COLOR !== undefined && proc.env.NO_COLOR !== '') &&
    (proc.env.FORCE_COLOR !== undefined ? proc.env.FORCE_COLOR !== '0' : proc.stdout.isTTY === true);
  const io: HostIO = { stdout: proc.stdout, stderr: proc.stderr, env: proc.env, keys: stdinKeys(proc.stdin) };
  const dataDir = resolveDataDir(options.dataDir, proc.env);
  const store = new SessionStore(dataDir);
  try {
    const chosen = await chooseModel(options, proc.env);
    let cwd = resolve(options.cwd);
    let mode: PermissionMode = options.mode;
    let rules: PermissionRules | undefined;
    let permissions: PermissionConfig | undefined;
    let view: PermissionsView;
    if (options.command === 'demo') {
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
    let sessionId = store.newId();
    let resume: unknown;
    if (options.resume !== null) {
      const saved = await store.load(options.resume);
      sessionId = saved.id;
      resume = saved.session;
    }
    const host = new CliHost(io, {
      cwd,
      mode,
      rules,
      permissions,
      protectedPaths: [dataDir],
      json: options.json,
      color,
      chosen,
      resume,
    });
    for (const warning of host.ruleWarnings(view.sources))
      proc.stderr.write(`codeagent: warning: ${clean(warning)}\n`);
    const info = (line: string) => (options.json ? proc.stderr : proc.stdout).write(`${line}\n`);
    const banner = [
      `codeagent ${VERSION}`,
      `model ${clean(chosen.resolved.modelId)} (${chosen.resolved.provider})`,
      `mode ${mode}`,
      `cwd ${clean(cwd)}`,
    ].join(' · ');
    info(color ? `\u001b[1m${banner}\u001b[0m` : banner);
    if (chosen.note) info(chosen.note);
    // The gate parses Bash commands with the bash grammar; until it loads, compound commands are asked for.
    try {
      await loadInstalledShellGrammar();
    } catch (e) {
      info(
        `warning: the bash grammar did not load (${clean(e instanceof Error ? e.message : String(e))}); Bash commands beyond plain words will be asked for`,
      );
    }
    if (resume !== undefined) info(`resumed session ${sessionId} (${host.client.history.length} messages)`);
    const save = async (title: string) => store.save(sessionId, JSON.parse(host.client.save()), title);
    try {
      if (options.command === 'demo' || options.command === 'prompt') {
        const prompt = options.command === 'demo' ? DEMO_PROMPT : (options.prompt ?? '');
        if (!options.json) info(`› ${clean(prompt)}`);
        const result = await host.runTurn(prompt);
        await save(prompt.slice(0, 80));
        info(`session saved: ${sessionId} (resume with: codeagent --resume ${sessionId})`);
        if (options.command === 'demo') info(`demo workspace left at ${cwd}`);
        return exitStatusFor(result);
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
        permissions: view,
      });
    } finally {
      await host.dispose();
    }
  } catch (error) {
    proc.stderr.write(`codeagent: ${clean(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  }
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
