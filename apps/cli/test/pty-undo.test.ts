import { execFileSync } from 'node:child_process';
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

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.invalid', ...args], {
    cwd,
    encoding: 'utf8',
  });

describe('/undo in a pseudo-terminal', () => {
  it('restores every file the last turn changed, removes the files it created, and leaves git alone', async () => {
    const { root, home, work, data } = await tempRoot();
    git(work, 'init', '-q', '-b', 'main');
    await writeFile(join(work, 'a.txt'), 'original a\n');
    git(work, 'add', 'a.txt');
    git(work, 'commit', '-q', '-m', 'base');
    await writeFile(join(work, 'a.txt'), 'user edit, not committed\n'); // the user's own uncommitted work
    const statusBefore = git(work, 'status', '--porcelain');
    const headBefore = git(work, 'rev-parse', 'HEAD');

    const server = await startOpenAIServer({
      replies: [
        {
          tools: [
            { name: 'Edit', args: { file_path: 'a.txt', old_string: 'user edit', new_string: 'MODEL EDIT' } },
            { name: 'Write', args: { file_path: 'src/new.ts', content: 'export {};\n' } },
          ],
        },
        {
          tools: [
            { name: 'Edit', args: { file_path: 'a.txt', old_string: 'MODEL EDIT', new_string: 'SECOND' } },
          ],
        },
        { text: 'Changed a.txt twice and created src/new.ts.' },
        { text: 'Understood.' },
      ],
    });
    servers.push(server);
    const session = await TmuxSession.start({
      command: ['node', BIN, '--mode', 'accept_edits', '--cwd', work, '--data-dir', data],
      cwd: work,
      env: {
        TERM: 'xterm-256color',
        HOME: home,
        NO_COLOR: '1',
        CODEAGENT_BASE_URL: server.baseURL,
        CODEAGENT_MODEL: 'm',
      },
      logDir: root,
    });
    sessions.push(session);
    await session.waitFor(/session \S+ · \/help/);
    await session.type('/undo');
    await session.keys('Enter');
    await session.waitFor('nothing to undo');
    await session.type('edit the files');
    await session.keys('Enter');
    await session.waitFor('Changed a.txt twice and created src/new.ts.');
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('SECOND, not committed\n');
    expect(existsSync(join(work, 'src/new.ts'))).toBe(true);

    await session.type('/undo');
    await session.keys('Enter');
    const screen = await session.waitFor('more turn(s) can be undone');
    expect(screen).toContain('undid the file changes of "edit the files":');
    expect(screen).toContain('restored a.txt');
    expect(screen).toContain('removed src/new.ts (created by that turn)');
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('user edit, not committed\n');
    expect(existsSync(join(work, 'src/new.ts'))).toBe(false);
    expect(git(work, 'status', '--porcelain')).toBe(statusBefore);
    expect(git(work, 'rev-parse', 'HEAD')).toBe(headBefore);

    // The model is told on the next turn.
    await session.type('ok');
    await session.keys('Enter');
    await session.waitFor('Understood.');
    const lastUser = server.requests
      .at(-1)
      ?.body.messages?.filter((m) => m.role === 'user')
      .at(-1);
    expect(JSON.stringify(lastUser?.content)).toContain('[The user ran /undo');
    await session.type('/exit');
    await session.keys('Enter');
    expect(await session.waitForExit()).toBe(0);
  }, 60_000);
});
