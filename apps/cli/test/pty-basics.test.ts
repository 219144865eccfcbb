import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './chat-server.js';
import { BIN, tempRoot } from './run.js';
import { TmuxSession } from './tmux.js';

const sessions: TmuxSession[] = [];
const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function shell(
  dirs: { root: string; work: string; home: string },
  script: string,
  env: Record<string, string> = {},
) {
  const session = await TmuxSession.start({
    command: ['bash', '-c', script],
    cwd: dirs.work,
    env: { TERM: 'xterm-256color', HOME: dirs.home, NO_COLOR: '1', ...env },
    logDir: dirs.root,
  });
  sessions.push(session);
  return session;
}

describe('the built binary in a pseudo-terminal: safety, output, errors', () => {
  it('with no model it touches nothing, says how to configure one, exits 2; a usage error is one line and a hint', async () => {
    const dirs = await tempRoot();
    await mkdir(join(dirs.work, 'build'));
    await writeFile(join(dirs.work, 'build', 'out.js'), 'x');
    const none = await shell(dirs, `node ${BIN} -p hi --mode bypass --data-dir ${dirs.data}`);
    expect(await none.waitForExit()).toBe(2);
    const screen = await none.screen();
    expect(screen).toContain('no model configured');
    expect(screen).toContain('codeagent demo');
    expect(existsSync(join(dirs.work, 'build', 'out.js'))).toBe(true);
    expect(existsSync(join(dirs.work, 'src', 'farewell.ts'))).toBe(false);

    const usage = await shell(dirs, `node ${BIN} --resum`);
    expect(await usage.waitForExit()).toBe(2);
    const lines = (await usage.screen())
      .trim()
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('Pane is dead'));
    expect(lines).toEqual([
      'codeagent: unknown option "--resum" (did you mean --resume?)',
      "Try 'codeagent --help' for the options.",
    ]);
  }, 60_000);

  it('--json piped is NDJSON only, session line first; a stalled provider ends the turn with a clear error', async () => {
    const dirs = await tempRoot();
    const server = await startOpenAIServer({
      replies: (_r, i) => (i === 0 ? { text: 'hello' } : { stallAfter: 'Par' }),
    });
    servers.push(server);
    const env = { CODEAGENT_BASE_URL: server.baseURL, CODEAGENT_MODEL: 'm' };
    const out = join(dirs.root, 'events.ndjson');
    const json = await shell(dirs, `node ${BIN} -p hi --json --data-dir ${dirs.data} | cat > ${out}`, env);
    expect(await json.waitForExit()).toBe(0);
    const { readFile } = await import('node:fs/promises');
    const events = (await readFile(out, 'utf8'))
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events[0].type).toBe('session');
    expect(events.at(-1).type).toBe('end');

    const repl = await shell(dirs, `node ${BIN} --stall-timeout 0.5 --data-dir ${dirs.data}`, env);
    await repl.waitFor(/session \S+ · \/help/);
    await repl.type('tell me');
    await repl.keys('Enter');
    await repl.waitFor(
      'the provider stopped sending data for 500 ms, so the request was aborted (stall timeout)',
    );
    await repl.waitFor(/── .*error/);
    await repl.type('/exit');
    await repl.keys('Enter');
    expect(await repl.waitForExit()).toBe(0);
  }, 60_000);
});
