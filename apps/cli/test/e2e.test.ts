import { existsSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxSession } from './tmux.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));
const STORY = Array.from({ length: 120 }, (_, i) => `word${i}`).join(' ');

const script = [
  {
    parts: [
      { type: 'reasoning', text: 'Plan: run one command, then write a note.' },
      { type: 'text', text: 'Hello from the scripted model. Let me check.\n' },
      {
        type: 'tool-call',
        toolName: 'Bash',
        input: { command: 'echo approved-output', description: 'Say hi' },
      },
    ],
  },
  {
    parts: [{ type: 'tool-call', toolName: 'Write', input: { file_path: 'notes.txt', content: 'secret\n' } }],
  },
  { parts: [{ type: 'text', text: 'The write was refused, so I stopped.' }] },
  { parts: [{ type: 'text', text: `Story time: ${STORY}` }], delayMs: 150, chunkSize: 6 },
];

const sessions: TmuxSession[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
});

async function start(args: string[], dirs: { work: string; data: string; logs: string }) {
  const session = await TmuxSession.start({
    command: ['node', BIN, ...args, '--cwd', dirs.work, '--data-dir', dirs.data],
    cwd: dirs.work,
    env: { TERM: 'xterm-256color', NO_COLOR: '', FORCE_COLOR: '1' },
    logDir: dirs.logs,
  });
  sessions.push(session);
  return session;
}

describe('codeagent in a pseudo-terminal', () => {
  it('streams, asks for approval by keystroke, denies, aborts with Ctrl+C, and resumes the saved session', async () => {
    const root = await mkdtemp(join(tmpdir(), 'codeagent-e2e-'));
    const dirs = { work: join(root, 'work'), data: join(root, 'data'), logs: root };
    await writeFile(join(root, 'script.json'), JSON.stringify(script));
    await import('node:fs/promises').then((fs) => fs.mkdir(dirs.work));

    const cli = await start(['--script', join(root, 'script.json')], dirs);
    const banner = await cli.waitFor(/session (\S+) · \/help/);
    const sessionId = /session (\S+) · \/help/.exec(banner)?.[1];
    expect(sessionId).toBeTruthy();

    await cli.type('please run it');
    await cli.keys('Enter');
    await cli.waitFor('Hello from the scripted model.');
    await cli.waitFor('Run echo approved-output?');
    await cli.type('y');
    await cli.waitFor('allowed once');
    await cli.waitFor('approved-output');

    await cli.waitFor('Allow Write notes.txt?');
    await cli.type('n');
    await cli.waitFor('Permission denied for Write');
    await cli.waitFor('The write was refused, so I stopped.');
    const afterFirst = await cli.waitFor(/completed \(stop\)/);
    expect(afterFirst).toContain('✻ Plan: run one command');
    expect(existsSync(join(dirs.work, 'notes.txt'))).toBe(false);

    await cli.type('tell me a long story');
    await cli.keys('Enter');
    await cli.waitFor('Story time: word0');
    await cli.keys('C-c');
    await cli.waitFor(/interrupted/);
    const interrupted = await cli.waitFor(/── .*interrupted/);
    expect(interrupted).not.toContain('word119');

    await cli.type('/exit');
    await cli.keys('Enter');
    const status = await cli.waitForExit();
    expect(status, await cli.screen()).toBe(0);

    const raw = (await cli.raw()).toString('utf8');
    expect(raw).toContain('approved-output');
    // Nothing but the CLI's own control sequences and colours reached the terminal: no OSC, DCS, APC or C1.
    expect(raw).not.toMatch(/\u001b[\]P_^X]|[\u0080-\u009f]/);

    const saved = JSON.parse(await readFile(join(dirs.data, 'sessions', `${sessionId}.json`), 'utf8'));
    expect(saved.session).toBeTruthy();

    const resumed = await start(['--script', join(root, 'script.json'), '--resume', String(sessionId)], dirs);
    const screen = await resumed.waitFor(/resumed session \S+ \((\d+) messages\)/);
    const count = Number(/resumed session \S+ \((\d+) messages\)/.exec(screen)?.[1]);
    expect(count).toBeGreaterThanOrEqual(6);
    await resumed.waitFor('› ');
    await resumed.type('/exit');
    await resumed.keys('Enter');
    expect(await resumed.waitForExit()).toBe(0);
  }, 90_000);
});
