import { readFile } from 'node:fs/promises';
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

const LOOP = 'for i in 1 2 3; do echo line$i; sleep 1; done';

async function start(
  dirs: { root: string; work: string; home: string; data: string },
  server: OpenAIServer,
  args: readonly string[],
  env: Record<string, string> = {},
) {
  const session = await TmuxSession.start({
    command: ['node', BIN, '--data-dir', dirs.data, ...args],
    cwd: dirs.work,
    env: {
      TERM: 'xterm-256color',
      HOME: dirs.home,
      CODEAGENT_BASE_URL: server.baseURL,
      CODEAGENT_MODEL: 'm',
      ...env,
    },
    logDir: dirs.root,
  });
  sessions.push(session);
  return session;
}

describe('Bash output streams live into its card (built binary, tmux, loopback model)', () => {
  it('lines appear under the command while it runs, then the final card replaces the tail (NO_COLOR: no SGR)', async () => {
    const dirs = await tempRoot('codeagent-live-');
    const server = await startOpenAIServer({
      replies: [
        { tools: [{ name: 'Bash', args: { command: LOOP, description: 'Count' } }] },
        { text: 'counted' },
      ],
    });
    servers.push(server);
    const cli = await start(dirs, server, ['--mode', 'bypass'], { NO_COLOR: '1' });
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('count');
    await cli.keys('Enter');
    const early = await cli.waitFor('┆ line1', 10_000);
    // The command is still running: its result has not gone back to the model yet.
    expect(server.requests).toHaveLength(1);
    expect(early).not.toContain('line3');
    const later = await cli.waitFor('┆ line2', 10_000);
    expect(server.requests).toHaveLength(1);
    expect(later).toContain('┆ line1');
    const done = await cli.waitFor('counted', 15_000);
    expect(server.requests).toHaveLength(2);
    // The live tail is gone; the final card shows the output once.
    expect(done).not.toContain('┆ line');
    expect(done.match(/line3/g)).toHaveLength(1);
    // NO_COLOR: the live tail drew no colour (only cursor movement and erasing).
    const raw = await readFile(cli.rawLog, 'utf8');
    expect(raw).toMatch(/┆ line1/);
    const liveStretch = raw.slice(raw.indexOf('┆ line1'), raw.lastIndexOf('┆ line'));
    expect(liveStretch).not.toMatch(/\u001b\[[0-9;]*m/);
    await cli.keys('C-d');
  }, 60_000);

  it('no live output is printed into a pending approval prompt; it shows again once answered', async () => {
    const dirs = await tempRoot('codeagent-live-');
    const loop = 'for i in 1 2 3 4 5 6 7 8 9 10; do echo tick$i; sleep 0.5; done';
    const server = await startOpenAIServer({
      replies: [
        {
          tools: [
            { name: 'Bash', args: { command: loop } },
            { name: 'Bash', args: { command: 'ls' } },
          ],
        },
        { text: 'both ran' },
      ],
    });
    servers.push(server);
    const cli = await start(dirs, server, [], { NO_COLOR: '1' });
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('go');
    await cli.keys('Enter');
    await cli.waitFor('Run for i in', 10_000);
    await cli.keys('y');
    // The loop runs; the parallel `ls` asks next.
    await cli.waitFor('Run ls?', 10_000);
    await new Promise((r) => setTimeout(r, 1500));
    const screen = await cli.screen();
    const prompt = screen.lastIndexOf('Run ls?');
    // The loop printed ticks meanwhile; none of them landed on or after the pending prompt.
    expect(screen.slice(prompt)).not.toMatch(/tick\d/);
    await cli.keys('y');
    // Answered: the tail of the still running loop is drawn again.
    await cli.waitFor(/┆ tick\d/, 5_000);
    await cli.waitFor('both ran', 15_000);
    const end = await cli.screen();
    expect(end).toContain('tick10');
    expect(end).not.toContain('┆ tick');
    await cli.keys('C-d');
  }, 60_000);

  it('an approved call that stays silent shows what runs at once (the spinner names it), then its live output', async () => {
    const dirs = await tempRoot('codeagent-live-');
    // A model's escape in the command: the spinner line shows it as text, as the card does.
    const command = 'sleep 3; echo done; sleep 2 # \u001b[8m';
    const shown = 'sleep 3; echo done; sleep 2 # <ESC>[8m';
    const server = await startOpenAIServer({
      replies: [{ tools: [{ name: 'Bash', args: { command } }] }, { text: 'it ran' }],
    });
    servers.push(server);
    const cli = await start(dirs, server, [], { NO_COLOR: '1' });
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('go');
    await cli.keys('Enter');
    await cli.waitFor(`Run ${shown}?`, 10_000);
    await cli.keys('y');
    // Before the command prints anything: the answer, then a running line naming the command under it.
    const running = await cli.waitFor(
      /allowed once\n\S running sleep 3; echo done; sleep 2 # <ESC>\[8m/u,
      2_500,
    );
    expect(running).not.toContain('done\n');
    expect(server.requests).toHaveLength(1);
    // Its output, live under the card, while it still runs.
    const live = await cli.waitFor(/┆ done\n\S running sleep 3/u, 10_000);
    expect(live).toContain(`running ${shown}`);
    expect(server.requests).toHaveLength(1);
    await cli.waitFor('it ran', 15_000);
    expect((await cli.raw()).toString('utf8')).not.toContain('\u001b[8m');
    await cli.keys('C-d');
  }, 60_000);
});
