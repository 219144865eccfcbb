import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { resolveHostConfig } from '../src/server/config.ts';
import { startWebHost, type WebHost } from '../src/server/server.ts';

/** A web host on the demo config with a database in a temp dir; `clientDir` defaults to a one-file stand-in. */
export async function startTestHost(
  options: { clientDir?: string; approvalTimeoutMs?: number; dir?: string } = {},
): Promise<{ host: WebHost; dir: string; dispose: () => Promise<void> }> {
  const dir = options.dir ?? (await mkdtemp(join(tmpdir(), 'codeagent-web-test-')));
  let clientDir = options.clientDir;
  if (!clientDir) {
    clientDir = join(dir, 'client');
    await import('node:fs/promises').then((fs) => fs.mkdir(clientDir as string, { recursive: true }));
    await writeFile(join(clientDir, 'index.html'), '<!doctype html><title>stand-in</title>');
  }
  const config = await resolveHostConfig({ cwd: dir, port: 0, dataDir: null, demo: true }, {});
  const host = await startWebHost({
    config,
    database: join(dir, 'sessions.db'),
    clientDir,
    ...(options.approvalTimeoutMs !== undefined ? { approvalTimeoutMs: options.approvalTimeoutMs } : {}),
  });
  return {
    host,
    dir,
    dispose: async () => {
      await host.close();
      if (!options.dir) await rm(dir, { recursive: true, force: true });
      await rm(config.cwd, { recursive: true, force: true });
    },
  };
}

/** A raw HTTP request with any headers (fetch cannot set Host), to 127.0.0.1:port. */
export function raw(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      { host: '127.0.0.1', port, path, method: options.method ?? 'GET', headers: options.headers ?? {} },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          body += d;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
    if (options.body) req.write(options.body);
    req.end();
  });
}
