import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type OpenAIServer, serverEnv, startOpenAIServer } from './chat-server.js';
import { sessionFiles, runBin, tempRoot } from './run.js';

const servers: OpenAIServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

async function server(options: Parameters<typeof startOpenAIServer>[0]) {
  const s = await startOpenAIServer(options);
  servers.push(s);
  return s;
}

/** A user's folder with a build output and sources the demo tour would touch. */
async function usersFolder(work: string) {
  await mkdir(join(work, 'build'));
  await writeFile(join(work, 'build', 'index.js'), 'built\n');
  await mkdir(join(work, 'src'));
  await writeFile(join(work, 'src', 'greet.ts'), "export const greet = () => 'hi';\n");
}

describe('safe by default', () => {
  it('with no model configured, -p in a user folder runs nothing, says how to configure one and exits 2', async () => {
    const { home, work, data } = await tempRoot();
    await usersFolder(work);
    const r = await runBin(['-p', 'hi', '--mode', 'bypass', '--data-dir', data], { HOME: home }, work);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('no model configured');
    expect(r.stderr).toContain('--base-url');
    expect(r.stderr).toContain('codeagent demo');
    // The user's files are exactly as they were.
    expect(existsSync(join(work, 'build', 'index.js'))).toBe(true);
    expect(existsSync(join(work, 'src', 'farewell.ts'))).toBe(false);
    expect(await readFile(join(work, 'src', 'greet.ts'), 'utf8')).toBe("export const greet = () => 'hi';\n");
    expect(existsSync(join(data, 'sessions'))).toBe(false);
  });

  it('the REPL with no model configured also refuses (it never replays the tour on real files)', async () => {
    const { home, work, data } = await tempRoot();
    await usersFolder(work);
    const r = await runBin(['--data-dir', data, '--cwd', work], { HOME: home });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('no model configured');
    expect(existsSync(join(work, 'src', 'farewell.ts'))).toBe(false);
  });

  it('an explicit demo provider runs the tour on a temporary copy, never in --cwd', async () => {
    const { home, work, data } = await tempRoot();
    await usersFolder(work);
    for (const how of [
      { args: ['--provider', 'scripted'], env: {} },
      { args: [], env: { CODEAGENT_PROVIDER: 'demo' } },
    ]) {
      const r = await runBin(
        ['-p', 'hi', '--mode', 'bypass', '--verbose', '--cwd', work, '--data-dir', data, ...how.args],
        { HOME: home, NO_COLOR: '1', ...how.env },
      );
      expect(r.stderr).toContain('temporary copy of the demo workspace');
      expect(r.stderr).toMatch(/cwd \/tmp\/codeagent-demo-/);
      expect(existsSync(join(work, 'build', 'index.js'))).toBe(true);
      expect(existsSync(join(work, 'src', 'farewell.ts'))).toBe(false);
    }
  });
});

describe('-p output discipline against a loopback OpenAI-compatible server', () => {
  it('writes only the answer to stdout; cards, banner and footer only with --verbose (to stderr)', async () => {
    const { home, work, data } = await tempRoot();
    await writeFile(join(work, 'a.txt'), 'alpha\n');
    const replies = () => [
      { tools: [{ name: 'Read', args: { file_path: 'a.txt' } }], text: 'Let me look.' },
      { text: ['The file ', 'says **alpha**.'] },
    ];
    const quiet = await server({ replies: replies() });
    const r = await runBin(
      ['-p', 'what is in a.txt?', '--data-dir', data, '--cwd', work],
      serverEnv(quiet, home),
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toBe('The file says **alpha**.\n');
    expect(r.stderr).toBe('');

    const loud = await server({ replies: replies() });
    const v = await runBin(['-p', 'what is in a.txt?', '--verbose', '--data-dir', data, '--cwd', work], {
      ...serverEnv(loud, home),
      NO_COLOR: '1',
    });
    expect(v.code).toBe(0);
    expect(v.stdout).toBe('The file says **alpha**.\n');
    expect(v.stderr).toContain('codeagent 0.0.0 · model test-model (openai-compatible)');
    expect(v.stderr).toContain('Read a.txt');
    expect(v.stderr).toMatch(/── .*completed \(stop\)/);
    expect(v.stderr).toContain('session saved:');
  });

  it('--json writes NDJSON only: a session line first (id of the saved file), then agent events, end last', async () => {
    const { home, work, data } = await tempRoot();
    const s = await server({ replies: [{ text: 'hello' }] });
    const r = await runBin(['-p', 'hi', '--json', '--data-dir', data, '--cwd', work], serverEnv(s, home));
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    const lines = r.stdout.trimEnd().split('\n');
    const events = lines.map((line) => JSON.parse(line));
    expect(events[0]).toMatchObject({ type: 'session', provider: 'openai-compatible', model: 'test-model' });
    expect(events.at(-1)).toMatchObject({ type: 'end', result: { text: 'hello', stopReason: 'completed' } });
    const files = await sessionFiles(data);
    expect(files).toEqual([`${events[0].sessionId}.json`]);
  });

  it('exits 3 when a tool call was denied, as --help says, and says why on stderr', async () => {
    const { home, work, data } = await tempRoot();
    const denials = Array.from({ length: 8 }, (_, i) => ({
      name: 'Write',
      args: { file_path: `f${i}.txt`, content: 'x' },
    }));
    const s = await server({ replies: [{ tools: denials }, { text: 'I could not write anything.' }] });
    const r = await runBin(
      ['-p', 'write eight files', '--data-dir', data, '--cwd', work],
      serverEnv(s, home),
    );
    expect(r.code).toBe(3);
    expect(r.stdout).toBe('I could not write anything.\n');
    expect(r.stderr).toContain('8 tool call(s) denied');
    expect(await readdir(work)).toEqual([]);
  });

  it('exits 1 with the error on stderr when the provider fails', async () => {
    const { home, work, data } = await tempRoot();
    const s = await server({ replies: () => ({ status: 401, message: 'bad key' }) });
    const r = await runBin(['-p', 'hi', '--data-dir', data, '--cwd', work], serverEnv(s, home));
    expect(r.code).toBe(1);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/error:.*bad key/);
  });
});

describe('usage errors', () => {
  it.each([
    [['--nope'], 'unknown option "--nope"'],
    [['--verbsoe'], 'unknown option "--verbsoe" (did you mean --verbose?)'],
    [['-p'], '-p needs a value'],
    [['--json=yes'], '--json takes no value'],
    [['--mode', 'yolo'], 'unknown --mode "yolo"'],
    [['hello', 'world'], 'unknown command "hello"'],
    [['--stall-timeout', 'soon', '-p', 'x'], '--stall-timeout needs a non-negative number'],
    [['--json'], '--json needs -p'],
    [['--continue', '--resume', 'x'], 'either --continue or --resume'],
  ])('%j prints one line and a hint, exit 2', async (argv, message) => {
    const { home } = await tempRoot();
    const r = await runBin(argv, { HOME: home });
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    expect(lines[0]).toContain(message);
    expect(lines[1]).toBe("Try 'codeagent --help' for the options.");
    // Node's own parser wording never leaks.
    expect(r.stderr).not.toMatch(/positional argument|ERR_PARSE_ARGS|place it at the end/);
  });
});
