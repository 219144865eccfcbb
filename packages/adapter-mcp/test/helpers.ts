import { type ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { toolResultArtifact } from '@codeagent/artifact-schema';
import type { McpServerConfig } from '../src/index.js';

/** The fixture server's script (plain JS over the MCP SDK, run with node). */
export const FIXTURE = join(import.meta.dirname, 'fixtures', 'server.mjs');

/** The stdio config of the fixture server. */
export const stdioFixture: McpServerConfig = { command: process.execPath, args: [FIXTURE, 'stdio'] };

/** Starts the fixture server over Streamable HTTP on 127.0.0.1; resolves with its URL and a stop function. */
export async function httpFixture(
  env: Record<string, string> = {},
): Promise<{ url: string; stop: () => void; child: ChildProcess }> {
  const child = spawn(process.execPath, [FIXTURE, 'http'], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const port = await new Promise<number>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const m = /listening (\d+)/.exec(out);
      if (m) resolve(Number(m[1]));
    });
    child.once('exit', (code) => reject(new Error(`fixture exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}/mcp`, stop: () => child.kill('SIGKILL'), child };
}

/** The `text` of a result's artifact payload (code and text kinds), or `''`. */
export function payloadText(r: unknown): string {
  const payload = toolResultArtifact(r)?.payload as { text?: unknown } | undefined;
  return typeof payload?.text === 'string' ? payload.text : '';
}
