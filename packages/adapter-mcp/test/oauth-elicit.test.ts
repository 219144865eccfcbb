// biome-ignore-all lint/suspicious/noTemplateCurlyInString: ${VAR} is the .mcp.json expansion syntax under test
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { elicitFields, elicitResult } from '../src/elicit.js';
import { type McpElicitation, McpFileOAuthStore, McpServerConnection, parseMcpConfig } from '../src/index.js';
import { httpFixture, stdioFixture } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'codeagent-mcp-oauth-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('McpFileOAuthStore', () => {
  it('keeps records per server URL in a 0600 file and refuses a damaged one', async () => {
    const file = join(dir, 'tokens', 'mcp-tokens.json');
    const store = new McpFileOAuthStore(file);
    expect(await store.read('https://a.invalid/mcp')).toBeUndefined();
    const tokens = { access_token: 'at', token_type: 'Bearer', refresh_token: 'rt' };
    await store.write('https://a.invalid/mcp', { tokens });
    await store.write('https://b.invalid/mcp', { codeVerifier: 'v' });
    expect(await store.read('https://a.invalid/mcp')).toEqual({ tokens });
    expect(await store.read('https://b.invalid/mcp')).toEqual({ codeVerifier: 'v' });
    expect(await store.read('__proto__')).toBeUndefined();
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'tokens')).mode & 0o777).toBe(0o700);
    expect(JSON.parse(readFileSync(file, 'utf8')).version).toBe(1);
    for (const bad of ['{', '[]', '{"version": 1, "servers": 3}']) {
      writeFileSync(file, bad);
      await expect(store.read('https://a.invalid/mcp')).rejects.toThrow(file);
    }
    rmSync(file);
    execFileSync('mkfifo', [file]);
    await expect(store.read('x')).rejects.toThrow(/not a regular file/);
  });

  it('an .mcp.json oauth entry is read with ${VAR} expansion; unknown keys or a bad grant leave the server out', () => {
    const { servers, warnings } = parseMcpConfig(
      {
        a: {
          type: 'http',
          url: 'https://a.invalid/mcp',
          oauth: { clientId: 'id', clientSecret: '${S}' },
        },
        b: { type: 'http', url: 'https://b.invalid/mcp', oauth: { clientId: 'x', password: 'p' } },
        c: { type: 'http', url: 'https://c.invalid/mcp', oauth: { grant: 'implicit' } },
        d: { type: 'http', url: 'https://d.invalid/mcp', oauth: 'yes' },
      },
      { env: { S: 'secret' } },
    );
    expect(servers.a).toEqual({
      type: 'http',
      url: 'https://a.invalid/mcp',
      headers: {},
      oauth: { clientId: 'id', clientSecret: 'secret' },
    });
    expect(Object.keys(servers)).toEqual(['a']);
    expect(warnings).toHaveLength(3);
  });

  it('a server that answers 401 fails to connect without a sign-in, naming the server', async () => {
    const server = await httpFixture({ FIXTURE_TOKEN: 'secret-token' });
    try {
      const c = new McpServerConnection('locked', { type: 'http', url: server.url });
      await expect(c.tools()).rejects.toThrow(/MCP server locked could not start/);
      await c.close();
      // The static header still works.
      const ok = new McpServerConnection('locked', {
        type: 'http',
        url: server.url,
        headers: { Authorization: 'Bearer secret-token' },
      });
      expect((await ok.tools()).length).toBeGreaterThan(0);
      await ok.close();
    } finally {
      server.stop();
    }
  }, 30_000);
});

describe('elicitation (form mode)', () => {
  it('the host is asked with the cleaned message and fields; its answer reaches the server, checked', async () => {
    const asked: McpElicitation[] = [];
    const answers = [
      { action: 'accept', content: { env: 'staging', confirm: true, extra: 'dropped', replicas: 'x' } },
      { action: 'decline' },
      // A required field missing: declined, never sent as accepted.
      { action: 'accept', content: { confirm: true } },
      { action: 'accept', content: { env: 'nowhere' } },
    ] as const;
    let i = 0;
    const c = new McpServerConnection('fixture', stdioFixture, {
      elicit: async (request) => {
        asked.push(request);
        return answers[i++] ?? { action: 'cancel' };
      },
    });
    try {
      const text = async () => {
        const r = (await c.callTool('ask', {})) as { content: Array<{ text: string }> };
        return JSON.parse(r.content[0]?.text ?? '{}');
      };
      expect(await text()).toEqual({
        action: 'accept',
        content: { env: 'staging', confirm: true, replicas: 2 },
      });
      expect(asked[0]).toEqual({
        server: 'fixture',
        message: 'Which environment?',
        fields: [
          {
            name: 'env',
            title: 'Environment',
            description: '',
            type: 'string',
            enum: ['staging', 'prod'],
            required: true,
          },
          {
            name: 'replicas',
            title: 'Replicas',
            description: '',
            type: 'integer',
            required: false,
            default: 2,
          },
          { name: 'confirm', title: 'Really?', description: '', type: 'boolean', required: false },
        ],
      });
      expect(await text()).toEqual({ action: 'decline' });
      expect(await text()).toEqual({ action: 'decline' });
      expect(await text()).toEqual({ action: 'decline' });
      expect(await text()).toEqual({ action: 'cancel' });
    } finally {
      await c.close();
    }
  }, 30_000);

  it('without an elicit option the capability is not declared: the server cannot ask', async () => {
    const c = new McpServerConnection('fixture', stdioFixture);
    try {
      const r = (await c.callTool('ask', {})) as { isError?: boolean; content: Array<{ text: string }> };
      expect(r.isError).toBe(true);
      expect(r.content[0]?.text).toMatch(/elicitation/i);
    } finally {
      await c.close();
    }
  }, 30_000);

  it('any schema gives fields of the four types only, cleaned; any answer gives only those fields, typed (property)', () => {
    fc.assert(
      fc.property(
        fc.jsonValue({ maxDepth: 5 }),
        fc.dictionary(fc.string(), fc.jsonValue()),
        (schema, content) => {
          const fields = elicitFields(schema);
          for (const f of fields) {
            expect(['string', 'number', 'integer', 'boolean']).toContain(f.type);
            expect(f.title).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f\u202e]/u);
          }
          const r = elicitResult(fields, { action: 'accept', content: content as Record<string, string> });
          if (r.action === 'accept') {
            for (const [k, v] of Object.entries(r.content)) {
              const f = fields.find((x) => x.name === k);
              expect(f).toBeDefined();
              expect(typeof v).toBe(f?.type === 'integer' ? 'number' : f?.type);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
    const hostile = elicitFields({
      properties: Object.fromEntries(
        Array.from({ length: 500 }, (_, k) => [
          `f${k}`,
          { type: 'string', title: `\u001b]0;x\u0007t${k}\u202e` },
        ]),
      ),
    });
    expect(hostile).toHaveLength(50);
    expect(hostile[0]?.title).toBe('t0');
  });
});
