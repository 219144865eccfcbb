#!/usr/bin/env node
import { runCli } from './main.js';

const status = await runCli({
  argv: process.argv.slice(2),
  cwd: process.cwd(),
  env: process.env,
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
process.exitCode = status;
// Background jobs and stdin may keep the loop alive; the session is over.
setImmediate(() => process.exit(status));
