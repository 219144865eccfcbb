import { execFile, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The MCP client conformance suite (@modelcontextprotocol/conformance 0.1.13, the last that runs on Node 20) against
// the adapter's Streamable HTTP client path: test/conformance/client.mjs drives McpServerConnection.
const run = promisify(execFile);
const pkg = join(import.meta.dirname, '..');
const here = join(import.meta.dirname, 'conformance');
const require = createRequire(import.meta.url);
const conformancePkg = join(require.resolve('@modelcontextprotocol/conformance/package.json'), '..');
const runner = join(
  conformancePkg,
  (require(join(conformancePkg, 'package.json')) as { bin: Record<string, string> }).bin
    .conformance as string,
);
const out = mkdtempSync(join(tmpdir(), 'codeagent-mcp-conformance-'));
afterAll(() => rmSync(out, { recursive: true, force: true }));

beforeAll(() => {
  // The client runs as a plain Node process, so it needs the built adapter.
  if (!existsSync(join(pkg, 'dist', 'index.js')))
    execFileSync('pnpm', ['run', 'build'], { cwd: pkg, stdio: 'ignore' });
}, 120_000);

async function conformance(args: string[]): Promise<{ code: number; output: string }> {
  try {
    const r = await run(
      runner,
      [
        'client',
        '--command',
        `${process.execPath} ${join(here, 'client.mjs')}`,
        '--timeout',
        '10000',
        '-o',
        out,
        ...args,
      ],
      {
        cwd: here,
        maxBuffer: 64 * 1024 * 1024,
      },
    );
    return { code: 0, output: r.stdout + r.stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === 'number' ? e.code : 1, output: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

const baseline = join(here, 'baseline.yml');

describe('MCP client conformance suite against the adapter (HTTP)', () => {
  // One scenario at a time: sse-retry also times the reconnect delay (±200 ms), which 20 scenarios started at once on
  // a 2-core machine would disturb.
  it.each(['initialize', 'tools_call', 'sse-retry'])(
    'passes %s',
    async (scenario) => {
      const { code, output } = await conformance(['--scenario', scenario]);
      expect(code, output.slice(-3000)).toBe(0);
      expect(output).toMatch(/OVERALL: PASSED/);
    },
    120_000,
  );

  it('passes the whole auth suite: discovery, dynamic, pre-registered and URL-based clients, PKCE, scopes and step-up', async () => {
    const auth = await conformance(['--suite', 'auth', '--expected-failures', baseline]);
    expect(auth.code, auth.output.slice(-3000)).toBe(0);
    const passed = [...auth.output.matchAll(/✓ (auth\/\S+): \d+ passed, 0 failed/g)].map((m) => m[1]);
    expect(passed.sort()).toEqual([
      'auth/basic-cimd',
      'auth/metadata-default',
      'auth/metadata-var1',
      'auth/metadata-var2',
      'auth/metadata-var3',
      'auth/pre-registration',
      'auth/resource-mismatch',
      'auth/scope-from-scopes-supported',
      'auth/scope-from-www-authenticate',
      'auth/scope-omitted-when-undefined',
      'auth/scope-retry-limit',
      'auth/scope-step-up',
      'auth/token-endpoint-auth-basic',
      'auth/token-endpoint-auth-none',
      'auth/token-endpoint-auth-post',
    ]);
    expect(auth.output).not.toMatch(/✗/);
  }, 180_000);

  it.each([
    'auth/2025-03-26-oauth-metadata-backcompat',
    'auth/2025-03-26-oauth-endpoint-fallback',
    'auth/client-credentials-jwt',
    'auth/client-credentials-basic',
  ])(
    'passes %s',
    async (scenario) => {
      const { code, output } = await conformance(['--scenario', scenario]);
      expect(code, output.slice(-3000)).toBe(0);
      expect(output).toMatch(/OVERALL: PASSED/);
    },
    120_000,
  );

  it('passes elicitation-sep1034-client-defaults (form mode; the schema defaults fill what the user left out)', async () => {
    const elicitation = await conformance([
      '--scenario',
      'elicitation-sep1034-client-defaults',
      '--expected-failures',
      baseline,
    ]);
    expect(elicitation.code, elicitation.output.slice(-3000)).toBe(0);
    expect(elicitation.output).toMatch(/OVERALL: PASSED/);
  }, 180_000);
});
