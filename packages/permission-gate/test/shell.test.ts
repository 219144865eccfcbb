import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fc from 'fast-check';
import { Language, Parser } from 'web-tree-sitter';
import { describe, expect, it } from 'vitest';
import { analyseShellCommand, createPermissionGate, DECISIONS, isShellGrammarLoaded } from '../src/index.js';
import { analyseWithGrammarOnly } from '../src/shell/analyse.js';
import { useShellParser } from '../src/shell/load.js';
import { decodeAnsiC } from '../src/shell/words.js';

const bypass = createPermissionGate({ mode: 'bypass', rules: { deny: ['Bash(rm:*)'] } });
const decide = (command: string) => bypass.evaluate('Bash', { command });

/** Shell-ish fragments: words, operators, quotes, expansions, wrappers, odd characters. */
const fragment = fc.constantFrom(
  'rm',
  'git',
  'status',
  '-rf',
  'x',
  ' ',
  '\t',
  '\n',
  ';',
  '&&',
  '||',
  '|',
  '&',
  '(',
  ')',
  '{',
  '}',
  '$(',
  '`',
  "'",
  '"',
  '\\',
  '$',
  '${',
  '<<',
  '>',
  '<',
  '=',
  'FOO=',
  'sudo',
  'env',
  'sh -c',
  'xargs',
  'eval',
  'case',
  'in',
  'esac',
  'if',
  'then',
  'fi',
  '*',
  '?',
  '[',
  ']',
  ',',
  '#',
  '\r',
  '\u0000',
  '\u202e',
  '\u00a0',
  'é',
  '$((',
  '))',
);
const shellish = fc.array(fragment, { maxLength: 30 }).map((parts) => parts.join(''));

/** Well-formed command lines: simple commands (wrappers, quoted and dynamic words) joined by operators. */
const word = fc.oneof(
  fc.constantFrom('git', 'status', 'ls', '-la', 'x', 'a/b', '--', '{}', '-n', '5', 'FOO=1'),
  fc.constantFrom(
    "'a b'",
    '"c d"',
    '"$HOME"',
    '$X',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: shell syntax, not a template
    '${Y:-z}',
    '"$(date)"',
    '`pwd`',
    "$'\\x41'",
    '*.ts',
    '{a,b}',
    '\\;',
  ),
);
const simpleCommand = fc
  .tuple(
    fc.constantFrom('', 'sudo ', 'env A=1 ', 'nice -n 5 ', 'timeout 5 ', 'command ', 'xargs ', 'time '),
    fc.constantFrom('git', 'ls', 'echo', 'cat', 'grep', 'find .', 'npm test'),
    fc.array(word, { maxLength: 4 }),
  )
  .map(([w, c, args]) => `${w}${c}${args.length > 0 ? ' ' : ''}${args.join(' ')}`);
const commandLine = fc
  .array(fc.tuple(simpleCommand, fc.constantFrom('; ', ' && ', ' || ', ' | ', ' & ', '\n')), {
    minLength: 1,
    maxLength: 4,
  })
  .map((parts) => parts.map(([c, op], i) => (i === parts.length - 1 ? c : c + op)).join(''))
  .chain((line) =>
    fc.constantFrom(line, `(${line})`, `{ ${line}; }`, `if ${line}; then ls; fi`, `echo "$(${line})"`),
  );

