import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { McpAuthorizationRequest } from '@codeagent/adapter-mcp';

/** A sign-in waiting for the browser to come back. */
interface Waiting {
  readonly state: string;
  readonly resolve: (code: string) => void;
  readonly reject: (error: Error) => void;
}

const PAGE = (text: string) =>
  `<!doctype html><meta charset="utf-8"><title>codeagent</title><p>${text.replace(/[<>&"]/g, '')}</p>`;

/**
 * The loopback redirect of OAuth sign-ins to MCP servers: a listener on 127.0.0.1 (port chosen by the system) that
 * takes the browser's `GET /callback?code=…&state=…` for a sign-in in flight. It answers only its own Host, only the
 * state of the sign-in it waits for (the state is the unguessable part of the URL), and only GET; anything else is
 * refused and changes nothing.
 */
export class LoopbackSignIn {
  readonly #server: Server;
  readonly #waiting = new Map<string, Waiting>();
  #port = 0;

  private constructor(server: Server) {
    this.#server = server;
  }

  /** Starts the listener. */
  static async start(): Promise<LoopbackSignIn> {
    let handle: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => res.end();
    const server = createServer((req, res) => handle(req, res));
    const self = new LoopbackSignIn(server);
    handle = (req, res) => self.#handle(req, res);
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    self.#port = (server.address() as AddressInfo).port;
    server.unref();
    return self;
  }

  /** The redirect URI to register: `http://127.0.0.1:<port>/callback`. */
  get redirectUrl(): string {
    return `http://127.0.0.1:${this.#port}/callback`;
  }

  #handle(req: IncomingMessage, res: ServerResponse): void {
    const refuse = (status: number, text: string) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
      res.end(PAGE(text));
    };
    if (req.method !== 'GET' || req.headers.host !== `127.0.0.1:${this.#port}`) {
      refuse(400, 'Not a sign-in of this codeagent.');
      return;
    }
    const url = new URL(req.url ?? '/', this.redirectUrl);
    const state = url.searchParams.get('state') ?? '';
    const waiting = url.pathname === '/callback' ? this.#waiting.get(state) : undefined;
    if (waiting === undefined) {
      refuse(400, 'No sign-in of this codeagent is waiting for this answer.');
      return;
    }
    this.#waiting.delete(state);
    const code = url.searchParams.get('code');
    if (code === null || code === '') {
      const why = (
        url.searchParams.get('error_description') ??
        url.searchParams.get('error') ??
        'no code'
      ).slice(0, 200);
      refuse(400, `The sign-in did not complete: ${why}. You can close this tab.`);
      waiting.reject(new Error(`the authorization server did not sign you in (${why})`));
      return;
    }
    refuse(200, 'Signed in. You can close this tab and go back to codeagent.');
    waiting.resolve(code);
  }

  /**
   * Waits for the browser to come back from `request.url` (its `state` identifies the sign-in). Resolves with the
   * code; rejects after `timeoutMs`, when `signal` aborts, or when the authorization server reports an error.
   */
  wait(
    request: McpAuthorizationRequest,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<string> {
    const state = request.url.searchParams.get('state');
    if (!state) return Promise.reject(new Error('the sign-in URL has no state; refusing to wait for it'));
    return new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => done(new Error('the sign-in timed out')), options.timeoutMs);
      const onAbort = () => done(new Error('the sign-in was cancelled'));
      const done = (error: Error | null, code?: string) => {
        clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
        this.#waiting.delete(state);
        if (error) reject(error);
        else resolve(code ?? '');
      };
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.#waiting.set(state, { state, resolve: (code) => done(null, code), reject: (e) => done(e) });
    });
  }

  /** Stops the listener; waiting sign-ins fail. */
  async close(): Promise<void> {
    for (const w of this.#waiting.values()) w.reject(new Error('codeagent is exiting'));
    this.#waiting.clear();
    await new Promise<void>((resolve) => this.#server.close(() => resolve()));
  }
}

/** Opens an http(s) URL in the desktop's browser when there is a desktop (never through a shell); else does nothing. */
export function openInBrowser(url: URL, env: NodeJS.ProcessEnv): void {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return;
  if (!env.DISPLAY && !env.WAYLAND_DISPLAY && process.platform === 'linux') return;
  const command = process.platform === 'darwin' ? 'open' : 'xdg-open';
  try {
    spawn(command, [url.href], { detached: true, stdio: 'ignore' })
      .on('error', () => undefined)
      .unref();
  } catch {
    // no browser: the URL is on the screen
  }
}
