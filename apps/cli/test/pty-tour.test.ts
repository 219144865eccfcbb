import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, type OpenAIServerOptions, startOpenAIServer } from './chat-server.js';
import { BIN, tempRoot } from './run.js';
import { TmuxSession } from './tmux.js';

// The issue-12 items that had no pseudo-terminal test of their own: the demo, the system prompt, context
// windows, skills and the exit statuses of `-p`, each on the built binary against a loopback server.

const sessions: TmuxSession[] = [];
const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(options: OpenAIServerOptions): Promise<OpenAIServer> {
  const s = await startOpenAIServer(options);
  servers.push(s);
  return s;
}

async function start(
  dirs: { root: string; home: string },
  cwd: string,
  command: readonly string[],
  env: Record<string, string> = {},
): Promise<TmuxSession> {
  const session = await TmuxSession.start({
    command,
    cwd,
    env: { TERM: 'xterm-256color', HOME: dirs.home, NO_COLOR: '1', ...env },
    logDir: dirs.root,
    width: 120,
    height: 50,
  });
  sessions.push(session);
  return session;
}

const systemText = (s: OpenAIServer, i = 0): string =>
  JSON.stringify((s.requests[i]?.body.messages ?? []).filter((m) => m.role === 'system'));

describe('issue-12 items in a pseudo-terminal', () => {
  it('the demo runs on a temporary copy, and its summary reads the tool results (a denial is reported, not claimed)', async () => {
    const dirs = await tempRoot();
    await writeFile(join(dirs.work, 'mine.txt'), 'my file\n');
    const demo = await start(dirs, dirs.work, ['node', BIN, 'demo', '--data-dir', dirs.data]);
    expect(await demo.waitForExit(60_000)).toBe(0);
    const screen = await demo.screen();
    expect(screen).toContain('Permission denied for Bash');
    expect(screen).toContain('The permission gate denied `rm -rf build`, so I left the build folder alone.');
    expect(screen).toMatch(/\d+ tool results, \d+ failed, 1 denied by the permission gate/);
    expect(screen).toMatch(/demo workspace left at \S+/);
    // Nothing in the user's folder changed.
    expect(await readdir(dirs.work)).toEqual(['mine.txt']);
  }, 90_000);

  it('sends the system prompt with the instruction files from the repository root down; skills say so on screen and /skills reports the skipped one', async () => {
    const dirs = await tempRoot();
    const repo = join(dirs.work, 'repo');
    const sub = join(repo, 'pkg');
    await mkdir(sub, { recursive: true });
    execFileSync('git', ['init', '-q'], { cwd: repo });
    await writeFile(join(repo, 'AGENTS.md'), 'Always run pnpm test before answering.\n');
    await writeFile(join(sub, 'CLAUDE.md'), 'This package is written in Rust style.\n');
    for (const [name, body] of [
      [
        'review',
        '---\nname: review\ndescription: Review a file carefully\n---\nReview $ARGUMENTS line by line.\n',
      ],
      ['Bad_Name', '---\nname: Bad_Name\ndescription: broken\n---\nx\n'],
    ] as const) {
      await mkdir(join(repo, '.codeagent', 'skills', name), { recursive: true });
      await writeFile(join(repo, '.codeagent', 'skills', name, 'SKILL.md'), body);
    }
    const s = await server({ replies: (_r, i) => ({ text: `reply ${i}` }) });
    const cli = await start(dirs, sub, ['node', BIN, '--data-dir', dirs.data], {
      CODEAGENT_BASE_URL: s.baseURL,
      CODEAGENT_MODEL: 'gpt-4o',
    });
    await cli.waitFor(/system prompt \d+\.\d kB · instructions: AGENTS\.md, pkg\/CLAUDE\.md/);
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('hello');
    await cli.keys('Enter');
    await cli.waitFor('reply 0');
    const system = systemText(s);
    expect(system).toContain('You are codeagent');
    expect(system).toContain(`Working directory: ${sub}`);
    expect(system).toContain('Always run pnpm test before answering.');
    expect(system).toContain('This package is written in Rust style.');
    expect(system.indexOf('Always run pnpm')).toBeLessThan(system.indexOf('Rust style'));

    await cli.type('/skills');
    await cli.keys('Enter');
    await cli.waitFor(/\/review +Review a file carefully/);
    await cli.waitFor(/skipped: \S+Bad_Name\/SKILL\.md \(name\)/);
    // Tab completes a skill name like a command.
    await cli.type('/rev');
    await cli.keys('Tab');
    await cli.waitFor(/› \/review$/m);
    await cli.type(' src/a.ts');
    await cli.keys('Enter');
    await cli.waitFor('running skill review with "src/a.ts"');
    await cli.waitFor('reply 1');
    expect(JSON.stringify(s.requests[1]?.body.messages)).toContain('Review src/a.ts line by line.');
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  }, 90_000);

  it('context windows: an unknown model is "assumed" and never alarms; the server window applies and its thresholds warn', async () => {
    const dirs = await tempRoot();
    const unknown = await server({ replies: [{ text: 'small talk', usage: { input: 4000, output: 10 } }] });
    const a = await start(dirs, dirs.work, ['node', BIN, '--data-dir', dirs.data], {
      CODEAGENT_BASE_URL: unknown.baseURL,
      CODEAGENT_MODEL: 'my-local-model',
    });
    await a.waitFor('window 32.8k (assumed: unknown model; set --context-window)');
    await a.waitFor(/session \S+ · \/help/);
    await a.type('hi');
    await a.keys('Enter');
    const first = await a.waitFor(/── [\d.]+k \/ 32\.8k\? tokens \(\d+% left\)/);
    expect(first).not.toMatch(/filling up|compact soon|context full|window unknown/);
    await a.type('/exit');
    await a.keys('Enter');
    expect(await a.waitForExit()).toBe(0);

    const listed = await server({
      replies: [{ text: 'long talk', usage: { input: 7600, output: 10 } }],
      models: [{ id: 'served-model', max_model_len: 8192 }],
    });
    const b = await start(dirs, dirs.work, ['node', BIN, '--data-dir', dirs.data], {
      CODEAGENT_BASE_URL: listed.baseURL,
      CODEAGENT_MODEL: 'served-model',
    });
    await b.waitFor('window 8.2k from the server');
    await b.waitFor(/session \S+ · \/help/);
    await b.type('hi');
    await b.keys('Enter');
    await b.waitFor(
      /── [\d.]+k \/ 8\.2k tokens \(\d+% left\) — (context filling up|compact soon|context full)/,
    );
    await b.type('/exit');
    await b.keys('Enter');
    expect(await b.waitForExit()).toBe(0);
  }, 90_000);

  it('-p exit statuses match --help: 0 completed, 3 denied (eight denials too), 1 provider error, 2 usage', async () => {
    const dirs = await tempRoot();
    const s = await server({
      replies: (request) => {
        const user = JSON.stringify(request.body.messages?.filter((m) => m.role === 'user').at(-1));
        const tools = (request.body.messages ?? []).some((m) => m.role === 'tool');
        if (user.includes('fail')) return { status: 400, message: 'the model refused the request' };
        if (user.includes('deny') && !tools) {
          return {
            tools: Array.from({ length: 8 }, (_, i) => ({
              name: 'Write',
              args: { file_path: `f${i}.txt`, content: 'x' },
            })),
          };
        }
        return { text: 'fine' };
      },
    });
    const run = (prompt: string, extra = '') =>
      `node ${BIN} -p '${prompt}' --data-dir ${dirs.data} ${extra} < /dev/null > /dev/null 2>&1; echo "${prompt}=$?"`;
    const script = [run('ok'), run('deny'), run('fail'), run('ok', '--mode nonsense')].join('; ');
    const sh = await start(dirs, dirs.work, ['bash', '-c', script], {
      CODEAGENT_BASE_URL: s.baseURL,
      CODEAGENT_MODEL: 'gpt-4o',
    });
    expect(await sh.waitForExit(60_000)).toBe(0);
    const screen = await sh.screen();
    expect(screen.match(/^\w+=\d+$/gmu)).toEqual(['ok=0', 'deny=3', 'fail=1', 'ok=2']);
    for (let i = 0; i < 8; i++) expect(existsSync(join(dirs.work, `f${i}.txt`))).toBe(false);
  }, 90_000);

  it('a REPL killed mid-turn loses at most the step in flight: --continue shows and sends the completed steps', async () => {
    const dirs = await tempRoot();
    await writeFile(join(dirs.work, 'facts.txt'), 'the sky is green here\n');
    const s = await server({
      replies: (request, i) => {
        if (i === 0) return { tools: [{ name: 'Read', args: { file_path: 'facts.txt' } }] };
        if (i === 1) return { stallAfter: 'Thinking about' }; // the step in flight when the process dies
        return { text: `continued with ${request.body.messages?.length} messages` };
      },
    });
    const env = { CODEAGENT_BASE_URL: s.baseURL, CODEAGENT_MODEL: 'gpt-4o' };
    const first = await start(dirs, dirs.work, ['node', BIN, '--data-dir', dirs.data], env);
    await first.waitFor(/session \S+ · \/help/);
    await first.type('read facts.txt');
    await first.keys('Enter');
    await first.waitFor('Thinking');
    const pid = await first.programPid();
    expect(pid).not.toBeNull();
    process.kill(pid ?? 0, 'SIGKILL');
    expect(await first.waitForExit()).toBe(137);

    const again = await start(dirs, dirs.work, ['node', BIN, '--continue', '--data-dir', dirs.data], env);
    const screen = await again.waitFor('── resumed ──');
    expect(screen).toContain('› read facts.txt');
    expect(screen).toContain('Read facts.txt');
    await again.waitFor(/session \S+ · \/help/);
    await again.type('what did it say?');
    await again.keys('Enter');
    await again.waitFor(/continued with \d+ messages/);
    const sent = JSON.stringify(s.requests.at(-1)?.body.messages);
    expect(sent).toContain('read facts.txt');
    expect(sent).toContain('the sky is green here');
    expect(sent).not.toContain('Thinking about');
    await again.type('/exit');
    await again.keys('Enter');
    expect(await again.waitForExit()).toBe(0);
  }, 90_000);

  it('--system-prompt replaces the role and --append-system-prompt adds to it; the environment stays', async () => {
    const dirs = await tempRoot();
    const s = await server({ replies: [{ text: 'ok' }] });
    const sh = await start(
      dirs,
      dirs.work,
      [
        'bash',
        '-c',
        `node ${BIN} -p hi --system-prompt 'You are a terse test bot.' --append-system-prompt 'Answer in one word.' --data-dir ${dirs.data} > /dev/null`,
      ],
      { CODEAGENT_BASE_URL: s.baseURL, CODEAGENT_MODEL: 'gpt-4o' },
    );
    expect(await sh.waitForExit()).toBe(0);
    const system = systemText(s);
    expect(system).toContain('You are a terse test bot.');
    expect(system).not.toContain('You are codeagent');
    expect(system).toContain(`Working directory: ${dirs.work}`);
    expect(system.indexOf('Answer in one word.')).toBeGreaterThan(system.indexOf('Working directory'));
  }, 60_000);

  it('a provider that stalls before answering is retried after the stall timeout, and the turn goes on', async () => {
    const dirs = await tempRoot();
    const s = await server({
      replies: (_r, i) => (i === 0 ? { hang: true } : { text: 'answer after a retry' }),
    });
    const cli = await start(
      dirs,
      dirs.work,
      ['node', BIN, '--stall-timeout', '0.5', '--data-dir', dirs.data],
      {
        CODEAGENT_BASE_URL: s.baseURL,
        CODEAGENT_MODEL: 'gpt-4o',
      },
    );
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('hello?');
    await cli.keys('Enter');
    const screen = await cli.waitFor(/── .*completed/);
    expect(screen).toContain('answer after a retry');
    expect(screen).toMatch(/! .*stall timeout/);
    expect(s.requests).toHaveLength(2);
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  }, 60_000);

  it('Esc interrupts a turn (the spinner says so) and the session goes on', async () => {
    const dirs = await tempRoot();
    const s = await server({
      replies: (_r, i) =>
        i === 0
          ? { tools: [{ name: 'Bash', args: { command: 'sleep 1.5' } }] }
          : i === 1
            ? { text: ['story ', ...Array.from({ length: 80 }, () => 'and on ')], delayMs: 200 }
            : { text: 'second answer' },
    });
    const cli = await start(dirs, dirs.work, ['node', BIN, '--mode', 'bypass', '--data-dir', dirs.data], {
      CODEAGENT_BASE_URL: s.baseURL,
      CODEAGENT_MODEL: 'gpt-4o',
    });
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('tell me a story');
    await cli.keys('Enter');
    await cli.waitFor('story and on');
    expect((await cli.raw()).toString('utf8')).toMatch(/running sleep 1\.5 \d+\.\ds · esc to interrupt/u);
    await cli.keys('Escape');
    await cli.waitFor('interrupted (Esc)');
    await cli.waitFor(/── .*interrupted/);
    await cli.type('go on');
    await cli.keys('Enter');
    await cli.waitFor('second answer');
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  }, 60_000);
});
