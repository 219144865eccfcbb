#!/usr/bin/env node
import { resolveHostConfig, parseWebArgs, WEB_USAGE } from './config.js';
import { startWebMcp, webDataDir } from './mcp.js';
import { databasePath, startWebHost } from './server.js';

const argv = process.argv.slice(2);
if (argv.includes('--help') || argv.includes('-h')) {
  process.stdout.write(`${WEB_USAGE}\n`);
  process.exit(0);
}
try {
  const options = parseWebArgs(argv, process.cwd(), process.env);
  const resolved = await resolveHostConfig(options, process.env);
  const database = databasePath(options.dataDir, process.env);
  // MCP servers are shared by every session; each session's gate governs their tools (exec: asked).
  const mcp = await startWebMcp({
    cwd: resolved.cwd,
    dataDir: webDataDir(options.dataDir, process.env),
    explicitFiles: options.mcpConfig ?? [],
    approve: options.approveMcp ?? [],
    env: process.env,
  });
  const config = { ...resolved, tools: mcp.tools };
  const host = await startWebHost({
    config,
    port: options.port,
    database,
    databaseUrl: process.env.CODEAGENT_DATABASE_URL || undefined,
  });
  process.stdout.write(
    `codeagent web · model ${config.modelLabel} · cwd ${config.cwd} · sessions in ${host.storage}\n`,
  );
  if (config.note) process.stdout.write(`${config.note}\n`);
  for (const line of mcp.lines) process.stdout.write(`${line}\n`);
  process.stdout.write(
    `\n  Open ${host.url}\n\n(the token in the URL is new each run; Ctrl+C stops the server)\n`,
  );
  const stop = () => {
    void host
      .close()
      .then(() => mcp.close())
      .then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
} catch (error) {
  process.stderr.write(
    `codeagent-web: ${error instanceof Error ? error.message : String(error)}\n\n${WEB_USAGE}\n`,
  );
  process.exit(2);
}
