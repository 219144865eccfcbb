import { randomBytes } from 'node:crypto';
import { resolve } from 'node:path';
import { isRecord } from '@codeagent/artifact-schema/internal';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import {
  ClientCredentialsProvider,
  PrivateKeyJwtProvider,
} from '@modelcontextprotocol/sdk/client/auth-extensions.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { readPrivateJson, writePrivateJson } from './files.js';

/** A server entry's `oauth` settings (all optional: by default a public client registers itself). */
export interface McpOAuthConfig {
  /** A pre-registered client id (else the client registers dynamically, or uses `clientMetadataUrl`). */
  readonly clientId?: string;
  /** The pre-registered client's secret (sent with `client_secret_basic` / `_post` as the server asks). */
  readonly clientSecret?: string;
  /** An https URL of a client metadata document used as the client id where the server supports it (SEP-991). */
  readonly clientMetadataUrl?: string;
  /** Scopes to ask for (space separated); default: what the server says. */
  readonly scope?: string;
  /** `authorization_code` (a person signs in; the default) or `client_credentials` (machine to machine). */
  readonly grant?: 'authorization_code' | 'client_credentials';
  /** For `client_credentials` with `private_key_jwt`: the PEM private key and its algorithm (e.g. `ES256`). */
  readonly privateKeyPem?: string;
  /** The signing algorithm of `privateKeyPem`. */
  readonly signingAlgorithm?: string;
}

/** What is kept for one server: tokens, the registered client, and the PKCE verifier of a sign-in in flight. */
export interface McpOAuthRecord {
  /** The tokens (access, refresh, expiry) the authorization server issued. */
  readonly tokens?: OAuthTokens;
  /** The client registered dynamically with the authorization server. */
  readonly client?: OAuthClientInformationMixed;
  /** The PKCE code verifier of the sign-in in flight. */
  readonly codeVerifier?: string;
}

/** Where tokens are kept, by server URL. */
export interface McpOAuthStore {
  /** The record of a server, or `undefined`. */
  read(server: string): Promise<McpOAuthRecord | undefined>;
  /** Replaces the record of a server. */
  write(server: string, record: McpOAuthRecord): Promise<void>;
}

/** One sign-in the host must get the user through. */
export interface McpAuthorizationRequest {
  /** The configured server name. */
  readonly server: string;
  /** The authorization URL to open (the authorization server's page, with PKCE challenge and state). */
  readonly url: URL;
  /** Where the authorization server sends the browser back with `?code=`. */
  readonly redirectUrl: string;
}

/** How a host signs users in to OAuth-protected Streamable HTTP servers. */
export interface McpOAuthOptions {
  /** Where tokens and registrations are kept (the user's folder, 0600: {@link McpFileOAuthStore}). */
  readonly store: McpOAuthStore;
  /** The redirect URI registered for the client (a loopback URL the host listens on). */
  readonly redirectUrl: string;
  /**
   * Gets the user through one sign-in: shows or opens the URL and resolves with the authorization code the browser
   * brought back to `redirectUrl`. Rejecting (the user declined, no terminal) fails the connection.
   */
  readonly authorize: (request: McpAuthorizationRequest) => Promise<string>;
  /** The client name registered (default `codeagent`). */
  readonly clientName?: string;
}

const MAX_TOKEN_FILE = 4 * 1024 * 1024;

/**
 * Tokens and registrations in one JSON file of the user's (`{version: 1, servers: {<url>: record}}`), written
 * atomically with mode 0600 and read fail-closed (a damaged file is an error naming it, never an empty store that
 * silently signs in again).
 */
export class McpFileOAuthStore implements McpOAuthStore {
  /** The file. */
  readonly file: string;

  /** A store in `file` (created on the first sign-in). */
  constructor(file: string) {
    this.file = resolve(file);
  }

  async #all(): Promise<Record<string, McpOAuthRecord>> {
    const data = await readPrivateJson(this.file, 'MCP tokens', MAX_TOKEN_FILE);
    if (data === undefined) return Object.create(null);
    if (!isRecord(data) || data.version !== 1 || !isRecord(data.servers)) {
      throw new Error(`MCP tokens ${this.file} is not a token file ({"version": 1, "servers": {...}})`);
    }
    const out: Record<string, McpOAuthRecord> = Object.create(null);
    for (const [k, v] of Object.entries(data.servers)) if (isRecord(v)) out[k] = v as McpOAuthRecord;
    return out;
  }

  /** The record of `server` (its URL). */
  async read(server: string): Promise<McpOAuthRecord | undefined> {
    return (await this.#all())[server];
  }

  /** Replaces the record of `server`. */
  async write(server: string, record: McpOAuthRecord): Promise<void> {
    const all = await this.#all();
    all[server] = record;
    await writePrivateJson(this.file, { version: 1, servers: all });
  }
}

