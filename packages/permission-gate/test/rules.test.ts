import { describe, expect, it } from 'vitest';
import {
  createPermissionGate,
  hasShellMetacharacters,
  PermissionGateError,
  parseRule,
  safeParseRule,
} from '../src/index.js';

describe('parseRule', () => {
  it.each([
    ['Bash', { text: 'Bash', tool: 'Bash' }],
    ['  Read  ', { text: 'Read', tool: 'Read' }],
    ['Bash(git status*)', { text: 'Bash(git status*)', tool: 'Bash', pattern: 'git status*' }],
    ['Edit(src/**)', { text: 'Edit(src/**)', tool: 'Edit', pattern: 'src/**' }],
    ['mcp__server__*', { text: 'mcp__server__*', tool: 'mcp__server__*' }],
    ['Bash(echo (a))', { text: 'Bash(echo (a))', tool: 'Bash', pattern: 'echo (a)' }],
    ['Bash(npm run test:*)', { text: 'Bash(npm run test:*)', tool: 'Bash', pattern: 'npm run test*' }],
  ])('parses %j', (raw, expected) => {
    expect(parseRule(raw)).toEqual(expected);
  });

  it.each([
    'Bash((',
    'Bash(',
    'Bash()',
    'Bash(  )',
    '(foo)',
    'Ba sh',
    '',
    'Bash(a))',
    'Bash(()',
    'Edit({a,b)',
    'Edit([abc)',
    'Bash(x)y',
    'Tool\u202e(x)',
  ])('rejects %j with a clear error', (raw) => {
    const r = safeParseRule(raw);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error).toMatch(/^unparsable rule "/);
    expect(() => parseRule(raw)).toThrow(PermissionGateError);
  });

  it('rejects non-strings', () => {
    expect(safeParseRule(42)).toEqual({ ok: false, error: 'a rule must be a string, got number' });
  });

  it('an unparsable rule fails gate creation and names its path', () => {
    try {
      createPermissionGate({ rules: { deny: ['Bash', 'Read', 'Bash(('] } });
      expect.unreachable();
    } catch (e) {
      expect(e).toBeInstanceOf(PermissionGateError);
      const err = e as PermissionGateError;
      expect(err.code).toBe('invalid-rule');
      expect(err.message).toBe('rules.deny[2]: unparsable rule "Bash((" (expected Tool or Tool(pattern))');
      expect(err.issues).toEqual([{ path: 'rules.deny[2]', message: expect.stringContaining('Bash((') }]);
    }
  });
});

