import { createHash } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { McpAdapterError } from './errors.js';
import { isRecord } from '@codeagent/artifact-schema/internal';
import type { McpOAuthConfig } from './oauth.js';

/** A server started as a local process that speaks MCP over its stdio. */
export interface McpStdioServerConfig {
  /** `stdio` (the default when `command` is given). */
  readonly type?: 'stdio';
  /** The program to run. */
  readonly command: string;
  /** Its arguments. */
  readonly args?: readonly string[];
  /** Extra environment variables (on top of the SDK's safe default set, never the whole host environment). */
  readonly env?: Readonly<Record<string, string>>;
  /** Working directory of the process. */
  readonly cwd?: string;
}

/** A server reached over Streamable HTTP. */
export interface McpHttpServerConfig {
  /** `http` (`streamable-http` is read as the same). */
  readonly type: 'http';
  /** The endpoint URL. */
  readonly url: string;
  /** Headers sent with every request (e.g. `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** OAuth settings (a pre-registered client, scopes, client credentials); sign-ins need the host's `oauth` option. */
  readonly oauth?: McpOAuthConfig;
}

/** One entry of `mcpServers`. */
export type McpServerConfig = McpStdioServerConfig | McpHttpServerConfig;

/** What a config file holds: servers by name, and the problems found (each names the entry and the reason). */
export interface McpConfig {
  /** Valid servers by name. */
  readonly servers: Readonly<Record<string, McpServerConfig>>;
  /** Entries left out, and variables that were not set. */
  readonly warnings: readonly string[];
  /**
   * For each valid server, {@link mcpServerFingerprint} of its entry as written (before `${VAR}` expansion): what a
   * host remembers when the user approves a project's server, so a changed entry is asked about again.
   */
  readonly fingerprints: Readonly<Record<string, string>>;
  /** For each valid server, its entry as written (for showing the user what a file asks to start). */
  readonly entries: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** Options of {@link parseMcpConfig}. */
export interface ParseMcpConfigOptions {
  /** Variables for `${VAR}` and `${VAR:-default}` (default: `process.env`). */
  readonly env?: Readonly<Record<string, string | undefined>>;
}

const SERVER_NAME = /^[A-Za-z0-9_-]{1,64}$/;
const VAR = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

function canonical(value: unknown, depth = 0): string {
  if (depth > 64) return 'null';
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v, depth + 1)).join(',')}]`;
  if (isRecord(value)) {
    const keys = Object.keys(value).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${canonical(value[k], depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * A stable digest (SHA-256, hex) of one `mcpServers` entry as written: key order does not matter, every other change
 * (command, an argument, an env value, the URL, a header) gives a new fingerprint.
 */
export function mcpServerFingerprint(entry: unknown): string {
  return createHash('sha256').update(canonical(entry)).digest('hex');
}

function expand(
  text: string,
  env: Readonly<Record<string, string | undefined>>,
  missing: Set<string>,
): string {
  return text.replace(VAR, (_, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    missing.add(name);
    return '';
  });
}

function stringRecord(v: unknown): Record<string, string> | undefined {
  if (v === undefined) return {};
  if (!isRecord(v)) return undefined;
  const out: Record<string, string> = {};
  for (const [k, value] of Object.entries(v)) {
    if (typeof value !== 'string') return undefined;
    out[k] = value;
  }
  return out;
}

/**
 * Reads the `.mcp.json` / `mcpServers` format users already have (Claude Code's): `{mcpServers: {name: {command,
 * args, env}}}` or `{name: {type: 'http', url, headers}}`, with `${VAR}` and `${VAR:-default}` expanded in commands,
 * arguments, URLs, env values and headers. The top level may also be the `mcpServers` object itself. A bad entry
 * is left out with a warning naming it; a document that is not an object throws {@link McpAdapterError}
 * `invalid-config`.
 */
export function parseMcpConfig(document: unknown, options: ParseMcpConfigOptions = {}): McpConfig {
  const env = options.env ?? process.env;
  if (!isRecord(document)) throw new McpAdapterError('invalid-config', 'an MCP config must be a JSON object');
  const table = isRecord(document.mcpServers)
    ? document.mcpServers
    : document.mcpServers === undefined
      ? document
      : null;
  if (table === null) throw new McpAdapterError('invalid-config', '"mcpServers" must be an object');
  const servers: Record<string, McpServerConfig> = {};
  const warnings: string[] = [];
  const fingerprints: Record<string, string> = {};
  const entries: Record<string, Record<string, unknown>> = {};
  for (const [name, raw] of Object.entries(table)) {
    const bad = (why: string) => warnings.push(`mcpServers.${name}: ${why}; server left out`);
    if (!SERVER_NAME.test(name) || name === '__proto__') {
      bad('a server name is 1-64 letters, digits, "_" or "-"');
      continue;
    }
    if (!isRecord(raw)) {
      bad('must be an object');
      continue;
    }
    const missing = new Set<string>();
    const type = raw.type === 'streamable-http' ? 'http' : raw.type;
    if (type === 'http' || (type === undefined && typeof raw.url === 'string' && raw.command === undefined)) {
      const headers = stringRecord(raw.headers);
      if (typeof raw.url !== 'string') {
        bad('"url" must be a string');
        continue;
      }
      if (!headers) {
        bad('"headers" must map names to strings');
        continue;
      }
      const url = expand(raw.url, env, missing);
      try {
        const parsed = new URL(url);
        if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new Error('protocol');
      } catch {
        bad(`"url" is not an http(s) URL`);
        continue;
      }
      const h: Record<string, string> = {};
      for (const [k, v] of Object.entries(headers)) h[k] = expand(v, env, missing);
      let oauth: McpOAuthConfig | undefined;
      if (raw.oauth !== undefined) {
        const o = stringRecord(raw.oauth);
        const known = new Set([
          'clientId',
          'clientSecret',
          'clientMetadataUrl',
          'scope',
          'grant',
          'privateKeyPem',
          'signingAlgorithm',
        ]);
        if (!o || Object.keys(o).some((k) => !known.has(k))) {
          bad(`"oauth" must map ${[...known].join(', ')} to strings`);
          continue;
        }
        if (o.grant !== undefined && o.grant !== 'authorization_code' && o.grant !== 'client_credentials') {
          bad('"oauth.grant" must be authorization_code or client_credentials');
          continue;
        }
        const e: Record<string, string> = {};
        for (const [k, v] of Object.entries(o)) e[k] = expand(v, env, missing);
        oauth = e as McpOAuthConfig;
      }
      servers[name] = { type: 'http', url, headers: h, ...(oauth ? { oauth } : {}) };
    } else if (type === 'stdio' || type === undefined) {
      const args = raw.args === undefined ? [] : raw.args;
      const envTable = stringRecord(raw.env);
      if (typeof raw.command !== 'string' || raw.command.trim() === '') {
        bad('"command" must be a non-empty string');
        continue;
      }
      if (!Array.isArray(args) || !args.every((a): a is string => typeof a === 'string')) {
        bad('"args" must be a list of strings');
        continue;
      }
      if (!envTable) {
        bad('"env" must map names to strings');
        continue;
      }
      if (raw.cwd !== undefined && typeof raw.cwd !== 'string') {
        bad('"cwd" must be a string');
        continue;
      }
      const e: Record<string, string> = {};
      for (const [k, v] of Object.entries(envTable)) e[k] = expand(v, env, missing);
      servers[name] = {
        type: 'stdio',
        command: expand(raw.command, env, missing),
        args: args.map((a) => expand(a, env, missing)),
        env: e,
        ...(typeof raw.cwd === 'string' ? { cwd: expand(raw.cwd, env, missing) } : {}),
      };
    } else {
      bad(`unknown type ${JSON.stringify(raw.type)} (stdio or http)`);
      continue;
    }
    fingerprints[name] = mcpServerFingerprint(raw);
    entries[name] = raw;
    for (const v of missing)
      warnings.push(`mcpServers.${name}: variable \${${v}} is not set (expanded to "")`);
  }
  return { servers, warnings, fingerprints, entries };
}

/** Largest config file read (a config is a few kilobytes). */
const MAX_CONFIG_BYTES = 1024 * 1024;

/**
 * Reads and parses an MCP config file, failing closed: a file that is not a regular file (a FIFO is opened
 * non-blocking and refused, a directory or device too), is over 1 MiB, is not UTF-8 JSON, or cannot be read throws
 * {@link McpAdapterError} `config-unreadable` naming the file. A missing file throws too: the caller decides whether
 * a missing file matters (`--mcp-config` does; a project's optional `.mcp.json` is checked with `existsSync` first).
 */
export function readMcpConfigFile(path: string, options: ParseMcpConfigOptions = {}): McpConfig {
  let fd: number | undefined;
  let text: string;
  try {
    fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    const s = fstatSync(fd);
    if (!s.isFile()) throw new Error('not a regular file');
    if (s.size > MAX_CONFIG_BYTES)
      throw new Error(`${s.size} bytes, over the ${MAX_CONFIG_BYTES}-byte limit`);
    const bytes = Buffer.alloc(Number(s.size));
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes.subarray(0, read));
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    throw new McpAdapterError('config-unreadable', `MCP config ${path} cannot be read: ${why}`, {
      cause: error,
    });
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new McpAdapterError(
      'config-unreadable',
      `MCP config ${path} is not valid JSON: ${(error as Error).message}`,
    );
  }
  try {
    return parseMcpConfig(document, options);
  } catch (error) {
    throw new McpAdapterError('invalid-config', `MCP config ${path}: ${(error as Error).message}`);
  }
}