/** The SDK's provider for an authorization-code sign-in, keeping its state in a {@link McpOAuthStore}. */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** The authorization URL of the sign-in the transport asked for, until the host took it. */
  pending: URL | undefined;
  readonly #key: string;
  readonly #config: McpOAuthConfig;
  readonly #options: McpOAuthOptions;
  readonly clientMetadataUrl?: string;

  constructor(key: string, config: McpOAuthConfig, options: McpOAuthOptions) {
    this.#key = key;
    this.#config = config;
    this.#options = options;
    if (config.clientMetadataUrl) this.clientMetadataUrl = config.clientMetadataUrl;
  }

  get redirectUrl(): string {
    return this.#options.redirectUrl;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.#options.clientName ?? 'codeagent',
      redirect_uris: [this.#options.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: this.#config.clientSecret ? 'client_secret_basic' : 'none',
      ...(this.#config.scope ? { scope: this.#config.scope } : {}),
    };
  }

  async #record(): Promise<McpOAuthRecord> {
    return (await this.#options.store.read(this.#key)) ?? {};
  }

  async #update(change: (r: McpOAuthRecord) => McpOAuthRecord): Promise<void> {
    await this.#options.store.write(this.#key, change(await this.#record()));
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    if (this.#config.clientId) {
      return {
        client_id: this.#config.clientId,
        ...(this.#config.clientSecret ? { client_secret: this.#config.clientSecret } : {}),
      };
    }
    return (await this.#record()).client;
  }

  async saveClientInformation(client: OAuthClientInformationMixed): Promise<void> {
    // A pre-registered client is the config's; only a dynamic registration is kept.
    if (!this.#config.clientId) await this.#update((r) => ({ ...r, client }));
  }

  async tokens(): Promise<OAuthTokens | undefined> {
    return (await this.#record()).tokens;
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.#update(({ codeVerifier: _done, ...r }) => ({ ...r, tokens }));
  }

  /** A fresh unguessable `state` per sign-in: the host's redirect listener takes only the answer carrying it. */
  state(): string {
    return randomBytes(24).toString('base64url');
  }

  redirectToAuthorization(url: URL): void {
    this.pending = url;
  }

  async saveCodeVerifier(codeVerifier: string): Promise<void> {
    await this.#update((r) => ({ ...r, codeVerifier }));
  }

  async codeVerifier(): Promise<string> {
    const verifier = (await this.#record()).codeVerifier;
    if (!verifier) throw new Error('no sign-in in flight (no PKCE code verifier saved)');
    return verifier;
  }

  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    await this.#update(({ client, tokens, codeVerifier }) => {
      if (scope === 'all') return {};
      return {
        ...(client && scope !== 'client' ? { client } : {}),
        ...(tokens && scope !== 'tokens' ? { tokens } : {}),
        ...(codeVerifier && scope !== 'verifier' ? { codeVerifier } : {}),
      };
    });
  }
}

/**
 * The provider of one HTTP server: `client_credentials` with a secret or a private key (no person involved), else an
 * authorization-code sign-in with PKCE kept in the host's store; `undefined` when the server has no `oauth` settings
 * and the host offers no sign-in.
 */
export function oauthProviderFor(
  url: string,
  config: McpOAuthConfig | undefined,
  options: McpOAuthOptions | undefined,
): OAuthClientProvider | undefined {
  if (config?.grant === 'client_credentials' && config.clientId) {
    if (config.privateKeyPem) {
      return new PrivateKeyJwtProvider({
        clientId: config.clientId,
        privateKey: config.privateKeyPem,
        algorithm: config.signingAlgorithm ?? 'ES256',
        ...(config.scope ? { scope: config.scope } : {}),
      });
    }
    if (config.clientSecret) {
      return new ClientCredentialsProvider({
        clientId: config.clientId,
        clientSecret: config.clientSecret,
        ...(config.scope ? { scope: config.scope } : {}),
      });
    }
  }
  if (!options) return undefined;
  return new StoredOAuthProvider(url, config ?? {}, options);
}
