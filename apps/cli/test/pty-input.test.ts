import { mkdir, readFile, writeFile } from 'node:fs/promises';
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

/** The text of the last user message the server received. */
function lastUser(server: OpenAIServer): string {
  const messages = server.requests.at(-1)?.body.messages ?? [];
  const user = messages.filter((m) => m.role === 'user').at(-1);
  return typeof user?.content === 'string' ? user.content : JSON.stringify(user?.content);
}

async function start(
  dirs: { root: string; work: string; data: string; home: string },
  server: OpenAIServer,
  extra: Record<string, string> = {},
) {
  const session = await TmuxSession.start({
    command: ['node', BIN, '--cwd', dirs.work, '--data-dir', dirs.data],
    cwd: dirs.work,
    env: {
      TERM: 'xterm-256color',
      HOME: dirs.home,
      NO_COLOR: '1',
      CODEAGENT_BASE_URL: server.baseURL,
      CODEAGENT_MODEL: 'm',
      ...extra,
    },
    logDir: dirs.root,
  });
  sessions.push(session);
  await session.waitFor(/session \S+ · \/help/);
  return session;
}

describe('input in a pseudo-terminal', () => {
  it('a pasted block keeps every line; a trailing backslash, Alt+Enter or CSI-u Shift+Enter continues; @path attaches the file', async () => {
    const dirs = await tempRoot();
    await writeFile(join(dirs.work, 'notes.md'), 'alpha note\n');
    const server = await startOpenAIServer({ replies: (_r, i) => ({ text: `reply ${i}` }) });
    servers.push(server);
    const cli = await start(dirs, server);
    // A bracketed paste of three lines stays one prompt; Enter sends it.
    await cli.paste('first line\nsecond line\nthird line');
    await cli.waitFor('third line');
    expect(server.requests).toHaveLength(0);
    await cli.keys('Enter');
    await cli.waitFor('reply 0');
    expect(lastUser(server)).toBe('first line\nsecond line\nthird line');
    expect(server.requests).toHaveLength(1);
    await cli.type('one \\');
    await cli.keys('Enter');
    await cli.waitFor('… ');
    await cli.type('two');
    await cli.keys('Enter');
    await cli.waitFor('reply 1');
    expect(lastUser(server)).toBe('one \ntwo');
    // Alt+Enter, and Shift+Enter as CSI-u terminals send it, start another line too.
    await cli.type('alpha');
    await cli.keys('M-Enter');
    await cli.type('beta');
    await cli.keys('-H', '1b', '5b', '31', '33', '3b', '32', '75');
    await cli.type('gamma');
    await cli.keys('Enter');
    await cli.waitFor('reply 2');
    expect(lastUser(server)).toBe('alpha\nbeta\ngamma');
    await cli.type('summarise @notes.md please');
    await cli.keys('Enter');
    await cli.waitFor('attached notes.md (11 B)');
    await cli.waitFor('reply 3');
    expect(lastUser(server)).toContain('<attached_file path="notes.md">\nalpha note\n\n</attached_file>');
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  }, 60_000);

  it('history persists across runs; Tab completes commands and paths; text typed during a turn is queued', async () => {
    const dirs = await tempRoot();
    await mkdir(join(dirs.work, 'src'));
    await writeFile(join(dirs.work, 'src', 'parser.ts'), 'export {};\n');
    const server = await startOpenAIServer({
      replies: (_r, i) =>
        i === 0
          ? { text: ['slow ', ...Array.from({ length: 12 }, () => 'answer '), 'here'], delayMs: 500 }
          : { text: `reply ${i}` },
    });
    servers.push(server);
    const first = await start(dirs, server);
    await first.type('a long question');
    await first.keys('Enter');
    await first.waitFor('slow');
    await first.type('typed while busy');
    await first.keys('Enter');
    // The note waits for the model's line to end: it never lands inside the answer.
    const noted = await first.waitFor('queued: typed while busy');
    expect(noted).toMatch(/^queued: typed while busy$/m);
    expect(noted).toMatch(/answer here\n/);
    await first.waitFor('(queued)');
    await first.waitFor('reply 1');
    expect(lastUser(server)).toBe('typed while busy');
    // Tab: a slash command, then a path.
    await first.type('/co');
    await first.keys('Tab');
    await first.waitFor(/› \/compact|› \/co\s/);
    await first.keys('C-u');
    await first.type('/cos');
    await first.keys('Tab');
    await first.waitFor('› /cost');
    await first.keys('C-u');
    await first.type('look at @src/pa');
    await first.keys('Tab');
    await first.waitFor('look at @src/parser.ts');
    await first.keys('C-u');
    await first.type('/exit');
    await first.keys('Enter');
    expect(await first.waitForExit()).toBe(0);
    const history = await readFile(join(dirs.data, 'history'), 'utf8');
    expect(history).toContain('"a long question"');

    const second = await start(dirs, server);
    await second.keys('Up');
    await second.waitFor('› /exit');
    await second.keys('Up');
    await second.waitFor('› typed while busy');
    await second.keys('C-u');
    // Ctrl+R searches the history from the newest entry back; Enter sends the match.
    await second.keys('C-r');
    await second.type('long');
    await second.waitFor("(reverse-i-search)'long': a long question");
    const before = server.requests.length;
    await second.keys('Enter');
    await second.waitFor(`reply ${before}`);
    expect(lastUser(server)).toBe('a long question');
    await second.keys('C-r');
    await second.type('zzz-nothing');
    await second.waitFor("(failing reverse-i-search)'zzz-nothing'");
    await second.keys('C-g');
    await second.type('/exit');
    await second.keys('Enter');
    expect(await second.waitForExit()).toBe(0);
  }, 60_000);

  it('the spinner names the running tool and writes no colour under NO_COLOR; the second Ctrl+C exits', async () => {
    const dirs = await tempRoot();
    const server = await startOpenAIServer({
      replies: (_r, i) =>
        i === 0
          ? {
              tools: [
                { name: 'Bash', args: { command: 'sleep 2; echo done-sleeping', description: 'Wait a bit' } },
              ],
            }
          : { text: ['story ', ...Array.from({ length: 60 }, () => 'and on ')], delayMs: 500 },
    });
    servers.push(server);
    const cli = await start(dirs, server);
    await cli.type('/mode bypass');
    await cli.keys('Enter');
    await cli.waitFor('mode: bypass');
    await cli.type('sleep please');
    await cli.keys('Enter');
    await cli.waitFor('[exit 0]');
    // The spinner line (redrawn in place while the command ran) named the tool's card.
    expect((await cli.raw()).toString('utf8')).toMatch(
      /\r\u001b\[2K. running sleep 2; echo done-sleeping \d/u,
    );
    await cli.waitFor('story');
    await cli.keys('C-c');
    await cli.waitFor('interrupted');
    await cli.waitFor(/── .*interrupted/);
    await cli.keys('C-c');
    const status = await cli.waitForExit();
    expect([0, 130]).toContain(status);
    const raw = (await cli.raw()).toString('utf8');
    // NO_COLOR: the spinner (and everything else) writes no SGR colour at all.
    expect(raw).not.toMatch(/\u001b\[[0-9;]*m/);
  }, 60_000);

  it('a Ctrl+C that arrives as SIGINT between prompts arms, and the second one exits cleanly', async () => {
    const dirs = await tempRoot();
    const server = await startOpenAIServer({ replies: [{ text: 'hi' }] });
    servers.push(server);
    const cli = await start(dirs, server);
    const pid = await cli.programPid();
    expect(pid).not.toBeNull();
    process.kill(pid ?? 0, 'SIGINT');
    await cli.waitFor('(press Ctrl+C again to exit)');
    process.kill(pid ?? 0, 'SIGINT');
    expect(await cli.waitForExit()).toBe(0);
  }, 60_000);
});
