import { existsSync, lstatSync, realpathSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { isRecord } from '@codeagent/artifact-schema/internal';
import { type McpServerConfig, type ParseMcpConfigOptions, readMcpConfigFile } from './config.js';
import { McpAdapterError } from './errors.js';
import { readPrivateJson, writePrivateJson } from './files.js';

/** Where a server definition came from; the order of precedence is `explicit`, then `user`, then `project`. */
export type McpServerScope = 'explicit' | 'user' | 'project';

/** One server definition found in a config file. */
export interface McpServerSource {
  /** The server's name (the `<server>` of `mcp__<server>__<tool>`). */
  readonly name: string;
  /** How it is started or reached (variables expanded). */
  readonly config: McpServerConfig;
  /** `explicit` (`--mcp-config`), `user` (the user's own file) or `project` (the workspace's `.mcp.json`). */
  readonly scope: McpServerScope;
  /** The file it was read from. */
  readonly file: string;
  /** Its entry as written, before expansion (what is shown when a project server is asked about). */
  readonly entry: Readonly<Record<string, unknown>>;
  /** Fingerprint of the entry as written (`mcpServerFingerprint`): an approval is for exactly this. */
  readonly fingerprint: string;
}

/** Options of {@link collectMcpServers}. */
export interface CollectMcpServersOptions extends ParseMcpConfigOptions {
  /** The workspace folder the project's `.mcp.json` is looked for from. */
  readonly cwd: string;
  /** Files named on the command line (`--mcp-config`), in order: a later file's server replaces an earlier one's. */
  readonly explicitFiles?: readonly string[];
  /** The user's own MCP file (e.g. `~/.codeagent/mcp.json`); read when it exists. */
  readonly userFile?: string;
  /** Whether to look for the project's `.mcp.json` (default `true`). */
  readonly project?: boolean;
}

/** What {@link collectMcpServers} found. */
export interface CollectedMcpServers {
  /** One definition per server name, after precedence (explicit, user, project), in file order. */
  readonly servers: readonly McpServerSource[];
  /** The project's `.mcp.json` that was read, or `null`. */
  readonly projectFile: string | null;
  /** The workspace the project's servers are approved for: the real path of the folder holding `.mcp.json`. */
  readonly workspace: string | null;
  /** Entries left out, variables not set, and definitions shadowed by a higher scope. */
  readonly warnings: readonly string[];
}

/** The name of a project's MCP file (Claude Code's). */
export const PROJECT_MCP_FILE = '.mcp.json';

/**
 * The project's `.mcp.json`: the nearest one from `cwd` up to the repository root (the first folder holding `.git`),
 * or only `cwd`'s when `cwd` is not inside a repository. `null` when there is none.
 */
export function findProjectMcpFile(cwd: string): string | null {
  const start = resolve(cwd);
  let root: string | null = null;
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) {
      root = dir;
      break;
    }
    if (dirname(dir) === dir) break;
  }
  const stop = root ?? start;
  for (let dir = start; ; dir = dirname(dir)) {
    const file = join(dir, PROJECT_MCP_FILE);
    if (exists(file)) return file;
    if (dir === stop || dirname(dir) === dir) return null;
  }
}

function exists(file: string): boolean {
  try {
    lstatSync(file);
    return true;
  } catch {
    return false;
  }
}

function realDir(file: string): string {
  const dir = dirname(resolve(file));
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}

/**
 * Reads the MCP servers a host starts with: the files given explicitly, the user's own file, and the project's
 * `.mcp.json`, each read fail-closed: an explicit or user file that cannot be read throws {@link McpAdapterError}; a
 * project file that cannot be read starts none of its servers and says so in `warnings`. A name defined in several scopes takes the definition of the highest
 * (explicit, then user, then project), with a warning: a project cannot replace a server the user defined, nor borrow
 * the permission rules written for it. Which project servers may start is the host's decision
 * ({@link McpApprovalStore}).
 */
