import { type OAuthClientProvider, UnauthorizedError } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import type { McpServerConfig } from './config.js';
import {
  elicitFields,
  elicitMessage,
  elicitResult,
  type McpElicitAnswer,
  type McpElicitation,
} from './elicit.js';
import { McpAdapterError } from './errors.js';
import { type McpOAuthOptions, oauthProviderFor, StoredOAuthProvider } from './oauth.js';
import { cleanServerText } from './text.js';
import { isRecord } from '@codeagent/artifact-schema/internal';

/** A tool as the server lists it (names and texts cleaned; the schema passed through as JSON Schema). */
export interface McpToolInfo {
  /** The tool's name on the server (as sent back in `tools/call`). */
  readonly name: string;
  /** Display title, when the server gives one. */
  readonly title?: string;
  /** Description for the model (cleaned of escapes and controls, capped). */
  readonly description: string;
  /** The input JSON Schema (an object schema; `{type: 'object'}` when the server sent none). */
  readonly inputSchema: Readonly<Record<string, unknown>>;
  /** The server's (untrusted) `readOnlyHint` annotation. */
  readonly readOnlyHint: boolean;
}

/** A prompt as the server lists it. */
export interface McpPromptInfo {
  /** The prompt's name on the server. */
  readonly name: string;
  /** Description (cleaned). */
  readonly description: string;
  /** Its arguments, in order. */
  readonly arguments: readonly {
    readonly name: string;
    readonly required: boolean;
    readonly description: string;
  }[];
}

/** Progress of a running call, as the server reports it. */
export interface McpProgress {
  /** Progress so far. */
  readonly progress: number;
  /** Total, when known. */
  readonly total?: number;
  /** A message (cleaned), when given. */
  readonly message?: string;
}

/** Options of a {@link McpServerConnection}. */
export interface McpConnectionOptions {
  /** Per-call timeout in milliseconds (default 60,000); a call past it fails and the server is restarted. */
  readonly timeoutMs?: number;
  /** Timeout of connecting and initialising (default 30,000 ms). */
  readonly connectTimeoutMs?: number;
  /** First restart delay after a failure (default 500 ms); doubles on each failure in a row, up to 30 s. */
  readonly restartDelayMs?: number;
  /** Bytes of the server's stderr kept (the tail; default 65,536). It is never printed. */
  readonly maxStderrBytes?: number;
  /**
   * Largest message accepted from a stdio server (default: the SDK's 10 MiB). A larger one fails the call and restarts
   * the server; the SDK's stdio buffer grows by concatenation, so a much larger limit costs quadratic time.
   */
  readonly maxMessageBytes?: number;
  /** Called when the server's tool list changed (`notifications/tools/list_changed`), with the new list. */
  readonly onToolsChanged?: (tools: readonly McpToolInfo[]) => void;
  /**
   * Signs users in to Streamable HTTP servers that answer 401 (OAuth 2.1 authorization code with PKCE, dynamic or
   * pre-registered clients, tokens kept in `store`); without it such a server fails to connect. Servers configured
   * for `client_credentials` need no sign-in.
   */
  readonly oauth?: McpOAuthOptions;
  /**
   * Answers a server's questions to the user (`elicitation/create`, form mode; URL mode is not offered): the host
   * shows the cleaned message and fields and returns the user's answer. Without it the capability is not declared,
   * and servers cannot ask.
   */
  readonly elicit?: (request: McpElicitation) => Promise<McpElicitAnswer>;
  /** Makes a transport (tests, custom transports); default: stdio or Streamable HTTP from the config. */
  readonly transport?: (config: McpServerConfig) => Transport;
}

/** Where a connection is in its life. */
export type McpConnectionState = 'idle' | 'connecting' | 'ready' | 'failed' | 'closed';

const MAX_DESCRIPTION = 4000;
const MAX_DELAY = 30_000;