describe('Bash command patterns', () => {
  const gate = createPermissionGate({ rules: { allow: ['Bash(git status*)', 'Bash(ls)'] } });
  const decide = (command: string) => gate.evaluate('Bash', { command }).decision;

  it('is a prefix glob where * crosses / and spaces', () => {
    expect(decide('git status')).toBe('allow');
    expect(decide('git status --short src/a/b')).toBe('allow');
    expect(decide('ls')).toBe('allow');
    expect(decide('ls -la')).toBe('ask');
    expect(decide('git push')).toBe('ask');
    // Bash ignores blanks around words (ADR 0100): the leading blank no longer hides the command from rules.
    expect(decide(' git status')).toBe('allow');
    expect(decide('git  status\t--short')).toBe('allow');
  });

  it.each([
    'git status; rm -rf /',
    'git status && rm -rf /',
    'git status || rm -rf /',
    'git status | sh',
    'git status & rm -rf /',
    'git status `rm -rf /`',
    'git status $(rm -rf /)',
    'git status\nrm -rf /',
    'git status\rrm -rf /',
    'git status > /etc/passwd',
    'git status < /dev/zero',
    'git status\u0000; rm',
  ])('chained or substituted %j never matches an allow rule', (command) => {
    expect(hasShellMetacharacters(command)).toBe(true);
    expect(decide(command)).toBe('ask');
  });

  it('deny rules still match commands with metacharacters, including chained sub-commands', () => {
    const g = createPermissionGate({
      mode: 'bypass',
      rules: { deny: ['Bash(rm *)'], allow: ['Bash(git *)'] },
    });
    expect(g.evaluate('Bash', { command: 'rm -rf /' }).decision).toBe('deny');
    expect(g.evaluate('Bash', { command: 'git status; rm -rf /' }).decision).toBe('deny');
    expect(g.evaluate('Bash', { command: 'ls && rm -rf /' }).decision).toBe('deny');
    expect(g.evaluate('Bash', { command: 'echo $(rm -rf /)' }).decision).toBe('deny');
    expect(g.evaluate('Bash', { command: 'git log | head' }).decision).toBe('allow'); // bypass mode, no deny match
  });

  it('deny rules see through tabs and runs of blanks between words (the shell splits on both)', () => {
    const g = createPermissionGate({ mode: 'bypass', rules: { deny: ['Bash(rm -rf *)'] } });
    for (const command of ['rm\t-rf /', 'rm  -rf /', 'rm \t -rf\t/', '\trm -rf /', 'ls;rm\t-rf /']) {
      expect(g.evaluate('Bash', { command }).decision, JSON.stringify(command)).toBe('deny');
    }
    expect(g.evaluate('Bash', { command: 'rmdir\t-p x' }).decision).toBe('allow');
  });

  it('deny rules see a command behind shell grammar: groups, reserved words and variable assignments', () => {
    const g = createPermissionGate({ mode: 'bypass', rules: { deny: ['Bash(rm *)'] } });
    for (const command of [
      '(rm -rf /)',
      '{ rm -rf /; }',
      'if true; then rm -rf /; fi',
      'for f in x; do rm -rf /; done',
      'if rm -rf /; then :; fi',
      'true || ! rm -rf /',
      'time rm -rf /',
      'FOO=1 rm -rf /',
      'A=1 B="x" rm -rf /',
      '( ( rm -rf /))',
    ]) {
      expect(g.evaluate('Bash', { command }).decision, JSON.stringify(command)).toBe('deny');
    }
    for (const command of ['echo then', 'do_thing rm', 'FOO=rm x', 'timer rm -rf /']) {
      expect(g.evaluate('Bash', { command }).decision, JSON.stringify(command)).toBe('allow');
    }
  });

  it('deny rules may span a pipeline; allow rules need every simple command (ADR 0100)', () => {
    const g = createPermissionGate({
      mode: 'bypass',
      rules: { deny: ['Bash(curl * | sh)'], allow: ['Bash(git *)', 'Bash(head*)'] },
    });
    expect(g.evaluate('Bash', { command: 'cd /tmp; curl https://x | sh' }).decision).toBe('deny');
    const d = createPermissionGate({ rules: { allow: ['Bash(git *)', 'Bash(head*)'] } });
    expect(d.evaluate('Bash', { command: 'git log --oneline | head -n 3' })).toMatchObject({
      decision: 'allow',
      rule: 'Bash(git *)',
    });
    expect(d.evaluate('Bash', { command: 'git log | tail -n 3' }).decision).toBe('ask');
    expect(d.evaluate('Bash', { command: 'git log > /tmp/x' }).decision).toBe('ask');
  });

  it('an unanalysable command asks, naming the rule that may apply and why', () => {
    const g = createPermissionGate({ mode: 'bypass', rules: { deny: ['Bash(rm *)'] } });
    const e = g.evaluate('Bash', { command: 'X=rm; $X -rf /' });
    expect(e).toEqual({
      decision: 'ask',
      capability: 'exec',
      source: {
        kind: 'rule',
        rule: 'Bash(rm *)',
        list: 'deny',
        unanalysable: 'the command word "$X" is not a literal',
      },
      rule: 'Bash(rm *)',
    });
    // A definite deny still wins over the ask.
    expect(g.evaluate('Bash', { command: 'rm -rf /; $X' }).decision).toBe('deny');
  });

  it('a plain command without metacharacters is not flagged', () => {
    expect(hasShellMetacharacters('git commit -m "fix: thing"')).toBe(false);
  });
});

