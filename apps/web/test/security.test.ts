import { networkInterfaces } from 'node:os';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY, sameSecret, tokenCookieName } from '../src/server/security.ts';
import type { WebHost } from '../src/server/server.ts';
import { raw, startTestHost } from './helpers.ts';

let host: WebHost;
let dispose: () => Promise<void>;
beforeAll(async () => {
  ({ host, dispose } = await startTestHost());
});
afterAll(async () => dispose());

const good = () => ({
  Host: `127.0.0.1:${host.port}`,
  Cookie: `${tokenCookieName(host.port)}=${host.token}`,
});

describe('the local server guard', () => {
  it('lets the token in once through the URL, then by an HttpOnly SameSite=Strict cookie', async () => {
    const first = await raw(host.port, `/?token=${host.token}`, {
      headers: { Host: `127.0.0.1:${host.port}` },
    });
    expect(first.status).toBe(303);
    expect(first.headers.location).toBe('/');
    const cookie = String(first.headers['set-cookie']);
    expect(cookie).toContain(`${tokenCookieName(host.port)}=${host.token}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Strict');
    const page = await raw(host.port, '/', { headers: good() });
    expect(page.status).toBe(200);
    expect(page.body).toContain('stand-in');
    const api = await raw(host.port, '/api/info', {
      headers: { Host: `localhost:${host.port}`, Authorization: `Bearer ${host.token}` },
    });
    expect(api.status).toBe(200);
    expect(JSON.parse(api.body)).toMatchObject({ demo: true });
  });

  it('refuses a missing or wrong token in every form', async () => {
    const h = { Host: `127.0.0.1:${host.port}` };
    expect((await raw(host.port, '/', { headers: h })).status).toBe(401);
    expect((await raw(host.port, '/api/sessions', { headers: h })).status).toBe(401);
    expect((await raw(host.port, '/?token=wrong', { headers: h })).status).toBe(401);
    expect((await raw(host.port, `/?token=${host.token}x`, { headers: h })).status).toBe(401);
    expect(
      (
        await raw(host.port, '/api/sessions', {
          headers: { ...h, Cookie: `${tokenCookieName(host.port)}=nope` },
        })
      ).status,
    ).toBe(401);
    expect(
      (
        await raw(host.port, '/api/sessions', {
          headers: { ...h, Authorization: `Bearer ${host.token.slice(1)}` },
        })
      ).status,
    ).toBe(401);
    // A cookie of another port's server is not ours.
    expect(
      (
        await raw(host.port, '/api/sessions', {
          headers: { ...h, Cookie: `codeagent_token_1=${host.token}` },
        })
      ).status,
    ).toBe(401);
  });

  it('refuses a Host that is not a loopback name with our port (DNS rebinding)', async () => {
    for (const bad of [
      `evil.example:${host.port}`,
      'evil.example',
      `127.0.0.1:${host.port + 1}`,
      `127.0.0.1`,
      `192.168.1.10:${host.port}`,
      `localhost.evil.example:${host.port}`,
      `0.0.0.0:${host.port}`,
    ]) {
      const res = await raw(host.port, '/api/sessions', { headers: { ...good(), Host: bad } });
      expect(res.status, bad).toBe(421);
    }
    for (const ok of [`localhost:${host.port}`, `[::1]:${host.port}`, `LOCALHOST:${host.port}`]) {
      expect((await raw(host.port, '/api/sessions', { headers: { ...good(), Host: ok } })).status, ok).toBe(
        200,
      );
    }
  });

  it('refuses a foreign Origin and cross-site fetches; accepts its own origin', async () => {
    for (const origin of [
      'http://evil.example',
      'null',
      `http://localhost:${host.port}`, // another name than the Host used
      `https://127.0.0.1:${host.port}`,
      `http://127.0.0.1:${host.port + 1}`,
    ]) {
      const res = await raw(host.port, '/api/sessions', {
        method: 'POST',
        headers: { ...good(), Origin: origin, 'Content-Type': 'application/json' },
        body: '{}',
      });
      expect(res.status, origin).toBe(403);
    }
    const own = await raw(host.port, '/api/sessions', {
      method: 'POST',
      headers: { ...good(), Origin: `http://127.0.0.1:${host.port}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(own.status).toBe(201);
    const cross = await raw(host.port, '/api/sessions', {
      headers: { ...good(), 'Sec-Fetch-Site': 'cross-site' },
    });
    expect(cross.status).toBe(403);
  });

  it('refuses a state change that is not JSON (a form post)', async () => {
    const res = await raw(host.port, '/api/sessions', {
      method: 'POST',
      headers: { ...good(), 'Content-Type': 'application/x-www-form-urlencoded' },
      body: 'title=x',
    });
    expect(res.status).toBe(415);
  });

  it('sends the strict CSP and hardening headers on pages, API answers and refusals', async () => {
    for (const res of [
      await raw(host.port, '/', { headers: good() }),
      await raw(host.port, '/api/info', { headers: good() }),
      await raw(host.port, '/', { headers: { Host: 'evil.example' } }),
    ]) {
      expect(res.headers['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['x-frame-options']).toBe('DENY');
    }
    expect(CONTENT_SECURITY_POLICY).toContain("script-src 'self'");
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-inline');
    expect(CONTENT_SECURITY_POLICY).not.toContain('unsafe-eval');
    expect(CONTENT_SECURITY_POLICY).toContain("frame-ancestors 'none'");
  });

  it('does not serve files outside the client folder', async () => {
    for (const path of [
      '/assets/../sessions.db',
      '/assets/..%2fsessions.db',
      '/assets/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const res = await raw(host.port, path, { headers: good() });
      expect(res.body, path).not.toContain('SQLite');
      expect(res.body).not.toContain('root:');
    }
  });

  it('listens on 127.0.0.1 only', async () => {
    expect(host.origin).toBe(`http://127.0.0.1:${host.port}`);
    const external = Object.values(networkInterfaces())
      .flat()
      .find((i) => i && !i.internal && i.family === 'IPv4');
    const target = external?.address ?? '127.0.0.2';
    const reached = await new Promise<boolean>((resolve) => {
      const socket = connect({ host: target, port: host.port });
      socket.once('connect', () => {
        socket.destroy();
        resolve(true);
      });
      socket.once('error', () => resolve(false));
    });
    expect(reached, target).toBe(false);
  });

  it('compares secrets by value', () => {
    expect(sameSecret('abc', 'abc')).toBe(true);
    expect(sameSecret('abc', 'abd')).toBe(false);
    expect(sameSecret('abc', 'abcd')).toBe(false);
  });
});
