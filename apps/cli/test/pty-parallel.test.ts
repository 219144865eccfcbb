import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
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

/** The last line of the screen that is not blank, without trailing spaces. */
function lastLine(screen: string): string {
  return (
    screen
      .split('\n')
      .map((l) => l.trimEnd())
      .filter((l) => l !== '')
      .at(-1) ?? ''
  );
}

/** Waits until the question is the last line on screen (nothing printed after or into it). */
async function waitForQuestion(cli: TmuxSession, question: string): Promise<string> {
  const deadline = Date.now() + 20_000;
  let screen = '';
  while (Date.now() < deadline) {
    screen = await cli.screen();
    const last = lastLine(screen);
    if (last.startsWith(question)) {
      // Give a parallel call's result, a card or the spinner the time to (wrongly) land after the question.
      await new Promise((r) => setTimeout(r, 400));
      screen = await cli.screen();
      expect(lastLine(screen)).toMatch(/\[n\] deny$/u);
      expect(lastLine(screen).startsWith(question)).toBe(true);
      return screen;
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`"${question}" never became the last line; screen was:\n${screen}`);
}

describe('parallel tool calls in a pseudo-terminal', () => {
  it('ask one at a time in call order, each question last and naming its card; answers apply to their call', async () => {
    const dirs = await tempRoot();
    const { root, home, work, data } = dirs;
    await writeFile(join(work, 'notes.txt'), 'remember the milk\n');
    const server = await startOpenAIServer({
      replies: [
        { tools: [{ name: 'Bash', args: { command: 'sleep 30', run_in_background: true } }] },
        {
          tools: [
            { name: 'job_kill', args: { job_id: 'job-1' } },
            // Allowed without asking: its card and result arrive while the first question is pending.
            { name: 'Read', args: { file_path: 'notes.txt' } },
            { name: 'Write', args: { file_path: 'two.txt', content: 'two\n' } },
            { name: 'Bash', args: { command: 'echo three > three.txt' } },
          ],
        },
        { text: 'All four calls answered.' },
      ],
    });
    servers.push(server);
    const cli = await TmuxSession.start({
      command: ['node', BIN, '--cwd', work, '--data-dir', data],
      cwd: work,
      env: {
        TERM: 'xterm-256color',
        HOME: home,
        NO_COLOR: '1',
        CODEAGENT_BASE_URL: server.baseURL,
        CODEAGENT_MODEL: 'gpt-4o',
      },
      logDir: root,
      width: 120,
      height: 50,
    });
    sessions.push(cli);
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('start a job, then tidy up');
    await cli.keys('Enter');

    await waitForQuestion(cli, 'Run sleep 30 in the background?');
    await cli.type('y');

    // The card says "Stop job-1": so does the question (not "Allow job_kill?").
    let screen = await waitForQuestion(cli, 'Allow Stop job-1?');
    expect(screen).not.toContain('Allow job_kill');
    const afterFirst = screen.lastIndexOf('Allow Stop job-1?');
    await cli.type('y');

    screen = await waitForQuestion(cli, 'Allow Write two.txt?');
    await cli.type('n');

    await waitForQuestion(cli, 'Run echo three > three.txt?');
    await cli.type('y');
    screen = await cli.waitFor('All four calls answered.');
    await cli.waitFor(/── .*completed/);
    screen = await cli.screen();
    // The Read ran while questions were pending: its result was printed after an answer, labelled.
    expect(screen.indexOf('↳ Read notes.txt', afterFirst)).toBeGreaterThan(afterFirst);

    // Each question once, in call order, followed only by its answer (beside the options, or under them when it
    // would not fit the terminal's width).
    const screenLines = screen.split('\n').map((l) => l.trimEnd());
    const questions = screenLines.flatMap((l, i) =>
      !l.includes('[n] deny') ? [] : [/deny {2}\S/u.test(l) ? l : `${l}  ${screenLines[i + 1] ?? ''}`],
    );
    expect(questions.map((l) => /^(.*?\?) /u.exec(l)?.[1])).toEqual([
      'Run sleep 30 in the background?',
      'Allow Stop job-1?',
      'Allow Write two.txt?',
      'Run echo three > three.txt?',
    ]);
    expect(questions.map((l) => /deny {2}(.*)$/u.exec(l)?.[1])).toEqual([
      'allowed once',
      'allowed once',
      'denied',
      'allowed once',
    ]);
    // Every card printed once: the prompt draws a card that will ask, so no card is repeated.
    expect(screen.match(/^\$ echo three > three\.txt$/gmu)).toHaveLength(1);
    expect(screen.match(/● Stop job-1/gu)).toHaveLength(1);

    // The answers applied to their own calls.
    expect(existsSync(join(work, 'two.txt'))).toBe(false);
    expect(await readFile(join(work, 'three.txt'), 'utf8')).toBe('three\n');
    const tools = (server.requests[2]?.body.messages ?? []).filter(
      (m) => m.role === 'tool',
    ) as unknown as Array<{
      tool_call_id: string;
      content: unknown;
    }>;
    const byCall = new Map(tools.map((m) => [m.tool_call_id, JSON.stringify(m.content)]));
    expect(byCall.get('call_1_0')).not.toContain('Permission denied');
    expect(byCall.get('call_1_1')).toContain('remember the milk');
    expect(byCall.get('call_1_2')).toContain('Permission denied for Write');
    expect(byCall.get('call_1_3')).not.toContain('Permission denied');

    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  }, 90_000);

  it("a call the first answer's grant covers runs unasked, its card drawn once above its output", async () => {
    const { root, home, work, data } = await tempRoot();
    await writeFile(join(work, 'marker.txt'), 'x\n');
    const server = await startOpenAIServer({
      replies: [
        {
          tools: [
            { name: 'Bash', args: { command: 'ls' } },
            { name: 'Bash', args: { command: 'ls -a' } },
          ],
        },
        { text: 'Listed twice.' },
      ],
    });
    servers.push(server);
    const cli = await TmuxSession.start({
      command: ['node', BIN, '--cwd', work, '--data-dir', data],
      cwd: work,
      env: {
        TERM: 'xterm-256color',
        HOME: home,
        NO_COLOR: '1',
        CODEAGENT_BASE_URL: server.baseURL,
        CODEAGENT_MODEL: 'gpt-4o',
      },
      logDir: root,
      width: 120,
      height: 50,
    });
    sessions.push(cli);
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('list the files');
    await cli.keys('Enter');
    await waitForQuestion(cli, 'Run ls?');
    await cli.type('a');
    await cli.waitFor('Listed twice.');
    const screen = await cli.waitFor(/── .*completed/);
    expect(screen.match(/\[n\] deny/gu)).toHaveLength(1);
    expect(screen).not.toContain('Run ls -a?');
    expect(screen.match(/^\$ ls -a$/gmu)).toHaveLength(1);
    // Its card comes before its own output (`.` is listed only by `ls -a`).
    const card = screen.indexOf('$ ls -a');
    expect(card).toBeGreaterThan(screen.indexOf('allowed for this session'));
    expect(screen.indexOf('│ .', card)).toBeGreaterThan(card);
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  }, 60_000);
});
