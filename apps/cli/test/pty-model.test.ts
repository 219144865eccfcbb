import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
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

describe('the built binary in a pseudo-terminal against a loopback OpenAI-compatible server', () => {
  it('-p piped: only the answer reaches the pipe, the cards and footer show on the terminal (stderr)', async () => {
    const { root, home, work, data } = await tempRoot();
    await writeFile(join(work, 'notes.txt'), 'remember the milk\n');
    const server = await startOpenAIServer({
      replies: [
        { tools: [{ name: 'Read', args: { file_path: 'notes.txt' } }] },
        { text: 'It says: remember the milk.' },
      ],
    });
    servers.push(server);
    const out = join(root, 'answer.txt');
    const session = await TmuxSession.start({
      command: [
        'bash',
        '-c',
        `node ${BIN} -p 'what does notes.txt say?' --cwd ${work} --data-dir ${data} > ${out}`,
      ],
      cwd: work,
      env: {
        TERM: 'xterm-256color',
        HOME: home,
        CODEAGENT_BASE_URL: server.baseURL,
        CODEAGENT_MODEL: 'gpt-4o',
      },
      logDir: root,
    });
    sessions.push(session);
    expect(await session.waitForExit()).toBe(0);
    const screen = await session.screen();
    expect(screen).toContain('Read notes.txt');
    expect(screen).toMatch(/── .*completed \(stop\)/);
    const { readFile } = await import('node:fs/promises');
    expect(await readFile(out, 'utf8')).toBe('It says: remember the milk.\n');
  }, 60_000);

  it('/model shows and switches the model mid-session (the conversation carries over), /cost adds up', async () => {
    const { root, home, work, data } = await tempRoot();
    const server = await startOpenAIServer({
      replies: (request) => ({
        text: `answer from ${request.body.model}`,
        usage: { input: 1000, output: 100 },
      }),
    });
    servers.push(server);
    await writeFile(
      join(data, 'config.json'),
      JSON.stringify({
        provider: 'openai-compatible',
        baseURL: server.baseURL,
        model: 'gpt-4o',
        models: { cheap: { model: 'gpt-4o-mini' }, local: { model: 'qwen-local', contextWindow: 16384 } },
      }),
    );
    const session = await TmuxSession.start({
      command: ['node', BIN, '--cwd', work, '--data-dir', data],
      cwd: work,
      env: { TERM: 'xterm-256color', HOME: home, NO_COLOR: '1' },
      logDir: root,
    });
    sessions.push(session);
    await session.waitFor(/session \S+ · \/help/);
    await session.type('first question');
    await session.keys('Enter');
    await session.waitFor('answer from gpt-4o');
    await session.waitFor(/\$0\.0035 · completed/);
    await session.type('/model');
    await session.keys('Enter');
    await session.waitFor(
      'model gpt-4o (openai-compatible) · window 128.0k (table) · $2.5/$10 per M tokens in/out',
    );
    await session.waitFor('config models: cheap, local');
    await session.type('/model local');
    await session.keys('Enter');
    await session.waitFor(
      'model qwen-local (openai-compatible) · window 16.4k (config) · the conversation carries over',
    );
    await session.type('second question');
    await session.keys('Enter');
    await session.waitFor('answer from qwen-local');
    // The switched model received the whole conversation.
    const last = server.requests.at(-1)?.body.messages ?? [];
    expect(JSON.stringify(last)).toContain('first question');
    expect(JSON.stringify(last)).toContain('answer from gpt-4o');
    await session.type('/cost');
    await session.keys('Enter');
    await session.waitFor(
      /session: 2 turn\(s\) · in 2\.0k · out 200 tokens · \$0\.0035 \(some turns had no price\)/,
    );
    await session.type('/exit');
    await session.keys('Enter');
    expect(await session.waitForExit()).toBe(0);
  }, 60_000);

  it('/model keeps the "always" grants, the mode, the conversation and the undo checkpoints', async () => {
    const { root, home, work, data } = await tempRoot();
    const server = await startOpenAIServer({
      replies: (request, i) => {
        const model = request.body.model;
        if (i === 0) return { tools: [{ name: 'Bash', args: { command: 'ls' } }] };
        if (i === 1) return { tools: [{ name: 'Write', args: { file_path: 'notes.txt', content: 'hi\n' } }] };
        if (i === 2) return { text: `first done by ${model}` };
        if (i === 3) return { tools: [{ name: 'Bash', args: { command: 'ls -a' } }] };
        return { text: `second done by ${model}` };
      },
    });
    servers.push(server);
    await writeFile(
      join(data, 'config.json'),
      JSON.stringify({
        provider: 'openai-compatible',
        baseURL: server.baseURL,
        model: 'gpt-4o',
        models: { local: { model: 'qwen-local', contextWindow: 16384 } },
      }),
    );
    const session = await TmuxSession.start({
      command: ['node', BIN, '--cwd', work, '--data-dir', data],
      cwd: work,
      env: { TERM: 'xterm-256color', HOME: home, NO_COLOR: '1' },
      logDir: root,
    });
    sessions.push(session);
    await session.waitFor(/session \S+ · \/help/);
    await session.type('look around and take a note');
    await session.keys('Enter');
    await session.waitFor('[a] always: Bash commands starting with `ls`');
    await session.type('a');
    await session.waitFor('Allow Write notes.txt?');
    await session.type('y');
    await session.waitFor('first done by gpt-4o');
    expect(existsSync(join(work, 'notes.txt'))).toBe(true);
    await session.type('/mode accept_edits');
    await session.keys('Enter');
    await session.waitFor('mode: accept_edits');

    await session.type('/model local');
    await session.keys('Enter');
    await session.waitFor('model qwen-local (openai-compatible)');
    await session.type('/mode');
    await session.keys('Enter');
    await session.waitFor(/mode: accept_edits\n(?![\s\S]*mode: default)/u);
    await session.type('/permissions');
    await session.keys('Enter');
    await session.waitFor('g1  Bash commands starting with `ls`');

    // `ls -a` is inside the grant made under the other model: it runs without asking.
    await session.type('again');
    await session.keys('Enter');
    const screen = await session.waitFor('second done by qwen-local');
    expect(screen).not.toContain('Run ls -a?');
    const last = JSON.stringify(server.requests.at(-1)?.body.messages ?? []);
    expect(last).toContain('look around and take a note');
    expect(last).toContain('first done by gpt-4o');

    // The checkpoint of the first turn survived the switch.
    await session.type('/undo');
    await session.keys('Enter');
    await session.waitFor('removed notes.txt (created by that turn)');
    expect(existsSync(join(work, 'notes.txt'))).toBe(false);
    await session.type('/exit');
    await session.keys('Enter');
    expect(await session.waitForExit()).toBe(0);
  }, 60_000);
});
