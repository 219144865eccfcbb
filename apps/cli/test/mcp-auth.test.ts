import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { LoopbackSignIn } from '../src/mcp-auth.js';

function get(
  url: string,
  options: { method?: string; host?: string } = {},
): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: '127.0.0.1',
        port: u.port,
        path: `${u.pathname}${u.search}`,
        method: options.method ?? 'GET',
        headers: { host: options.host ?? u.host },
      },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

const signIn = (state: string | null) => {
  const url = new URL('https://auth.invalid/authorize?client_id=x');
  if (state !== null) url.searchParams.set('state', state);
  return { server: 'docs', url, redirectUrl: '' };
};

describe('the loopback redirect of MCP sign-ins', () => {
  it('takes only the answer carrying the waiting state, on its own Host, by GET; the rest changes nothing', async () => {
    const loopback = await LoopbackSignIn.start();
    try {
      expect(loopback.redirectUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
      const waiting = loopback.wait(signIn('s3cret-state'), { timeoutMs: 10_000 });
      const base = loopback.redirectUrl;
      expect((await get(`${base}?code=evil&state=guess`)).status).toBe(400);
      expect((await get(`${base}?code=evil&state=s3cret-state`, { host: 'evil.example:80' })).status).toBe(
        400,
      );
      expect((await get(`${base}?code=evil&state=s3cret-state`, { method: 'POST' })).status).toBe(400);
      expect((await get(`${base.replace('/callback', '/other')}?code=evil&state=s3cret-state`)).status).toBe(
        400,
      );
      const ok = await get(`${base}?code=the-code&state=s3cret-state`);
      expect(ok.status).toBe(200);
      expect(ok.body).toContain('Signed in');
      expect(await waiting).toBe('the-code');
      // Used once: a replay finds nothing waiting.
      expect((await get(`${base}?code=again&state=s3cret-state`)).status).toBe(400);
    } finally {
      await loopback.close();
    }
  });

  it('an error from the authorization server, a timeout, a cancel or a URL without state fail the sign-in', async () => {
    const loopback = await LoopbackSignIn.start();
    try {
      const denied = expect(loopback.wait(signIn('a'), { timeoutMs: 10_000 })).rejects.toThrow(
        /did not sign you in \(<b>no<\/b>\)/,
      );
      const page = await get(
        `${loopback.redirectUrl}?error=access_denied&error_description=<b>no</b>&state=a`,
      );
      expect(page.body).not.toContain('<b>');
      await denied;
      await expect(loopback.wait(signIn('b'), { timeoutMs: 50 })).rejects.toThrow(/timed out/);
      const abort = new AbortController();
      const cancelled = loopback.wait(signIn('c'), { timeoutMs: 10_000, signal: abort.signal });
      abort.abort();
      await expect(cancelled).rejects.toThrow(/cancelled/);
      await expect(loopback.wait(signIn(null), { timeoutMs: 10_000 })).rejects.toThrow(/no state/);
    } finally {
      await loopback.close();
    }
  });
});
