import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { TmuxSession } from './tmux.js';

const BIN = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

const script = [
  { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'ls' } }] },
  { parts: [{ type: 'text', text: 'first done' }] },
  { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'ls -a' } }] },
  { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'touch rm-ran' } }] },
  { parts: [{ type: 'text', text: 'second done' }] },
  { parts: [{ type: 'tool-call', toolName: 'Bash', input: { command: 'ls' } }] },
  { parts: [{ type: 'text', text: 'third done' }] },
];

const sessions: TmuxSession[] = [];
const roots: string[] = [];
afterEach(async () => {
  await Promise.all(sessions.splice(0).map((s) => s.close()));
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

describe('approvals, trust and /permissions in a pseudo-terminal', () => {
  it('asks to trust once, shows the grant scope, lists and revokes grants, and /clear drops them', async () => {
    const root = await mkdtemp(join(tmpdir(), 'codeagent-perms-tty-'));
    roots.push(root);
    const work = join(root, 'work');
    const data = join(root, 'data');
    await mkdir(join(work, '.codeagent'), { recursive: true });
    await writeFile(join(root, 'script.json'), JSON.stringify(script));
    const settings = join(work, '.codeagent', 'settings.json');
    await writeFile(
      settings,
      JSON.stringify({ rules: { allow: ['Bash(echo *)'], deny: ['Read(**/.env)'] } }),
    );
    const cli = await TmuxSession.start({
      command: ['node', BIN, '--script', join(root, 'script.json'), '--cwd', work, '--data-dir', data],
      cwd: work,
      env: { TERM: 'xterm-256color', NO_COLOR: '1' },
      logDir: root,
    });
    sessions.push(cli);

    await cli.waitFor('Trust this workspace and apply them?');
    expect(await cli.screen()).toContain('rules.allow[0] "Bash(echo *)"');
    await cli.keys('y');
    await cli.waitFor(/session \S+ · \/help/);
    expect(JSON.parse(await readFile(join(data, 'trusted-workspaces.json'), 'utf8')).workspaces).toHaveLength(
      1,
    );

    await cli.type('one');
    await cli.keys('Enter');
    await cli.waitFor('[a] always: Bash commands starting with `ls`');
    await cli.keys('a');
    await cli.waitFor('first done');

    // `ls -a` is inside the grant; `touch rm-ran` is not: it asks, offering its own prefix.
    await cli.type('two');
    await cli.keys('Enter');
    await cli.waitFor('[a] always: Bash commands starting with `touch rm-ran`');
    await cli.keys('n');
    await cli.waitFor('second done');
    expect(existsSync(join(work, 'rm-ran'))).toBe(false);

    await cli.type('/permissions');
    await cli.keys('Enter');
    const listing = await cli.waitFor('protected (writes always ask)');
    expect(listing).toContain('g1  Bash commands starting with `ls`');
    expect(listing).toContain(`allow Bash(echo *)  (${settings})`);
    expect(listing).toContain(`deny  Read(**/.env)  (${settings})`);

    await cli.type('/clear');
    await cli.keys('Enter');
    await cli.waitFor('cleared · new session');
    await cli.type('/permissions');
    await cli.keys('Enter');
    await cli.waitFor('session grants: none');

    // With the grant gone, `ls` asks again.
    await cli.type('three');
    await cli.keys('Enter');
    await cli.waitFor(/Run ls\?[^\n]*\n?[^\n]*\[n\] deny\s*$/m);
    await cli.keys('n');
    await cli.waitFor('third done');
    await cli.type('/exit');
    await cli.keys('Enter');
    expect(await cli.waitForExit()).toBe(0);
  });
});