describe('analyseShellCommand', () => {
  it('the grammar is loaded for these tests', () => {
    expect(isShellGrammarLoaded()).toBe(true);
  });

  it('lists every simple command with its spellings and unwrapped forms', () => {
    const a = analyseShellCommand("FOO='a b' sudo -u x rm -rf y | tee log");
    expect(a.commands).toEqual([
      ["FOO='a b' sudo -u x rm -rf y", "'FOO=a b' sudo -u x rm -rf y"],
      ['tee log'],
    ]);
    expect(a.forms).toEqual(expect.arrayContaining(['rm -rf y', 'sudo -u x rm -rf y', 'tee log']));
    expect(a.unanalysable).toBeUndefined();
    expect(a.notAllowable).toBeUndefined();
    // Cached results are shared: they are frozen, so no caller can change a later decision.
    expect(analyseShellCommand("FOO='a b' sudo -u x rm -rf y | tee log")).toBe(a);
    expect(Object.isFrozen(a) && Object.isFrozen(a.forms) && Object.isFrozen(a.commands[0])).toBe(true);
  });

  it('says why a line cannot be analysed', () => {
    expect(analyseShellCommand('X=rm; $X -rf y').unanalysable).toBe('the command word "$X" is not a literal');
    expect(analyseShellCommand('ls (').unanalysable).toBe('the command does not parse as bash');
    expect(analyseShellCommand('bash -c "$C"').unanalysable).toBe(
      'bash runs a non-literal string "\\"$C\\""',
    );
    expect(analyseShellCommand('git status > out').notAllowable).toBe('it redirects to "out"');
  });

  it('decodes ANSI-C strings as bash does', () => {
    expect(decodeAnsiC('\\x72\\155\\u0020\\U0001F600\\cA\\n\\q')).toBe('rm \u{1F600}\u0001\n\\q');
    expect(decodeAnsiC('\\uD800')).toBeUndefined();
    expect(decodeAnsiC('trailing\\')).toBeUndefined();
  });

  it('the plain-words shortcut agrees with the grammar', () => {
    const plain = fc
      .array(
        fc.constantFrom(
          'rm',
          'git',
          '-rf',
          'x=1',
          'FOO=bar',
          'a/b',
          './c',
          '%1',
          '@x',
          '+',
          ':',
          'a,b',
          '.',
          '-',
          '--',
          'sudo',
          'env',
          'time',
          ' ',
          '\t',
        ),
        {
          maxLength: 12,
        },
      )
      .map((p) => p.join(''));
    fc.assert(
      fc.property(plain, (command) => {
        const fast = analyseShellCommand(command);
        const slow = analyseWithGrammarOnly(command);
        // tree-sitter-bash reads `a@b` and `a%b` as errors, bash as words (README: the grammar's limits).
        fc.pre(slow.unanalysable === undefined);
        expect({ ...fast, forms: [...fast.forms].sort() }).toEqual({
          ...slow,
          forms: [...slow.forms].sort(),
        });
      }),
      { numRuns: 500 },
    );
  });

  it('never throws and never hangs on hostile input: huge, deeply nested, binary', () => {
    const huge = `echo ${'a'.repeat(200_000)}`;
    expect(decide(huge).decision).toBe('ask');
    expect(analyseShellCommand(huge).unanalysable).toMatch(/longer than/);
    const nested = `${'$('.repeat(3000)}rm -rf x${')'.repeat(3000)}`;
    expect(['deny', 'ask']).toContain(decide(nested).decision);
    const parens = `${'('.repeat(5000)}rm -rf x${')'.repeat(5000)}`;
    expect(['deny', 'ask']).toContain(decide(parens).decision);
    const evals = `${"eval '".repeat(20)}rm -rf x${"'".repeat(20)}`;
    expect(['deny', 'ask']).toContain(decide(evals).decision);
    const shells = `sh -c ${"'sh -c \\'".repeat(12)}`;
    expect(() => decide(shells)).not.toThrow();
    expect(decide(`${'nice '.repeat(10)}rm -rf x`).decision).toBe('deny');
    const wrappers = `${'nice '.repeat(40)}rm -rf x`;
    expect(decide(wrappers).decision).toBe('ask');
    expect(analyseShellCommand(wrappers).unanalysable).toBe('too many wrapper commands');
  });
});

describe('gate decisions on shell commands (properties)', () => {
  it('evaluate never throws on arbitrary strings and always returns a decision', () => {
    fc.assert(
      fc.property(fc.oneof(shellish, fc.string({ unit: 'binary', maxLength: 200 })), (command) => {
        const e = decide(command);
        expect(DECISIONS).toContain(e.decision);
      }),
      { numRuns: 1500 },
    );
  });

  it('appending a chained rm to any command never turns a deny of rm into allow', () => {
    fc.assert(
      fc.property(
        commandLine,
        fc.constantFrom('; rm -rf x', '\nrm -rf x', ' && rm -rf x', ' | rm -rf x', ' || rm -rf x'),
        (command, tail) => {
          const e = decide(command + tail);
          expect(e.decision).not.toBe('allow');
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('an allow rule never allows a line with a chained rm', () => {
    const gate = createPermissionGate({ rules: { allow: ['Bash(git *)', 'Bash(ls*)'] } });
    fc.assert(
      fc.property(commandLine, (command) => {
        expect(gate.evaluate('Bash', { command: `${command}; rm -rf x` }).decision).not.toBe('allow');
      }),
      { numRuns: 800 },
    );
  });

  it('the parse cache never changes a decision', () => {
    const require = createRequire(import.meta.url);
    const parser = new Parser();
    const loaded = Language.load(readFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
    return loaded.then((bash) => {
      parser.setLanguage(bash);
      const gate = createPermissionGate({
        mode: 'bypass',
        rules: { deny: ['Bash(rm:*)'], ask: ['Bash(git push*)'], allow: ['Bash(git status*)'] },
      });
      fc.assert(
        fc.property(shellish, (command) => {
          const first = gate.evaluate('Bash', { command });
          const cached = gate.evaluate('Bash', { command });
          useShellParser({ parse: (s) => parser.parse(s) }); // a new parser clears the cache
          const fresh = gate.evaluate('Bash', { command });
          expect(cached).toEqual(first);
          expect(fresh).toEqual(first);
        }),
        { numRuns: 300 },
      );
    });
  });
});