function toolInfo(raw: unknown): McpToolInfo | undefined {
  if (!isRecord(raw) || typeof raw.name !== 'string' || raw.name === '') return undefined;
  const description = cleanServerText(typeof raw.description === 'string' ? raw.description : '');
  const schema = isRecord(raw.inputSchema) ? raw.inputSchema : { type: 'object' };
  const annotations = isRecord(raw.annotations) ? raw.annotations : {};
  const title = typeof raw.title === 'string' ? cleanServerText(raw.title) : undefined;
  return {
    name: raw.name,
    ...(title ? { title } : {}),
    description:
      description.length > MAX_DESCRIPTION ? `${description.slice(0, MAX_DESCRIPTION - 1)}…` : description,
    inputSchema: schema.type === 'object' ? schema : { ...schema, type: 'object' },
    readOnlyHint: annotations.readOnlyHint === true,
  };
}

function errorText(error: unknown): string {
  return cleanServerText(error instanceof Error ? error.message : String(error)).slice(0, 1000);
}

/**
 * One MCP server: connects on first use, lists and calls its tools, and restarts it after a crash, a hang (a call past
 * its timeout) or garbage on the wire, waiting longer after each failure in a row. Its stderr is captured (the tail)
 * and never printed. Errors are {@link McpAdapterError}s whose messages are cleaned server text.
 */
export class McpServerConnection {
  /** The server's configured name. */
  readonly name: string;
  /** How it is started or reached. */
  readonly config: McpServerConfig;
  readonly #options: McpConnectionOptions;
  #client: Client | undefined;
  #connecting: Promise<Client> | undefined;
  #state: McpConnectionState = 'idle';
  #failures = 0;
  #retryAt = 0;
  #lastError = '';
  #stderr = '';
  #tools: readonly McpToolInfo[] | undefined;
  #generation = 0;
  #stdio: StdioClientTransport | undefined;
  #http: StreamableHTTPClientTransport | undefined;
  #auth: OAuthClientProvider | undefined;

  /** Creates a connection; nothing is started until the first use. */
  constructor(name: string, config: McpServerConfig, options: McpConnectionOptions = {}) {
    this.name = name;
    this.config = config;
    this.#options = options;
  }

  /** Where the connection is in its life. */
  get state(): McpConnectionState {
    return this.#state;
  }

