import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { describeGrant, grantCovers, ScopedGrants, scopedGrantFor } from '../src/index.js';

const CWD = '/work/project';
const bash = (command: string) => ({ command });

describe('scoped "allow always" grants', () => {
  it('grants a Bash command its subcommand prefix, matched word by word', () => {
    const g = scopedGrantFor('Bash', bash('npm test'), CWD);
    expect(g).toEqual({ tool: 'Bash', prefix: ['npm', 'test'], exact: false });
    if (!g) throw new Error('no grant');
    expect(describeGrant(g)).toBe('commands starting with `npm test`');
    expect(grantCovers(g, 'Bash', bash('npm test'), CWD)).toBe(true);
    expect(grantCovers(g, 'Bash', bash('npm  test -- --watch'), CWD)).toBe(true);
    expect(grantCovers(g, 'Bash', bash('npm testify'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm run build'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm test; rm -rf /'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm test && curl evil.example'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm test $(rm -rf /)'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm test `id`'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm test > /etc/passwd'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm test\nrm -rf /'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('FOO=1 npm test'), CWD)).toBe(false);
    expect(grantCovers(g, 'Bash', bash('npm t\u0435st'), CWD)).toBe(false); // Cyrillic e
    expect(grantCovers(g, 'Bash', { command: 'npm test', run_in_background: true }, CWD)).toBe(false);
    expect(grantCovers(g, 'Edit', bash('npm test'), CWD)).toBe(false);
  });

  it('grants wrappers, destructive commands and commands without a subcommand exactly', () => {
    for (const command of [
      'rm build',
      'rm -rf build',
      'env npm test',
      'sh script.sh',
      'xargs rm',
      'ls',
      'ls -la',
      'node --version',
      '/usr/bin/env npm test',
    ]) {
      const g = scopedGrantFor('Bash', bash(command), CWD);
      expect(g, command).toMatchObject({ exact: true });
      if (!g) throw new Error('no grant');
      expect(grantCovers(g, 'Bash', bash(command), CWD)).toBe(true);
      expect(grantCovers(g, 'Bash', bash(`${command} /`), CWD)).toBe(false);
    }
  });

  it('offers no grant for commands whose words differ from what the shell runs', () => {
    for (const command of [
      'npm test; rm -rf /',
      'echo "hi"',
      "echo 'hi'",
      'echo $HOME',
      'ls *.ts',
      'cat ~/.ssh/id_rsa',
      'echo a\\ b',
      'FOO=1 npm test',
      'npm test # comment',
      'echo {a,b}',
      '',
      '   ',
      '\u001b[31mnpm test',
      'npm test\u202e',
    ]) {
      expect(scopedGrantFor('Bash', bash(command), CWD), JSON.stringify(command)).toBeNull();
    }
    expect(scopedGrantFor('Bash', { command: 'npm test', run_in_background: true }, CWD)).toBeNull();
    expect(scopedGrantFor('Bash', { command: 42 }, CWD)).toBeNull();
    expect(scopedGrantFor('Bash', null, CWD)).toBeNull();
  });

  it('grants a file tool the absolute path, for that tool only', () => {
    const g = scopedGrantFor('Edit', { file_path: 'src/a.ts' }, CWD);
    expect(g).toEqual({ tool: 'Edit', path: '/work/project/src/a.ts' });
    if (!g) throw new Error('no grant');
    expect(grantCovers(g, 'Edit', { file_path: './src/a.ts' }, CWD)).toBe(true);
    expect(grantCovers(g, 'Edit', { file_path: '/work/project/src/a.ts' }, CWD)).toBe(true);
    expect(grantCovers(g, 'Edit', { file_path: 'src/b.ts' }, CWD)).toBe(false);
    expect(grantCovers(g, 'Edit', { file_path: '../project2/src/a.ts' }, CWD)).toBe(false);
    expect(grantCovers(g, 'Write', { file_path: 'src/a.ts' }, CWD)).toBe(false);
    expect(scopedGrantFor('Write', { file_path: '' }, CWD)).toBeNull();
    expect(scopedGrantFor('Write', { file_path: 'a\u0000b' }, CWD)).toBeNull();
  });

  it('never grants a whole tool: other tools get no "allow always"', () => {
    for (const name of ['job_kill', 'mcp__server__tool', 'WebFetch', 'Glob', 'TodoWrite']) {
      expect(scopedGrantFor(name, { path: '.', url: 'https://x' }, CWD)).toBeNull();
    }
  });

  it('property: a grant covers the call it came from and nothing with shell syntax appended', () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,8}$/);
    const meta = fc.constantFrom(
      '; rm -rf /',
      ' && id',
      ' | sh',
      ' $(id)',
      ' `id`',
      ' > x',
      '\nid',
      ' & id',
      ' < /etc/passwd',
    );
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 5 }), meta, (words, tail) => {
        const command = words.join(' ');
        const g = scopedGrantFor('Bash', bash(command), CWD);
        if (g === null) return;
        expect(grantCovers(g, 'Bash', bash(command), CWD)).toBe(true);
        expect(grantCovers(g, 'Bash', bash(command + tail), CWD)).toBe(false);
        expect(grantCovers(g, 'Write', bash(command), CWD)).toBe(false);
        expect('prefix' in g && g.prefix.length).toBeGreaterThan(0);
      }),
    );
  });

  it('property: arbitrary input never throws and grants only what it can scope', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.anything(), (command, other) => {
        const g = scopedGrantFor('Bash', { command }, CWD);
        if (g !== null) {
          expect(/[;&|`\n\r<>\u0000$"'\\]/.test(command)).toBe(false);
          expect(grantCovers(g, 'Bash', { command }, CWD)).toBe(true);
        }
        scopedGrantFor('Edit', other, CWD);
        scopedGrantFor('Bash', other, CWD);
      }),
    );
  });

  it('is fast on huge and hostile commands', () => {
    const huge = `npm test ${'a '.repeat(500_000)}`;
    const g = scopedGrantFor('Bash', bash('npm test'), CWD);
    if (!g) throw new Error('no grant');
    expect(grantCovers(g, 'Bash', bash(huge), CWD)).toBe(true);
    expect(scopedGrantFor('Bash', bash(`${'-'.repeat(1_000_000)}`), CWD)).toBeNull();
  });

  it('keeps grants per session', () => {
    const a = new ScopedGrants(CWD);
    const b = new ScopedGrants(CWD);
    const g = scopedGrantFor('Bash', bash('git status'), CWD);
    if (!g) throw new Error('no grant');
    a.add(g);
    expect(a.covers('Bash', bash('git status --short'))).toBe(true);
    expect(b.covers('Bash', bash('git status'))).toBe(false);
    expect(a.list()).toEqual([g]);
  });
});
