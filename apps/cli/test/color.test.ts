import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runBin, tempRoot } from './run.js';

// One colour rule for the host, terminal's `resolveColor`: --no-color, then NO_COLOR (set and non-empty), then
// FORCE_COLOR (`0` and `false` turn colour off, any other value on), then whether stderr is a terminal.
const SGR = '\u001b[';

/** `-p --verbose` on a scripted Bash call that prints green: the progress (stderr) is where colour shows. */
async function verboseRun(env: Record<string, string>, extra: string[] = []) {
  const dirs = await tempRoot('codeagent-color-');
  const script = [
    {
      parts: [
        { type: 'tool-call', toolName: 'Bash', input: { command: 'printf "\\033[32mgreen-ok\\033[0m\\n"' } },
      ],
    },
    { parts: [{ type: 'text', text: 'done' }] },
  ];
  await writeFile(join(dirs.root, 's.json'), JSON.stringify(script));
  const args = ['-p', 'go', '--verbose', '--mode', 'bypass', '--script', join(dirs.root, 's.json')];
  return runBin([...args, '--cwd', dirs.work, '--data-dir', dirs.data, ...extra], {
    HOME: dirs.home,
    ...env,
  });
}

describe('colour follows the NO_COLOR / FORCE_COLOR conventions (one rule, terminal resolveColor)', () => {
  it.each([
    ['FORCE_COLOR=1', { FORCE_COLOR: '1' }, true],
    ['FORCE_COLOR=true', { FORCE_COLOR: 'true' }, true],
    ['FORCE_COLOR= (empty: present, so on)', { FORCE_COLOR: '' }, true],
    ['FORCE_COLOR=0', { FORCE_COLOR: '0' }, false],
    ['FORCE_COLOR=false', { FORCE_COLOR: 'false' }, false],
    ['FORCE_COLOR=FALSE', { FORCE_COLOR: 'FALSE' }, false],
    ['NO_COLOR=1 beats FORCE_COLOR=1', { NO_COLOR: '1', FORCE_COLOR: '1' }, false],
    ['NO_COLOR= (empty: ignored) with FORCE_COLOR=1', { NO_COLOR: '', FORCE_COLOR: '1' }, true],
    ['nothing set, not a terminal', {}, false],
  ] as const)(
    '%s',
    async (_name, env, colored) => {
      const r = await verboseRun(env);
      expect(r.code, r.stderr).toBe(0);
      expect(r.stderr).toContain('green-ok');
      expect(r.stderr.includes(`${SGR}32mgreen-ok`)).toBe(colored);
      if (!colored) expect(r.stderr).not.toContain(SGR);
      // The answer on stdout never carries colour of its own.
      expect(r.stdout.trim()).toBe('done');
    },
    30_000,
  );

  it('--no-color wins over FORCE_COLOR', async () => {
    const r = await verboseRun({ FORCE_COLOR: '1' }, ['--no-color']);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain('green-ok');
    expect(r.stderr).not.toContain(SGR);
  }, 30_000);
});
