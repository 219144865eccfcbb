import type { McpServer } from '@agentclientprotocol/sdk';

/**
 * An MCP server the editor asked the session to use, in the `mcpServers` shape of `.mcp.json` files
 * (what `@codeagent/adapter-mcp`'s `attachMcpServers` takes): a local process or a Streamable HTTP endpoint.
 */
export type AcpMcpServerConfig =
  | {
      /** Always `stdio`. */
      readonly type: 'stdio';
      /** The program to run. */
      readonly command: string;
      /** Its arguments. */
      readonly args: readonly string[];
      /** Environment variables the editor set for it. */
      readonly env: Readonly<Record<string, string>>;
    }
  | {
      /** Always `http`. */
      readonly type: 'http';
      /** The endpoint URL. */
      readonly url: string;
      /** Headers sent with every request. */
      readonly headers: Readonly<Record<string, string>>;
    };

/** The servers of a `session/new` or `session/load` request, by (normalised) name, and what was left out. */
export interface AcpMcpServers {
  /** Servers by name: letters, digits, `_` and `-`, at most 64 (other characters become `_`). */
  readonly servers: Readonly<Record<string, AcpMcpServerConfig>>;
  /** One line per server left out, naming it and saying why. */
  readonly skipped: readonly string[];
}

function pairs(list: ReadonlyArray<{ name: string; value: string }>): Record<string, string> {
  const out: Record<string, string> = Object.create(null);
  for (const { name, value } of list) out[name] = value;
  return { ...out };
}

/**
 * Turns the editor's `mcpServers` into server configs. `http` servers only when `http` is supported; `sse`
 * servers never (the MCP adapter speaks stdio and Streamable HTTP); a name that is empty after normalising, or
 * taken by an earlier server, is left out.
 */
export function mcpServersFromAcp(
  list: readonly McpServer[],
  options: { readonly http: boolean },
): AcpMcpServers {
  // No prototype: a server named `__proto__` is just a name.
  const servers: Record<string, AcpMcpServerConfig> = Object.create(null);
  const skipped: string[] = [];
  for (const server of list) {
    const name = server.name.replace(/[^A-Za-z0-9_-]/g, '_').slice(0, 64);
    const label = JSON.stringify(server.name.slice(0, 64));
    if (name === '' || /^_+$/.test(name)) {
      skipped.push(`MCP server ${label}: the name has no letters or digits`);
      continue;
    }
    if (Object.hasOwn(servers, name)) {
      skipped.push(`MCP server ${label}: another server is already named ${name}`);
      continue;
    }
    if ('type' in server && server.type === 'sse') {
      skipped.push(`MCP server ${label}: SSE transport is not supported (stdio and http are)`);
      continue;
    }
    if ('type' in server && server.type === 'http') {
      if (!options.http) {
        skipped.push(`MCP server ${label}: HTTP servers are not supported by this host`);
        continue;
      }
      servers[name] = { type: 'http', url: server.url, headers: pairs(server.headers) };
      continue;
    }
    const stdio = server as Extract<McpServer, { command: string }>;
    servers[name] = { type: 'stdio', command: stdio.command, args: [...stdio.args], env: pairs(stdio.env) };
  }
  return { servers, skipped };
}
