import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, startOpenAIServer } from './chat-server.js';
import { BIN, runBin, tempRoot } from './run.js';
import { TmuxSession } from './tmux.js';

const sessions: TmuxSession[] = [];
const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function start(
  args: string[],
  dirs: { root: string; work: string; data: string; home: string },
  env: Record<string, string> = {},
) {
  const session = await TmuxSession.start({
    command: ['node', BIN, ...args, '--data-dir', dirs.data],
    cwd: dirs.work,
    env: { TERM: 'xterm-256color', HOME: dirs.home, NO_COLOR: '1', ...env },
    logDir: dirs.root,
  });
  sessions.push(session);
  return session;
}

describe('sessions in a pseudo-terminal', () => {
  it('--continue resumes the last session of this folder with its model, and shows the earlier conversation', async () => {
    const dirs = await tempRoot();
    const server = await startOpenAIServer({
      replies: (request, i) => ({
        text: i === 0 ? 'The capital of France is Paris.' : `again from ${request.body.model}`,
      }),
    });
    servers.push(server);
    const first = await start(['--cwd', dirs.work], dirs, {
      CODEAGENT_BASE_URL: server.baseURL,
      CODEAGENT_MODEL: 'first-model',
    });
    await first.waitFor(/session \S+ · \/help/);
    await first.type('what is the capital of France?');
    await first.keys('Enter');
    await first.waitFor('The capital of France is Paris.');
    await first.type('/exit');
    await first.keys('Enter');
    expect(await first.waitForExit()).toBe(0);

    // No model in the environment this time: the session remembers provider, model and server.
    const again = await start(['--continue', '--cwd', dirs.work], dirs);
    const screen = await again.waitFor('── resumed ──');
    expect(screen).toContain('model first-model (openai-compatible)');
    expect(screen).toMatch(/resumed session \S+ \(2 messages\)/);
    expect(screen).toContain('› what is the capital of France?');
    expect(screen).toContain('The capital of France is Paris.');
    await again.type('and again?');
    await again.keys('Enter');
    await again.waitFor('again from first-model');
    expect(JSON.stringify(server.requests.at(-1)?.body.messages)).toContain(
      'The capital of France is Paris.',
    );
    await again.type('/exit');
    await again.keys('Enter');
    expect(await again.waitForExit()).toBe(0);
  }, 60_000);

  it('--resume without an id opens a picker; /sessions shows each folder and reports damaged files', async () => {
    const dirs = await tempRoot();
    const other = join(dirs.root, 'other-project');
    await mkdir(other);
    const server = await startOpenAIServer({ replies: (_r, i) => ({ text: `reply ${i}` }) });
    servers.push(server);
    const env = { CODEAGENT_BASE_URL: server.baseURL, CODEAGENT_MODEL: 'm' };
    for (const [cwd, prompt] of [
      [other, 'question in the other project'],
      [dirs.work, 'question here'],
    ] as const) {
      const r = await runBin(['-p', prompt, '--cwd', cwd, '--data-dir', dirs.data], {
        HOME: dirs.home,
        ...env,
      });
      expect(r.code, r.stderr).toBe(0);
    }
    await writeFile(join(dirs.data, 'sessions', 'broken-one.json'), '{"session": ');

    // Without a terminal it cannot ask: it says so and lists the sessions.
    const piped = await runBin(['--resume', '--cwd', dirs.work, '--data-dir', dirs.data], {
      HOME: dirs.home,
      ...env,
    });
    expect(piped.code).toBe(1);
    expect(piped.stderr).toContain('--resume needs a session id when there is no terminal');
    expect(piped.stderr).toContain('DAMAGED: not valid JSON');

    const picker = await start(['--resume', '--cwd', dirs.work], dirs, env);
    const list = await picker.waitFor('Esc cancel');
    expect(list).toMatch(new RegExp(`› 1\\. \\S+ +just now +${dirs.work} · m +question here`));
    expect(list).toContain(`${other} · m  question in the other project`);
    expect(list).toContain('broken-one');
    await picker.keys('Down');
    await picker.waitFor(new RegExp(`› 2\\. \\S+ +just now +${other}`));
    await picker.keys('Enter');
    const resumed = await picker.waitFor('── resumed ──');
    expect(resumed).toContain('› question in the other project');
    await picker.type('/sessions');
    await picker.keys('Enter');
    const listing = await picker.waitFor('damaged session file(s)');
    expect(listing).toContain(dirs.work);
    expect(listing).toContain(other);
    expect(listing).toContain('broken-one');
    expect(listing).toContain('DAMAGED: not valid JSON');
    await picker.type('/exit');
    await picker.keys('Enter');
    expect(await picker.waitForExit()).toBe(0);
  }, 60_000);
});
