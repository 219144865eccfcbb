#!/usr/bin/env node
import { CliUsageError, EXIT, parseCliArgs, USAGE, USAGE_HINT } from './args.js';
import { VERSION } from './version.js';

/** `--help`, `--version` and usage errors answer before the agent, the AI SDK and the providers are loaded. */
function quick(argv: readonly string[]): number | null {
  try {
    const options = parseCliArgs(argv, process.cwd());
    if (options.command === 'help') {
      process.stdout.write(`${USAGE}\n`);
      return EXIT.completed;
    }
    if (options.command === 'version') {
      process.stdout.write(`codeagent ${VERSION}\n`);
      return EXIT.completed;
    }
    return null;
  } catch (error) {
    if (!(error instanceof CliUsageError)) throw error;
    process.stderr.write(`codeagent: ${error.message}\n${USAGE_HINT}\n`);
    return EXIT.usage;
  }
}

const argv = process.argv.slice(2);
const early = quick(argv);
const status =
  early ??
  (await (
    await import('./main.js')
  ).runCli({
    argv,
    cwd: process.cwd(),
    env: process.env,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
  }));
process.exitCode = status;
// Background jobs and stdin may keep the loop alive; the session is over.
setImmediate(() => process.exit(status));
