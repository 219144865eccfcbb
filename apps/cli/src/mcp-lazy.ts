import { existsSync, lstatSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type { McpSlashCommand } from '@codeagent/adapter-mcp';
import { clean } from './clean.js';
import type { CliMcp } from './mcp.js';

/** What the CLI uses of a session's MCP servers (the REPL's `/mcp`, prompts, and the shutdown). */
export type SessionMcp = Pick<
  CliMcp,
  'slashCommands' | 'approve' | 'statusLines' | 'expand' | 'kill' | 'close'
>;

/** The user's own MCP file in the data dir (the `.mcp.json` format); `mcp.ts` reads it. */
export const USER_MCP_FILE = 'mcp.json';

/** The line `/mcp` shows when no server is configured. */
export const NO_MCP_SERVERS =
  'no MCP servers configured (.mcp.json in the project, ~/.codeagent/mcp.json, or --mcp-config <file>)';

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

/**
 * Whether any MCP config could name a server: a `--mcp-config` file, the user's `mcp.json`, or a `.mcp.json` from
 * `cwd` up to the repository root (the same walk as adapter-mcp's `findProjectMcpFile`). Without one the MCP adapter
 * and its SDK are never loaded (a turn does not pay for them).
 */
export function mcpConfigPresent(cwd: string, dataDir: string, explicitFiles: readonly string[]): boolean {
  if (explicitFiles.length > 0 || exists(join(dataDir, USER_MCP_FILE))) return true;
  const start = resolve(cwd);
  let stop = start;
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) {
      stop = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  for (let dir = start; ; dir = dirname(dir)) {
    if (exists(join(dir, '.mcp.json'))) return true;
    if (dir === stop || dirname(dir) === dir) return false;
  }
}

/** The MCP side of a session that has no server configured: `/mcp` says how to add one. */
export function noMcpServers(): SessionMcp {
  return {
    slashCommands: async (): Promise<readonly McpSlashCommand[]> => [],
    approve: async (name: string) => `no MCP server named ${clean(name)} (see /mcp)`,
    statusLines: async () => [NO_MCP_SERVERS],
    expand: async (line: string) => {
      const match = /^\/(mcp__\S+)/u.exec(line.trim());
      return match === null ? null : { error: `unknown MCP prompt /${clean(match[1] ?? '')} (try /mcp)` };
    },
    kill: () => 0,
    close: async () => undefined,
  };
}
