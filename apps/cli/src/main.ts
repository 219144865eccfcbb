import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { runAcp } from './acp.js';
import { clean } from './clean.js';
import { parsePermissionConfig, type PermissionMode, type PermissionRules } from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import { DEMO_PERMISSIONS } from '@codeagent/providers';
import { copyDemoWorkspace } from '@codeagent/providers/node';
import { type CliOptions, CliUsageError, parseCliArgs, USAGE } from './args.js';
import { CliHost, exitStatusFor, type HostIO } from './host.js';
import { stdinKeys } from './keys.js';
import { chooseModel } from './model.js';
import { runRepl } from './repl.js';
import { resolveDataDir, SessionStore } from './sessions.js';

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
      return await runAcp(options, proc, readProjectRules, VERSION);
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
  const store = new SessionStore(resolveDataDir(options.dataDir, proc.env));
  try {
    const chosen = await chooseModel(options, proc.env);
    let cwd = resolve(options.cwd);
    let mode: PermissionMode = options.mode;
    let rules: PermissionRules | undefined = await readProjectRules(cwd);
    if (options.command === 'demo') {
      cwd = await copyDemoWorkspace(await mkdtemp(join(tmpdir(), 'codeagent-demo-')));
      mode = DEMO_PERMISSIONS.permissionMode;
      rules = { deny: [...DEMO_PERMISSIONS.rules.deny] };
    }
    let sessionId = store.newId();
    let resume: unknown;
    if (options.resume !== null) {
      const saved = await store.load(options.resume);
      sessionId = saved.id;
      resume = saved.session;
    }
    const host = new CliHost(io, { cwd, mode, rules, json: options.json, color, chosen, resume });
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
      });
    } finally {
      await host.dispose();
    }
  } catch (error) {
    proc.stderr.write(`codeagent: ${clean(error instanceof Error ? error.message : String(error))}\n`);
    return 1;
  }
}

/** Reads permission rules from `<cwd>/.codeagent/settings.json` (or `.yaml`) when present. */
async function readProjectRules(cwd: string): Promise<PermissionRules | undefined> {
  for (const name of ['settings.json', 'settings.yaml', 'settings.yml']) {
    const path = join(cwd, '.codeagent', name);
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      continue;
    }
    try {
      return parsePermissionConfig(text, { format: name.endsWith('.json') ? 'json' : 'yaml' }).rules;
    } catch (error) {
      throw new Error(`${path}: ${(error as Error).message}`);
    }
  }
  return undefined;
}
