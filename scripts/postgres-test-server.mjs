// A throwaway PostgreSQL server for tests and benches: initdb in a temporary folder (as a dedicated non-root user
// when run as root, since PostgreSQL refuses to run as root), listening on 127.0.0.1 on a free port, trust auth.
// It never skips: without the server binaries it fails with how to install them.
import { execFileSync, spawnSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const USER = 'codeagent-pg';

/** The folder holding initdb and pg_ctl: CODEAGENT_PG_BIN, Debian's newest /usr/lib/postgresql/N/bin, pg_config. */
export function findPostgresBin(env = process.env) {
  if (env.CODEAGENT_PG_BIN)
    return existsSync(join(env.CODEAGENT_PG_BIN, 'initdb')) ? env.CODEAGENT_PG_BIN : null;
  const base = '/usr/lib/postgresql';
  if (existsSync(base)) {
    const versions = readdirSync(base)
      .filter((v) => /^\d+$/.test(v) && existsSync(join(base, v, 'bin', 'initdb')))
      .sort((a, b) => Number(b) - Number(a));
    if (versions[0]) return join(base, versions[0], 'bin');
  }
  try {
    const dir = execFileSync('pg_config', ['--bindir'], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
    if (existsSync(join(dir, 'initdb'))) return dir;
  } catch {
    // No pg_config.
  }
  return null;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

function ensureUser() {
  if (spawnSync('id', ['-u', USER], { stdio: 'ignore' }).status === 0) return;
  const made = spawnSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', USER], {
    encoding: 'utf8',
  });
  if (made.status !== 0 && spawnSync('id', ['-u', USER], { stdio: 'ignore' }).status !== 0)
    throw new Error(`cannot create the user ${USER} to run PostgreSQL: ${made.stderr}`);
}

function run(server, tool, args) {
  const asRoot = process.getuid?.() === 0;
  const command = asRoot ? 'runuser' : join(server.bin, tool);
  const argv = asRoot ? ['-u', USER, '--', join(server.bin, tool), ...args] : args;
  const out = spawnSync(command, argv, { encoding: 'utf8', cwd: server.root, timeout: 60_000 });
  if (out.status !== 0)
    throw new Error(
      `${tool} ${args.join(' ')} failed (${out.status ?? out.signal}): ${out.stderr || out.stdout}`,
    );
  return out.stdout;
}

/**
 * Starts a server. Returns `{url, port, root, dataDir, bin}`; pass it to `stopPostgres`, `startAgain`,
 * `killPostgres`.
 */
export async function startPostgres() {
  const bin = findPostgresBin();
  if (!bin)
    throw new Error(
      "PostgreSQL server binaries (initdb, pg_ctl) were not found: install Debian's postgresql package " +
        '(apt-get install -y postgresql; scripts/test-all.sh does it) or set CODEAGENT_PG_BIN to the folder holding ' +
        'initdb. The PostgreSQL tests never skip.',
    );
  const root = mkdtempSync(join(tmpdir(), 'codeagent-pg-'));
  if (process.getuid?.() === 0) {
    ensureUser();
    const uid = Number(execFileSync('id', ['-u', USER], { encoding: 'utf8' }).trim());
    const gid = Number(execFileSync('id', ['-g', USER], { encoding: 'utf8' }).trim());
    chownSync(root, uid, gid);
  }
  const server = { bin, root, dataDir: join(root, 'data'), port: await freePort(), url: '' };
  run(server, 'initdb', [
    '-D',
    server.dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--locale=C',
    '--no-sync',
    '--no-instructions',
  ]);
  startAgain(server);
  server.url = `postgres://postgres@127.0.0.1:${server.port}/postgres`;
  return server;
}

/** Starts the server of `server` again (same folder, same port), waiting until it accepts connections. */
export function startAgain(server) {
  run(server, 'pg_ctl', [
    '-D',
    server.dataDir,
    '-l',
    join(server.root, 'server.log'),
    '-w',
    '-t',
    '60',
    '-o',
    `-p ${server.port} -k ${server.root} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=300`,
    'start',
  ]);
}

/** Stops the server at once (`immediate`: like a crash; the next start recovers), keeping its folder. */
export function killPostgres(server) {
  run(server, 'pg_ctl', ['-D', server.dataDir, '-m', 'immediate', '-w', 'stop']);
}

/** Stops the server and removes its folder. */
export function stopPostgres(server) {
  try {
    killPostgres(server);
  } catch {
    // Already stopped.
  }
  rmSync(server.root, { recursive: true, force: true });
}
