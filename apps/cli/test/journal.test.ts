import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, serverEnv, startOpenAIServer } from './chat-server.js';
import { describeSession } from '../src/picker.js';
import { type SessionEntry, SessionStore } from '../src/sessions.js';
import { BIN, runBin, tempRoot } from './run.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function until(check: () => Promise<boolean>, ms = 15_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error('timed out');
}

describe('a turn killed mid-way', () => {
  it('keeps its completed steps: the next --continue sends them to the model', async () => {
    const dirs = await tempRoot();
    await writeFile(join(dirs.work, 'facts.txt'), 'the sky is green here\n');
    const server = await startOpenAIServer({
      replies: (request, i) => {
        if (i === 0) return { tools: [{ name: 'Read', args: { file_path: 'facts.txt' } }] };
        if (i === 1) return { stallAfter: 'Thinking about' }; // the step in flight when the process dies
        return { text: `continued with ${request.body.messages?.length} messages` };
      },
    });
    servers.push(server);
    const env = { ...serverEnv(server, dirs.home), PATH: process.env.PATH ?? '' };
    const child = spawn('node', [BIN, '-p', 'read facts.txt', '--cwd', dirs.work, '--data-dir', dirs.data], {
      env,
      stdio: 'ignore',
    });
    const sessions = join(dirs.data, 'sessions');
    // The completed step is in the session file (the store saves each step as it completes).
    const savedSteps = async () => {
      for (const f of await readdir(sessions).catch(() => [] as string[])) {
        if (!f.endsWith('.json') || f.startsWith('.')) continue;
        const data = JSON.parse(await readFile(join(sessions, f), 'utf8').catch(() => '{}'));
        if (data.turn?.state === 'running' && data.turn.steps.length >= 1) return true;
      }
      return false;
    };
    await until(savedSteps);
    await until(async () => server.requests.length >= 2);
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    // Between the kill and the resume, the listing shows the turn as interrupted.
    const listed = await new SessionStore(dirs.data).list();
    expect(listed).toHaveLength(1);
    expect(listed[0]?.interrupted).toBe(true);
    expect(describeSession(listed[0] as SessionEntry)).toContain('(last turn interrupted)');

    const r = await runBin(
      [
        '-p',
        'what did the file say?',
        '--continue',
        '--verbose',
        '--cwd',
        dirs.work,
        '--data-dir',
        dirs.data,
      ],
      {
        ...env,
        NO_COLOR: '1',
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('recovered 1 completed step(s) of a turn that was interrupted');

    const sent = JSON.stringify(server.requests.at(-1)?.body.messages);
    expect(sent).toContain('read facts.txt');
    expect(sent).toContain('the sky is green here');
    expect(sent).toContain('what did the file say?');
    // The recovered turn is now part of the saved session: the next resume recovers nothing again.
    const files = (await readdir(sessions)).filter((f) => f.endsWith('.json') && !f.startsWith('.'));
    expect(files).toHaveLength(1);
    const saved = JSON.parse(await readFile(join(sessions, files[0] as string), 'utf8'));
    expect(saved).toMatchObject({ codeagentCliSession: 2, turn: { state: 'done', steps: [] } });
    expect(JSON.stringify(saved.session.messages)).toContain('the sky is green here');
  }, 60_000);
});