  /** The captured tail of the server's stderr (cleaned of escapes); empty for HTTP servers. */
  get stderr(): string {
    return cleanServerText(this.#stderr);
  }

  /**
   * The process id of a running stdio server, else `null`: hosts that must end it synchronously (an exit hook after
   * a signal) kill it by this id; {@link close} is the normal, graceful way.
   */
  get pid(): number | null {
    return this.#stdio?.pid ?? null;
  }

  /** The reason of the last failure, or `''`. */
  get lastError(): string {
    return this.#lastError;
  }

  /** The server's tools (listed once per connection, refreshed on `list_changed`). */
  async tools(): Promise<readonly McpToolInfo[]> {
    const client = await this.#ready();
    if (!client.getServerCapabilities()?.tools) return [];
    this.#tools ??= await this.#listTools(client);
    return this.#tools;
  }

  /** Calls a tool; resolves with the raw `CallToolResult` (map it with `mcpResultToToolResult`). */
  async callTool(
    tool: string,
    args: Record<string, unknown>,
    options: { signal?: AbortSignal; timeoutMs?: number; onProgress?: (p: McpProgress) => void } = {},
  ): Promise<unknown> {
    const client = await this.#ready();
    const generation = this.#generation;
    try {
      const result = await this.#signedIn(() =>
        client.callTool({ name: tool, arguments: args }, undefined, {
          timeout: options.timeoutMs ?? this.#options.timeoutMs ?? 60_000,
          ...(options.signal ? { signal: options.signal } : {}),
          ...(options.onProgress
            ? {
                onprogress: (p: {
                  progress: number;
                  total?: number | undefined;
                  message?: string | undefined;
                }) =>
                  options.onProgress?.({
                    progress: p.progress,
                    ...(typeof p.total === 'number' ? { total: p.total } : {}),
                    ...(typeof p.message === 'string' ? { message: cleanServerText(p.message) } : {}),
                  }),
              }
            : {}),
        }),
      );
      this.#failures = 0;
      return result;
    } catch (error) {
      if (options.signal?.aborted)
        throw new McpAdapterError('tool-call-failed', `${tool} was aborted`, { cause: error });
      // A timeout, a crash or a malformed answer: the server is restarted on the next use.
      if (generation === this.#generation) this.#fail(error);
      throw new McpAdapterError(
        'tool-call-failed',
        `MCP server ${this.name}: ${tool} failed: ${errorText(error)}`,
        {
          cause: error,
        },
      );
    }
  }

  /** The server's prompts (empty when it offers none). */
  async prompts(): Promise<readonly McpPromptInfo[]> {
    const client = await this.#ready();
    if (!client.getServerCapabilities()?.prompts) return [];
    const listed = await this.#signedIn(() =>
      client.listPrompts(undefined, { timeout: this.#options.timeoutMs ?? 60_000 }),
    );
    return listed.prompts.map((p) => ({
      name: p.name,
      description: cleanServerText(p.description ?? ''),
      arguments: (p.arguments ?? []).map((a) => ({
        name: a.name,
        required: a.required === true,
        description: cleanServerText(a.description ?? ''),
      })),
    }));
  }

  /** Gets a prompt's messages as one text (text parts only; others are named). */
  async getPrompt(prompt: string, args: Record<string, string>): Promise<string> {
    const client = await this.#ready();
    try {
      const got = await client.getPrompt(
        { name: prompt, arguments: args },
        { timeout: this.#options.timeoutMs ?? 60_000 },
      );
      return got.messages
        .map((m) =>
          m.content.type === 'text' ? cleanServerText(m.content.text) : `[${m.content.type} content]`,
        )
        .join('\n\n');
    } catch (error) {
      throw new McpAdapterError(
        'prompt-failed',
        `MCP server ${this.name}: prompt ${prompt} failed: ${errorText(error)}`,
      );
    }
  }

  /** Stops the server (or closes the HTTP session); a later use starts it again. */
  async close(): Promise<void> {
    const client = this.#client;
    this.#client = undefined;
    this.#connecting = undefined;
    this.#tools = undefined;
    this.#generation++;
    this.#state = 'closed';
    await client?.close().catch(() => undefined);
  }

  #fail(error: unknown): void {
    this.#lastError = errorText(error);
    this.#failures++;
    const base = this.#options.restartDelayMs ?? 500;
    this.#retryAt = Date.now() + Math.min(MAX_DELAY, base * 2 ** (this.#failures - 1));
    const client = this.#client;
    this.#client = undefined;
    this.#connecting = undefined;
    this.#tools = undefined;
    this.#generation++;
    this.#state = 'failed';
    void client?.close().catch(() => undefined);
  }

  async #ready(): Promise<Client> {
    if (this.#client) return this.#client;
    if (this.#connecting) return this.#connecting;
    const wait = this.#retryAt - Date.now();
    if (this.#state === 'failed' && wait > 0) {
      throw new McpAdapterError(
        'server-unavailable',
        `MCP server ${this.name} failed (${this.#lastError}); it is restarted in ${Math.ceil(wait / 1000)} s`,
      );
    }
    this.#state = 'connecting';
    const generation = ++this.#generation;
    this.#connecting = this.#connect(generation).then(
      (client) => {
        if (generation !== this.#generation) {
          void client.close().catch(() => undefined);
          throw new McpAdapterError('server-unavailable', `MCP server ${this.name} was closed`);
        }
        this.#client = client;
        this.#connecting = undefined;
        this.#state = 'ready';
        return client;
      },
      (error: unknown) => {
        if (generation === this.#generation) this.#fail(error);
        throw new McpAdapterError(
          'server-unavailable',
          `MCP server ${this.name} could not start: ${errorText(error)}`,
          {
            cause: error,
          },
        );
      },
    );
    return this.#connecting;
  }

  /**
   * Runs a request; when the server asks for a (wider) sign-in, gets the user through it (the host's `authorize`) and
   * runs it again, at most twice, so a server that keeps refusing cannot loop the host.
   */
  async #signedIn<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await run();
      } catch (error) {
        const pending = this.#auth instanceof StoredOAuthProvider ? this.#auth.pending : undefined;
        if (!(error instanceof UnauthorizedError) || pending === undefined || attempt >= 2 || !this.#http)
          throw error;
        await this.#signIn(this.#http, pending);
      }
    }
  }

  async #signIn(transport: StreamableHTTPClientTransport, url: URL): Promise<void> {
    const oauth = this.#options.oauth;
    const provider = this.#auth;
    if (!oauth || !(provider instanceof StoredOAuthProvider)) throw new UnauthorizedError('no sign-in');
    provider.pending = undefined;
    const code = await oauth.authorize({ server: this.name, url, redirectUrl: oauth.redirectUrl });
    await transport.finishAuth(code);
  }

