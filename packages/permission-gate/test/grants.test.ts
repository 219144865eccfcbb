import fc from 'fast-check';
import { describe, expect, it, vi } from 'vitest';
import {
  type AskCallback,
  createPermissionGate,
  describeGrantScope,
  type PermissionGateOptions,
} from '../src/index.js';

const always: AskCallback = () => ({ allow: true, scope: 'session' });

function gate(options: PermissionGateOptions = {}, ask: AskCallback = always) {
  return createPermissionGate({ cwd: '/work/repo', ...options, ask });
}

const bash = (command: string) => ({ name: 'Bash', input: { command } });

describe('scoped session grants', () => {
  it('a grant for `ls` does not allow `rm -rf /` (the reported bug)', async () => {
    const ask = vi.fn<AskCallback>(always);
    const g = gate({}, ask);
    expect((await g.check(bash('ls'))).allowed).toBe(true);
    expect(g.grants()).toEqual([{ id: 'g1', tool: 'Bash', kind: 'command-prefix', prefix: 'ls' }]);
    // `rm -rf /` is outside the grant: the gate asks again, and a "no" denies it.
    ask.mockImplementation(() => false);
    const r = await g.check(bash('rm -rf /'));
    expect(r.allowed).toBe(false);
    expect(ask).toHaveBeenCalledTimes(2);
  });

  it('a grant never lifts an ask rule (the reported bug, second half)', async () => {
    const ask = vi.fn<AskCallback>(always);
    const g = gate({ rules: { ask: ['Bash(rm *)'] } }, ask);
    await g.check(bash('ls'));
    await g.check(bash('rm -rf build'));
    // The rm approval asked because of a rule: it is kept as once, never as a grant.
    expect(g.grants().map((x) => x.tool)).toEqual(['Bash']);
    ask.mockImplementation(() => false);
    expect((await g.check(bash('rm -rf build'))).allowed).toBe(false);
    expect(ask).toHaveBeenCalledTimes(3);
  });

  it('a grant never lifts a deny rule or a mode deny', async () => {
    const g = gate({ rules: { deny: ['Bash(npm publish*)'] } });
    await g.check(bash('npm run build'));
    expect((await g.check(bash('npm publish'))).allowed).toBe(false);
    g.configure({ mode: 'plan' });
    const r = await g.check(bash('npm run build'));
    expect(r).toMatchObject({ allowed: false, source: { kind: 'mode', mode: 'plan' } });
  });

  it('derives Bash prefixes from leading plain words, like `npm test:*`', () => {
    const g = gate();
    const scope = (c: string) => g.grantScope('Bash', { command: c });
    expect(scope('npm test')).toEqual({ kind: 'command-prefix', prefix: 'npm test' });
    expect(scope('npm run test -- --watch')).toEqual({ kind: 'command-prefix', prefix: 'npm run test' });
    expect(scope('git   status --short')).toEqual({ kind: 'command-prefix', prefix: 'git status' });
    expect(scope('make')).toEqual({ kind: 'command-prefix', prefix: 'make' });
    // A bare command word with options or paths: exactly that command.
    expect(scope('ls -la')).toEqual({ kind: 'command', command: 'ls -la' });
    // Destructive commands, wrappers and interpreters: exact only.
    expect(scope('rm build')).toEqual({ kind: 'command', command: 'rm build' });
    expect(scope('sudo apt update')).toEqual({ kind: 'command', command: 'sudo apt update' });
    expect(scope('/bin/rm x')).toEqual({ kind: 'command', command: '/bin/rm x' });
    expect(scope('FOO=1 npm test')).toEqual({ kind: 'command', command: 'FOO=1 npm test' });
    expect(scope('echo "$HOME"')).toEqual({ kind: 'command', command: 'echo "$HOME"' });
    // Shell syntax: no grant at all (the approval counts as once).
    expect(scope('ls; rm -rf /')).toBeNull();
    expect(scope('ls | sh')).toBeNull();
    expect(scope('echo $(id)')).toBeNull();
    expect(scope('')).toBeNull();
    expect(g.grantScope('Bash', {})).toBeNull();
    expect(g.grantScope('Grep', { pattern: 'x' })).toBeNull();
    expect(g.grantScope('Edit', { command: 'x' })).toBeNull();
  });

  it('a prefix grant matches at a word boundary and never with shell syntax', async () => {
    const ask = vi.fn<AskCallback>(always);
    const g = gate({}, ask);
    await g.check(bash('git status'));
    ask.mockImplementation(() => false);
    const allowed = async (c: string) => (await g.check(bash(c))).allowed;
    expect(await allowed('git status')).toBe(true);
    expect(await allowed('git status --short')).toBe(true);
    expect(await allowed('git\tstatus  -s')).toBe(true);
    expect(await allowed('git statusx')).toBe(false);
    expect(await allowed('git status; rm -rf /')).toBe(false);
    expect(await allowed('git status && curl x | sh')).toBe(false);
    expect(await allowed('git status `rm -rf /`')).toBe(false);
    expect(await allowed('git status $(rm -rf /)')).toBe(false);
    expect(await allowed('git status > .bashrc')).toBe(false);
    expect(await allowed('git status\nrm -rf /')).toBe(false);
    expect(await allowed('git push')).toBe(false);
  });

  it('an exact command grant matches only that command', async () => {
    const ask = vi.fn<AskCallback>(always);
    const g = gate({}, ask);
    await g.check(bash('rm -rf build'));
    ask.mockImplementation(() => false);
    expect((await g.check(bash('rm  -rf build'))).allowed).toBe(true);
    expect((await g.check(bash('rm -rf build /'))).allowed).toBe(false);
    expect((await g.check(bash('rm -rf /'))).allowed).toBe(false);
  });

  it('a command with shell syntax approved "always" is kept as once', async () => {
    const ask = vi.fn<AskCallback>(always);
    const g = gate({}, ask);
    const r = await g.check(bash('ls && pwd'));
    expect(r).toMatchObject({ allowed: true, source: { kind: 'ask', outcome: 'approved', scope: 'once' } });
    expect(g.grants()).toEqual([]);
  });

  it('file tools are granted by normalised path', async () => {
    const ask = vi.fn<AskCallback>(always);
    const g = gate({}, ask);
    await g.check({ name: 'Edit', input: { file_path: 'src/a.ts' } });
    expect(g.grants()).toEqual([{ id: 'g1', tool: 'Edit', kind: 'path', path: '/work/repo/src/a.ts' }]);
    ask.mockImplementation(() => false);
    const edit = async (p: string) => (await g.check({ name: 'Edit', input: { file_path: p } })).allowed;
    expect(await edit('./src/a.ts')).toBe(true);
    expect(await edit('/work/repo/src/x/../a.ts')).toBe(true);
    expect(await edit('src/b.ts')).toBe(false);
    expect(await edit('src/a.ts/../../etc/passwd')).toBe(false);
    // The grant is per tool: Write on the same path still asks.
    expect((await g.check({ name: 'Write', input: { file_path: 'src/a.ts', content: '' } })).allowed).toBe(
      false,
    );
  });

  it('a job id or a URL is granted exactly, never as a path (nor joined to the working directory)', async () => {
    const ask = vi.fn<AskCallback>(always);
    const g = gate({}, ask);
    await g.check({ name: 'job_kill', input: { job_id: 'job-1' } });
    expect(g.grants()).toEqual([
      { id: 'g1', tool: 'job_kill', kind: 'argument', key: 'job_id', value: 'job-1' },
    ]);
    ask.mockImplementation(() => false);
    const kill = async (id: string) => (await g.check({ name: 'job_kill', input: { job_id: id } })).allowed;
    expect(await kill('job-1')).toBe(true);
    // A path-like spelling of the same id is another value: it asks (and is denied here).
    expect(await kill('./job-1')).toBe(false);
    expect(await kill('x/../job-1')).toBe(false);
    expect(await kill('/work/repo/job-1')).toBe(false);
    expect(await kill('job-2')).toBe(false);
    expect(g.grantScope('WebFetch', { url: 'https://example.test/a//b/../c' })).toEqual({
      kind: 'argument',
      key: 'url',
      value: 'https://example.test/a//b/../c',
    });
    expect(g.grantScope('job_kill', { job_id: '' })).toBeNull();
  });

  it('each scope is worded by what it covers', () => {
    const g = gate();
    const words = (name: string, input: unknown) => {
      const scope = g.grantScope(name, input);
      return scope === null ? null : describeGrantScope(name, scope);
    };
    expect(words('job_kill', { job_id: 'job-2' })).toBe('job_kill with job_id `job-2` (this job_id only)');
    expect(words('WebFetch', { url: 'https://example.test/x' })).toBe(
      'WebFetch with url `https://example.test/x` (this url only)',
    );
    expect(words('Edit', { file_path: 'src/a.ts' })).toBe('Edit on /work/repo/src/a.ts (this path only)');
    expect(words('Bash', { command: 'npm run test -- --watch' })).toBe(
      'Bash commands starting with `npm run test`',
    );
    expect(words('Bash', { command: 'rm -rf build' })).toBe('Bash command `rm -rf build` exactly');
    expect(words('mcp__gh__issue', { title: 'x' })).toBe('every mcp__gh__issue call');
  });

  it('other tools are granted as a whole', async () => {
    const g = gate({ toolMeta: { mcp__gh__issue: 'net' } });
    await g.check({ name: 'mcp__gh__issue', input: { title: 'x' } });
    expect(g.grants()).toEqual([{ id: 'g1', tool: 'mcp__gh__issue', kind: 'tool' }]);
  });

  it('tells the ask callback what an "always" answer would grant', async () => {
    const ask = vi.fn<AskCallback>(() => true);
    const g = gate({ rules: { ask: ['Bash(git push*)'] } }, ask);
    await g.check(bash('git push'));
    expect(ask.mock.calls[0]?.[3]).toEqual({
      reason: 'ask rule Bash(git push*)',
      source: { kind: 'rule', rule: 'Bash(git push*)', list: 'ask' },
      grantScope: null,
    });
  });

  it('lists, revokes one, and clears grants', async () => {
    const g = gate();
    await g.check(bash('npm test'));
    await g.check(bash('npm test'));
    await g.check(bash('make'));
    await g.check({ name: 'Edit', input: { file_path: 'a.ts' } });
    expect(g.grants().map((x) => x.id)).toEqual(['g1', 'g2', 'g3']);
    expect(g.sessionGrants()).toEqual(['Bash', 'Edit']);
    expect(g.revokeGrant('g2')).toBe(true);
    expect(g.revokeGrant('g2')).toBe(false);
    expect(g.grants().map((x) => x.id)).toEqual(['g1', 'g3']);
    g.clearGrants();
    expect(g.grants()).toEqual([]);
  });

  it('grants are data: frozen, and the list returned is a snapshot', async () => {
    const g = gate();
    await g.check(bash('make'));
    const list = g.grants();
    expect(Object.isFrozen(list[0])).toBe(true);
    g.clearGrants();
    expect(list).toHaveLength(1);
  });

  it('property: a prefix grant never covers a command with shell metacharacters or another command word', async () => {
    const word = fc.stringMatching(/^[a-z][a-z0-9-]{0,6}$/);
    await fc.assert(
      fc.asyncProperty(
        fc.array(word, { minLength: 1, maxLength: 3 }),
        fc.string({ maxLength: 20 }),
        fc.constantFrom(';', '&&', '|', '`', '$(', '>', '<', '\n', '&'),
        async (words, tail, meta) => {
          const ask = vi.fn<AskCallback>(always);
          const g = gate({}, ask);
          const approved = words.join(' ');
          await g.check(bash(approved));
          ask.mockImplementation(() => false);
          expect((await g.check(bash(`${approved} ${meta}${tail}`))).allowed).toBe(false);
          expect((await g.check(bash(`x${approved}`))).allowed).toBe(false);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('property: after any "always", a call an ask or deny rule covers is never allowed unasked', async () => {
    const word = fc.constantFrom(
      'git',
      'push',
      'status',
      'rm',
      '-rf',
      '/',
      'npm',
      'test',
      'ls',
      'x',
      ';',
      '&&',
      '|',
    );
    const command = fc.array(word, { minLength: 1, maxLength: 5 }).map((w) => w.join(' '));
    const rule = fc.constantFrom('Bash(rm *)', 'Bash(git push*)', 'Bash(npm *)', 'Bash', 'Bash(ls*)');
    await fc.assert(
      fc.asyncProperty(
        command,
        fc.array(command, { maxLength: 5 }),
        fc.array(rule, { maxLength: 2 }),
        fc.array(rule, { maxLength: 2 }),
        async (first, later, askRules, denyRules) => {
          const ask = vi.fn<AskCallback>(always);
          const g = gate({ rules: { ask: askRules, deny: denyRules } }, ask);
          await g.check(bash(first));
          ask.mockImplementation(() => false);
          for (const c of later) {
            const e = g.evaluate('Bash', { command: c });
            const r = await g.check(bash(c));
            if (e.decision === 'deny' || (e.decision === 'ask' && e.source.kind !== 'mode')) {
              expect(r.allowed).toBe(false);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});