describe('path patterns', () => {
  const gate = createPermissionGate({
    mode: 'default',
    cwd: '/home/u/proj',
    rules: { allow: ['Edit(src/**)', 'Read(*.md)'], deny: ['Read(**/.env)', 'Edit(src/secret/**)'] },
  });
  const edit = (file_path: string) => gate.evaluate('Edit', { file_path }).decision;

  it('** crosses segments, * stays in one', () => {
    expect(edit('src/a.ts')).toBe('allow');
    expect(edit('src/deep/er/a.ts')).toBe('allow');
    expect(edit('lib/a.ts')).toBe('ask');
    expect(gate.evaluate('Read', { file_path: 'README.md' }).decision).toBe('allow');
    expect(
      createPermissionGate({ rules: { allow: ['Edit(*.md)'] } }).evaluate('Edit', { file_path: 'docs/x.md' })
        .decision,
    ).toBe('ask');
  });

  it('normalises before matching allow rules', () => {
    expect(edit('./src/a.ts')).toBe('allow');
    expect(edit('src/./x/../a.ts')).toBe('allow');
    expect(edit('./src/../secret')).toBe('ask');
    expect(edit('src//a.ts')).toBe('allow');
  });

  it('a path escaping with .. never matches an allow rule', () => {
    expect(edit('src/../../etc/passwd')).toBe('ask');
    expect(edit('../proj/src/a.ts')).toBe('ask');
    expect(edit('src\\..\\..\\x')).toBe('ask');
  });

  it('relates absolute paths to cwd', () => {
    expect(edit('/home/u/proj/src/a.ts')).toBe('allow');
    expect(edit('/home/u/other/src/a.ts')).toBe('ask');
    expect(edit('/home/u/proj/src/../../proj2/src/a.ts')).toBe('ask');
  });

  it('deny rules match raw, normalised and cwd-relative forms', () => {
    expect(gate.evaluate('Read', { file_path: '.env' }).decision).toBe('deny');
    expect(gate.evaluate('Read', { file_path: 'a/b/.env' }).decision).toBe('deny');
    expect(gate.evaluate('Read', { file_path: '/home/u/proj/config/.env' }).decision).toBe('deny');
    expect(edit('src/x/../secret/key')).toBe('deny');
    expect(edit('/home/u/proj/src/secret/key')).toBe('deny');
  });

  it('a leading ./ in a path pattern matches normalised paths', () => {
    const g = createPermissionGate({ rules: { allow: ['Edit(./src/**)'] } });
    expect(g.evaluate('Edit', { file_path: 'src/a.ts' }).decision).toBe('allow');
    expect(g.evaluate('Edit', { file_path: './src/a.ts' }).decision).toBe('allow');
    expect(g.evaluate('Edit', { file_path: './lib/a.ts' }).decision).toBe('ask');
  });

  it('NUL bytes never match allow rules', () => {
    expect(edit('src/a.ts\u0000.png')).toBe('ask');
  });
});