  async #connect(generation: number): Promise<Client> {
    for (let attempt = 0; ; attempt++) {
      const transport = this.#options.transport ? this.#options.transport(this.config) : this.#transport();
      try {
        return await this.#connectOnce(generation, transport);
      } catch (error) {
        // A server that needs a sign-in: the user signs in, then a fresh transport connects with the tokens.
        const pending = this.#auth instanceof StoredOAuthProvider ? this.#auth.pending : undefined;
        if (!(error instanceof UnauthorizedError) || pending === undefined || attempt >= 2) throw error;
        if (transport instanceof StreamableHTTPClientTransport) await this.#signIn(transport, pending);
        else throw error;
      }
    }
  }

  async #connectOnce(generation: number, transport: Transport): Promise<Client> {
    const client = new Client(
      { name: 'codeagent', version: '0.1.0' },
      {
        // Form-mode elicitation only when the host can ask its user; the SDK applies the schema's defaults.
        capabilities: this.#options.elicit ? { elicitation: { form: { applyDefaults: true } } } : {},
        listChanged: {
          tools: {
            onChanged: (error, tools) => {
              if (error || !tools || generation !== this.#generation) return;
              this.#tools = tools.map(toolInfo).filter((t): t is McpToolInfo => t !== undefined);
              this.#options.onToolsChanged?.(this.#tools);
            },
          },
        },
      },
    );
    client.onclose = () => {
      if (generation === this.#generation && this.#state === 'ready')
        this.#fail(new Error('the server closed the connection'));
    };
    client.onerror = () => undefined;
    const elicit = this.#options.elicit;
    if (elicit) {
      client.setRequestHandler(ElicitRequestSchema, async (request) => {
        const params = request.params as { message?: unknown; requestedSchema?: unknown };
        const fields = elicitFields(params.requestedSchema);
        const answer = await elicit({ server: this.name, message: elicitMessage(params.message), fields });
        return elicitResult(fields, answer);
      });
    }
    try {
      await client.connect(transport, { timeout: this.#options.connectTimeoutMs ?? 30_000 });
    } catch (error) {
      await client.close().catch(() => undefined);
      throw error;
    }
    return client;
  }

  #transport(): Transport {
    const config = this.config;
    if (config.type === 'http') {
      this.#auth ??= oauthProviderFor(config.url, config.oauth, this.#options.oauth);
      this.#http = new StreamableHTTPClientTransport(new URL(config.url), {
        requestInit: { headers: { ...(config.headers ?? {}) } },
        ...(this.#auth ? { authProvider: this.#auth } : {}),
      });
      return this.#http;
    }
    const transport = new StdioClientTransport({
      command: config.command,
      args: [...(config.args ?? [])],
      env: { ...(config.env ?? {}) },
      stderr: 'pipe',
      ...(this.#options.maxMessageBytes !== undefined
        ? { maxBufferSize: this.#options.maxMessageBytes }
        : {}),
      ...(config.cwd ? { cwd: config.cwd } : {}),
    });
    this.#stdio = transport;
    const max = this.#options.maxStderrBytes ?? 65_536;
    transport.stderr?.on('data', (chunk: Buffer | string) => {
      this.#stderr = (this.#stderr + chunk.toString()).slice(-max);
    });
    return transport;
  }

  async #listTools(client: Client): Promise<readonly McpToolInfo[]> {
    const out: McpToolInfo[] = [];
    let cursor: string | undefined;
    // Bounded pagination: a server that keeps returning cursors cannot keep the host listing forever.
    for (let page = 0; page < 100; page++) {
      const listed = await this.#signedIn(() =>
        client.listTools(cursor ? { cursor } : undefined, { timeout: this.#options.timeoutMs ?? 60_000 }),
      );
      for (const t of listed.tools) {
        const info = toolInfo(t);
        if (info) out.push(info);
      }
      cursor = listed.nextCursor;
      if (!cursor) break;
    }
    return out;
  }
}