export function collectMcpServers(options: CollectMcpServersOptions): CollectedMcpServers {
  const parse = options.env ? { env: options.env } : {};
  const warnings: string[] = [];
  const byName = new Map<string, McpServerSource>();
  const read = (file: string, scope: McpServerScope): McpServerSource[] => {
    const got = readMcpConfigFile(file, parse);
    for (const w of got.warnings) warnings.push(`${file}: ${w}`);
    return Object.entries(got.servers).map(([name, config]) => ({
      name,
      config,
      scope,
      file,
      entry: got.entries[name] ?? {},
      fingerprint: got.fingerprints[name] ?? '',
    }));
  };
  // Among explicit files, a later one replaces an earlier one (as a repeated flag does).
  for (const file of options.explicitFiles ?? [])
    for (const s of read(file, 'explicit')) byName.set(s.name, s);
  const lower = (sources: McpServerSource[]) => {
    for (const s of sources) {
      const kept = byName.get(s.name);
      if (kept) warnings.push(`${s.file}: server ${s.name} is also defined in ${kept.file}, which is used`);
      else byName.set(s.name, s);
    }
  };
  if (options.userFile !== undefined && exists(options.userFile)) lower(read(options.userFile, 'user'));
  let projectFile: string | null = null;
  if (options.project !== false) {
    projectFile = findProjectMcpFile(options.cwd);
    if (projectFile !== null) {
      try {
        lower(read(projectFile, 'project'));
      } catch (error) {
        // A broken project file starts nothing; the session goes on without its servers.
        warnings.push(`${(error as Error).message}; none of its servers is started`);
      }
    }
  }
  return {
    servers: [...byName.values()],
    projectFile,
    workspace: projectFile === null ? null : realDir(projectFile),
    warnings,
  };
}

/** The user's answer about one project server. */
export type McpApprovalDecision = 'approved' | 'denied';

/** One remembered answer. */
export interface McpApproval {
  /** The fingerprint of the entry the user answered about. */
  readonly fingerprint: string;
  /** What they answered. */
  readonly decision: McpApprovalDecision;
  /** When (ISO 8601). */
  readonly at: string;
}

const MAX_APPROVALS_BYTES = 4 * 1024 * 1024;

/**
 * The user's answers about project servers, per workspace and per server, each tied to the fingerprint of the entry
 * it answered (a changed command, argument, env value, URL or header is asked about again). Kept in the user's own
 * folder (never in the project), written atomically with mode 0600. A damaged file is an error naming it: answers are
 * never silently dropped or invented.
 */
export class McpApprovalStore {
  /** The JSON file (`{version: 1, workspaces: {<dir>: {<server>: {fingerprint, decision, at}}}}`). */
  readonly file: string;

  /** A store in `file` (created on the first answer). */
  constructor(file: string) {
    this.file = resolve(file);
  }

  async #read(): Promise<Record<string, Record<string, McpApproval>>> {
    const data = await readPrivateJson(this.file, 'MCP approvals', MAX_APPROVALS_BYTES);
    if (data === undefined) return Object.create(null);
    const workspaces = isRecord(data) ? data.workspaces : undefined;
    if (!isRecord(data) || data.version !== 1 || !isRecord(workspaces)) {
      throw new McpAdapterError(
        'config-unreadable',
        `MCP approvals ${this.file} is not an approvals file ({"version": 1, "workspaces": {...}})`,
      );
    }
    const out: Record<string, Record<string, McpApproval>> = Object.create(null);
    for (const [dir, servers] of Object.entries(workspaces)) {
      if (!isRecord(servers)) continue;
      const kept: Record<string, McpApproval> = Object.create(null);
      for (const [name, a] of Object.entries(servers)) {
        if (
          isRecord(a) &&
          typeof a.fingerprint === 'string' &&
          (a.decision === 'approved' || a.decision === 'denied')
        ) {
          kept[name] = {
            fingerprint: a.fingerprint,
            decision: a.decision,
            at: typeof a.at === 'string' ? a.at : '',
          };
        }
      }
      out[dir] = kept;
    }
    return out;
  }

  /** The remembered answer about `server` of `workspace`, or `undefined` (never asked, or asked about other text). */
  async decision(
    workspace: string,
    server: string,
    fingerprint: string,
  ): Promise<McpApprovalDecision | undefined> {
    const a = (await this.#read())[workspace]?.[server];
    return a !== undefined && a.fingerprint === fingerprint ? a.decision : undefined;
  }

  /** Every answer remembered for `workspace`, by server. */
  async list(workspace: string): Promise<Readonly<Record<string, McpApproval>>> {
    return { ...((await this.#read())[workspace] ?? {}) };
  }

  /** Remembers an answer about exactly this entry (by fingerprint). */
  async record(
    workspace: string,
    server: string,
    fingerprint: string,
    decision: McpApprovalDecision,
  ): Promise<void> {
    const all = await this.#read();
    const servers = all[workspace] ?? Object.create(null);
    servers[server] = { fingerprint, decision, at: new Date().toISOString() };
    all[workspace] = servers;
    await this.#write(all);
  }

  /** Forgets the answers about `server` (or every server) of `workspace`: they are asked about again. */
  async forget(workspace: string, server?: string): Promise<void> {
    const all = await this.#read();
    if (!all[workspace]) return;
    if (server === undefined) delete all[workspace];
    else delete all[workspace][server];
    await this.#write(all);
  }

  async #write(all: Record<string, Record<string, McpApproval>>): Promise<void> {
    await writePrivateJson(this.file, { version: 1, workspaces: all });
  }
}
