import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  type AskCallback,
  createPermissionGate,
  DEFAULT_PROTECTED_PATHS,
  PERMISSION_MODES,
  type PermissionGateOptions,
} from '../src/index.js';

const always: AskCallback = () => ({ allow: true, scope: 'session' });
const write = (file_path: string) => ({ name: 'Write', input: { file_path, content: '{}' } });

function gate(options: PermissionGateOptions = {}) {
  return createPermissionGate({ cwd: '/work/repo', ask: always, ...options });
}

describe('protected paths (the agent cannot rewrite its own configuration)', () => {
  it('accept_edits: writing .codeagent/settings.json asks (the reported bug)', () => {
    const e = gate({ mode: 'accept_edits' }).evaluate('Write', write('.codeagent/settings.json').input);
    expect(e).toEqual({
      decision: 'ask',
      capability: 'write',
      source: { kind: 'protected', path: '.codeagent/settings.json', entry: '**/.codeagent' },
    });
    // An ordinary file is still allowed in accept_edits.
    expect(gate({ mode: 'accept_edits' }).evaluate('Write', write('src/a.ts').input).decision).toBe('allow');
  });

  it('asks in default and accept_edits, denies in plan and dont_ask, bypass skips it', () => {
    const expected = { default: 'ask', accept_edits: 'ask', plan: 'deny', dont_ask: 'deny', bypass: 'allow' };
    for (const mode of PERMISSION_MODES) {
      const e = gate({ mode }).evaluate('Edit', { file_path: '.git/hooks/pre-commit' });
      expect([mode, e.decision]).toEqual([mode, expected[mode]]);
    }
  });

  it('an allow rule, an allow policy and a session grant never lift it', async () => {
    const g = gate({
      mode: 'accept_edits',
      rules: { allow: ['Write(**)', 'Write'] },
      policy: { overrides: { Write: 'allow' }, capabilities: { write: 'allow' } },
    });
    expect(g.evaluate('Write', write('.codeagent/settings.json').input).decision).toBe('ask');
    // Approving "always" is kept as once: the next write asks again.
    let asked = 0;
    g.configure({
      ask: () => {
        asked++;
        return { allow: true, scope: 'session' };
      },
    });
    await g.check(write('.codeagent/settings.json'));
    await g.check(write('.codeagent/settings.json'));
    expect(asked).toBe(2);
    expect(g.grants()).toEqual([]);
    // A grant for an ordinary write does not cover a protected one.
    const fresh = gate({ mode: 'default' });
    await fresh.check(write('notes.md'));
    expect(fresh.grants()).toHaveLength(1);
    fresh.configure({ ask: () => false });
    expect((await fresh.check(write('.mcp.json'))).allowed).toBe(false);
  });

  it('a deny rule still denies', () => {
    const g = gate({ rules: { deny: ['Write(.git/**)'] } });
    expect(g.evaluate('Write', write('.git/config').input).source.kind).toBe('rule');
  });

  it('matches after normalisation: case, ./, .., absolute paths, backslashes, any depth', () => {
    const g = gate({ mode: 'accept_edits' });
    const protectedPath = (p: string) => g.evaluate('Write', write(p).input).decision === 'ask';
    for (const p of [
      './.codeagent/settings.json',
      '.CodeAgent/Settings.json',
      'src/../.codeagent/settings.json',
      '/work/repo/.codeagent/settings.json',
      '.codeagent\\settings.json',
      'packages/x/.git/hooks/post-checkout',
      '.GIT/config',
      '.claude/settings.local.json',
      '.agents/skills/x/SKILL.md',
      '.gemini/settings.json',
      '.mcp.json',
      '.git',
      '../other/.git/hooks/pre-push',
      'a/b/../../.codeagent',
      '.git./hooks/pre-commit',
      '.git::$INDEX_ALLOCATION/hooks/pre-commit',
      '.codeagent /settings.json',
    ]) {
      expect([p, protectedPath(p)]).toEqual([p, true]);
    }
    for (const p of ['src/codeagent.ts', '.codeagentrc', 'docs/.gitignore-notes', 'mcp.json', 'x.git/y']) {
      expect([p, protectedPath(p)]).toEqual([p, false]);
    }
  });

  it('host entries add absolute paths (session store, user settings); defaults cannot be removed', () => {
    const g = gate({ mode: 'accept_edits', protectedPaths: ['/home/u/.codeagent', '/data/sessions/**'] });
    expect(g.protectedPaths()).toEqual([
      ...DEFAULT_PROTECTED_PATHS,
      '/home/u/.codeagent',
      '/data/sessions/**',
    ]);
    expect(g.evaluate('Write', write('/home/u/.codeagent/trusted-workspaces.json').input).decision).toBe(
      'ask',
    );
    expect(g.evaluate('Write', write('/data/sessions/x.json').input).decision).toBe('ask');
    expect(g.evaluate('Write', write('../../../home/u/.codeagent/settings.json').input).decision).toBe('ask');
    g.configure({ protectedPaths: [] });
    expect(g.evaluate('Write', write('.codeagent/settings.json').input).decision).toBe('ask');
    expect(g.evaluate('Write', write('/data/sessions/x.json').input).decision).toBe('allow');
  });

  it('a path it cannot place is treated as protected', () => {
    const g = createPermissionGate({ mode: 'accept_edits', protectedPaths: ['/home/u/.codeagent'] });
    expect(g.evaluate('Write', write('../../x').input).decision).toBe('ask');
    expect(g.evaluate('Write', write('a\u0000b').input).decision).toBe('ask');
  });

  it('rejects bad protectedPaths with the path of the entry', () => {
    expect(() => createPermissionGate({ protectedPaths: ['ok', '', 'a{b'] })).toThrow(
      /protectedPaths\[1\][\s\S]*protectedPaths\[2\]/,
    );
    expect(() => createPermissionGate({ protectedPaths: 'x' as never })).toThrow(/protectedPaths/);
  });

  it('reads of protected paths stay allowed', () => {
    expect(gate().evaluate('Read', { file_path: '.codeagent/settings.json' }).decision).toBe('allow');
  });

  it('property: any spelling of a path under .git asks in accept_edits', () => {
    const seg = fc.stringMatching(/^[a-z]{1,5}$/);
    fc.assert(
      fc.property(
        fc.array(seg, { maxLength: 3 }),
        fc.array(seg, { minLength: 1, maxLength: 3 }),
        fc.constantFrom('.git', '.GIT', '.Git'),
        fc.boolean(),
        (before, after, name, dotSlash) => {
          const p = `${dotSlash ? './' : ''}${[...before, name, ...after].join('/')}`;
          expect(gate({ mode: 'accept_edits' }).evaluate('Edit', { file_path: p }).decision).toBe('ask');
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('isProtectedPath (for tools that see a link target)', () => {
  it('answers for absolute targets and fails closed on bad input', () => {
    const g = gate({ protectedPaths: ['/home/u/.codeagent'] });
    expect(g.isProtectedPath('/work/repo/.codeagent/settings.json')).toBe(true);
    expect(g.isProtectedPath('/home/u/.codeagent/sessions/a.json')).toBe(true);
    expect(g.isProtectedPath('/work/repo/src/a.ts')).toBe(false);
    expect(g.isProtectedPath(1 as never)).toBe(true);
  });
});

describe('exec calls allowed without asking that name a protected path', () => {
  it('ask instead, even with an allow rule; plain commands stay allowed; bypass skips it', () => {
    const g = gate({ rules: { allow: ['Bash(sed *)', 'Bash(git *)'] } });
    const bash = (command: string) => g.evaluate('Bash', { command });
    expect(bash('sed -i s/a/b/ .git/hooks/pre-commit')).toEqual({
      decision: 'ask',
      capability: 'exec',
      source: { kind: 'protected', path: '.git/hooks/pre-commit', entry: '**/.git' },
    });
    expect(bash("sed -i 's/x/y/' './.codeagent/settings.json'").decision).toBe('ask');
    expect(bash('sed -i s/a/b/ src/a.ts').decision).toBe('allow');
    expect(bash('git status').decision).toBe('allow');
    g.configure({ mode: 'bypass' });
    expect(bash('sed -i s/a/b/ .git/config').decision).toBe('allow');
  });

  it('a session grant does not carry a command onto a protected path', async () => {
    let asked = 0;
    const g = gate({
      ask: () => {
        asked++;
        return { allow: true, scope: 'session' };
      },
    });
    await g.check({ name: 'Bash', input: { command: 'npm run build' } });
    expect(asked).toBe(1);
    await g.check({ name: 'Bash', input: { command: 'npm run build --out .git/hooks' } });
    expect(asked).toBe(2);
    await g.check({ name: 'Bash', input: { command: 'npm run build --out dist' } });
    expect(asked).toBe(2);
  });
});