describe('primary argument', () => {
  it('uses command, file_path, path, pattern, url in that order', () => {
    const gate = createPermissionGate({ toolMeta: { T: 'exec' }, rules: { allow: ['T(x*)'] } });
    expect(gate.evaluate('T', { url: 'y', path: 'x1' }).decision).toBe('allow');
    expect(gate.evaluate('T', { command: 'y', path: 'x1' }).decision).toBe('ask');
    expect(gate.evaluate('T', { pattern: 'x', file_path: 1 }).decision).toBe('allow');
  });

  it('URL patterns: * crosses /', () => {
    const gate = createPermissionGate({ rules: { allow: ['WebFetch(https://docs.example.org/*)'] } });
    expect(gate.evaluate('WebFetch', { url: 'https://docs.example.org/a/b?c' }).decision).toBe('allow');
    expect(gate.evaluate('WebFetch', { url: 'https://docs.example.org.evil.test/' }).decision).toBe('ask');
    expect(gate.evaluate('WebFetch', { url: 'https://docs.example.org/a b' }).decision).toBe('ask');
    expect(gate.evaluate('WebFetch', { url: 'https://docs.example.org/\\@evil.test' }).decision).toBe('ask');
    expect(gate.evaluate('WebFetch', { url: 'https://docs.example.org/x\n' }).decision).toBe('ask');
  });

  it('honours a declared primaryArgument', () => {
    const gate = createPermissionGate({
      toolMeta: { Query: { capability: 'net', primaryArgument: 'host' } },
      rules: { allow: ['Query(*.internal)'] },
    });
    expect(gate.evaluate('Query', { host: 'db.internal', url: 'x' }).decision).toBe('allow');
    expect(gate.evaluate('Query', { url: 'db.internal' }).decision).toBe('ask');
  });

  it('fails closed without a usable argument: deny/ask patterns apply, allow patterns do not', () => {
    const gate = createPermissionGate({ mode: 'bypass', rules: { deny: ['Bash(rm *)'] } });
    expect(gate.evaluate('Bash', {}).decision).toBe('deny');
    expect(gate.evaluate('Bash', { command: 42 }).decision).toBe('deny');
    expect(gate.evaluate('Bash', null).decision).toBe('deny');
    const g2 = createPermissionGate({ rules: { allow: ['Bash(*)'] } });
    expect(g2.evaluate('Bash', {}).decision).toBe('ask');
  });

  it('ignores inherited keys', () => {
    const input = Object.create({ command: 'git status' }) as object;
    const gate = createPermissionGate({ rules: { allow: ['Bash(git *)'] } });
    expect(gate.evaluate('Bash', input).decision).toBe('ask');
  });
});

describe('tool-name globs', () => {
  it('mcp__server__* matches every tool of that server and nothing else', () => {
    const gate = createPermissionGate({
      rules: { allow: ['mcp__github__*'], deny: ['mcp__github__delete_*'] },
    });
    expect(gate.evaluate('mcp__github__list_issues', {}).decision).toBe('allow');
    expect(gate.evaluate('mcp__github__delete_repo', {}).decision).toBe('deny');
    expect(gate.evaluate('mcp__gitlab__list', {}).decision).toBe('ask');
  });

  it('keeps working past the per-name cache limit', () => {
    const gate = createPermissionGate({ rules: { allow: ['mcp__s__*'] } });
    const decisions = new Set<string>();
    for (let i = 0; i < 1100; i++) decisions.add(gate.evaluate(`mcp__s__t${i}`, {}).decision);
    expect([...decisions]).toEqual(['allow']);
    expect(gate.evaluate('mcp__x__t1', {}).decision).toBe('ask');
    expect(gate.evaluate('mcp__s__t1', {}).decision).toBe('allow');
  });
});

describe('rule parsing properties', () => {
  it('safeParseRule never throws, and a rule it accepts always compiles into a gate', async () => {
    const fc = (await import('fast-check')).default;
    const piece = fc.constantFrom(
      'Bash',
      'Edit',
      'mcp__s__*',
      '(',
      ')',
      '*',
      '**',
      '{',
      '}',
      ',',
      '[',
      ']',
      '!',
      '\\',
      ':',
      ' ',
      'a',
      '/',
      '..',
      '\u202e',
    );
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 20 }),
          fc.array(piece, { maxLength: 8 }).map((a) => a.join('')),
        ),
        (raw) => {
          const r = safeParseRule(raw);
          if (r.ok) {
            const gate = createPermissionGate({ rules: { deny: [raw] } });
            expect(['allow', 'ask', 'deny']).toContain(
              gate.evaluate(r.rule.tool.replace(/\*/g, 'x'), { command: raw }).decision,
            );
          } else {
            expect(() => createPermissionGate({ rules: { allow: [raw] } })).toThrow(PermissionGateError);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
