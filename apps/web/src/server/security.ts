import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { getCookie } from 'hono/cookie';

/** The Content-Security-Policy of every response: no inline script, no eval, nothing from elsewhere. */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  // Stylesheets from the server only; React and the virtualiser set element.style through the CSSOM, which CSP allows.
  "style-src 'self'",
  // Image artifacts are base64 data; nothing is loaded from another origin.
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** A fresh random per-run token (URL-safe). */
export function newToken(): string {
  return randomBytes(24).toString('base64url');
}

/** Compares two secrets in constant time (their hashes, so lengths leak nothing either). */
export function sameSecret(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

/** The loopback names the Host header may carry, with the server's port. */
export function allowedHosts(port: number): readonly string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`, `[::1]:${port}`];
}

/** The cookie that carries the token after the first load (one per port: several servers may run). */
export function tokenCookieName(port: number): string {
  return `codeagent_token_${port}`;
}

/** Options of {@link localSecurity}. */
export interface LocalSecurityOptions {
  /** The port the server listens on (the Host header must name it). */
  readonly port: () => number;
  /** The per-run token. */
  readonly token: string;
}

/**
 * Guards a local server that can run commands: the Host must be a loopback name with our port (no DNS
 * rebinding), the Origin, when present, exactly our own, a fetch from another site or port is refused (by
 * `Sec-Fetch-Site`), and every request
 * carries the token (query on the first page load, then an HttpOnly SameSite=Strict cookie, or a Bearer header).
 * Every response gets the CSP and the usual hardening headers.
 */
export function localSecurity(options: LocalSecurityOptions): MiddlewareHandler {
  return async (c, next) => {
    const port = options.port();
    const host = c.req.header('host') ?? '';
    const hardening = () => {
      c.header('Content-Security-Policy', CONTENT_SECURITY_POLICY);
      c.header('X-Content-Type-Options', 'nosniff');
      c.header('Referrer-Policy', 'no-referrer');
      c.header('X-Frame-Options', 'DENY');
      c.header('Cross-Origin-Opener-Policy', 'same-origin');
      c.header('Cross-Origin-Resource-Policy', 'same-origin');
    };
    const refuse = (status: 403 | 401 | 421, text: string) => {
      hardening();
      return c.text(text, status);
    };
    if (!allowedHosts(port).includes(host.toLowerCase()))
      return refuse(421, 'refused: the Host is not this server');
    const origin = c.req.header('origin');
    if (origin !== undefined && origin !== `http://${host.toLowerCase()}`)
      return refuse(403, 'refused: a request from another origin');
    // Another port on localhost is "same-site" for browsers: only our own pages (or the address bar) may call us.
    const site = c.req.header('sec-fetch-site');
    if (site !== undefined && site !== 'same-origin' && site !== 'none')
      return refuse(403, 'refused: a request from another site or port');
    const fromQuery = c.req.query('token');
    const auth = c.req.header('authorization');
    const bearer = auth?.startsWith('Bearer ') ? auth.slice(7) : undefined;
    const cookie = getCookie(c, tokenCookieName(port));
    const given = fromQuery ?? bearer ?? cookie;
    if (given === undefined || !sameSecret(given, options.token))
      return refuse(401, 'refused: open the URL with the token the server printed');
    if (fromQuery !== undefined && c.req.method === 'GET') {
      // First load: keep the token in a cookie and drop it from the address bar (and from history).
      hardening();
      c.header('Set-Cookie', `${tokenCookieName(port)}=${options.token}; Path=/; HttpOnly; SameSite=Strict`);
      const url = new URL(c.req.url);
      url.searchParams.delete('token');
      return c.redirect(`${url.pathname}${url.search}`, 303);
    }
    await next();
    hardening();
    return undefined;
  };
}
