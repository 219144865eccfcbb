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

/** The screen's lines without trailing blanks, blank lines dropped. */
const lines = (screen: string) =>
  screen
    .split('\n')
    .map((l) => l.trimEnd())
    .filter((l) => l !== '');

describe('what "always" covers, in a pseudo-terminal', () => {
  it('names the exact job id for job_kill, the path for Edit, the command prefix for Bash; options break between them', async () => {
    const { root, home, work, data } = await tempRoot();
    await writeFile(join(work, 'a.txt'), 'one\n');
    const server = await startOpenAIServer({
      replies: [
        { tools: [{ name: 'Bash', args: { command: 'sleep 30', run_in_background: true } }] },
        { tools: [{ name: 'job_kill', args: { job_id: 'job-1' } }] },
        { tools: [{ name: 'Edit', args: { file_path: 'a.txt', old_string: 'one', new_string: 'two' } }] },
        { tools: [{ name: 'Bash', args: { command: 'npm run test' } }] },
        { text: 'All asked.' },
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
      width: 80,
      height: 40,
    });
    sessions.push(cli);
    await cli.waitFor(/session \S+ · \/help/);
    await cli.type('go');
    await cli.keys('Enter');
    await cli.waitFor('Run sleep 30 in the background?');
    await cli.keys('y');

    // job_kill: the job id, exactly; never a path under the working directory.
    const kill = await cli.waitFor('[a] always: job_kill with job_id `job-1` (this job_id only)');
    expect(kill).not.toMatch(/job_kill on \//u);
    expect(kill).not.toContain(`${work}/job-1`);
    // 80 columns: the options break between parts, the [a] option whole on its line, [n] deny after it.
    expect(lines(kill).at(-2)).toBe('Allow Stop job-1?  [y] once');
    expect(lines(kill).at(-1)).toBe('[a] always: job_kill with job_id `job-1` (this job_id only)  [n] deny');
    await cli.keys('a');
    await cli.waitFor('allowed for this session: job_kill with job_id `job-1` (this job_id only)');

    // Edit: the one path (absolute), said to be that path only.
    await cli.waitFor(`[a] always: Edit on ${work}/a.txt (this path only)`);
    await cli.keys('a');
    await cli.waitFor(`allowed for this session: Edit on ${work}/a.txt (this path only)`);
    await cli.waitFor('applied as approved');
    expect(await readFile(join(work, 'a.txt'), 'utf8')).toBe('two\n');

    // Bash: the command prefix.
    await cli.waitFor('[a] always: Bash commands starting with `npm run test`');
    await cli.keys('n');
    await cli.waitFor('All asked.');

    await cli.type('/permissions');
    await cli.keys('Enter');
    const listing = await cli.waitFor('protected (writes always ask)');
    expect(listing).toContain('job_kill with job_id `job-1` (this job_id only)');
    expect(listing).toContain(`Edit on ${work}/a.txt (this path only)`);
  });
});
