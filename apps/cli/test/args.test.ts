import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliUsageError, parseCliArgs } from '../src/args.js';

describe('parseCliArgs', () => {
  it('defaults to the REPL in the current directory and default mode', () => {
    const o = parseCliArgs([], '/work');
    expect(o).toMatchObject({ command: 'repl', cwd: '/work', mode: 'default', json: false, resume: null });
  });

  it('reads a one-shot prompt with every option', () => {
    const o = parseCliArgs(
      [
        '-p',
        'fix it',
        '--provider',
        'openai-compatible',
        '--model',
        'qwen',
        '--base-url',
        'http://127.0.0.1:1/v1',
        '--cwd',
        '/repo',
        '--mode',
        'accept_edits',
        '--resume',
        'abc',
        '--json',
        '--data-dir',
        '/d',
      ],
      '/work',
    );
    expect(o).toMatchObject({
      command: 'prompt',
      prompt: 'fix it',
      provider: 'openai-compatible',
      model: 'qwen',
      baseUrl: 'http://127.0.0.1:1/v1',
      cwd: '/repo',
      mode: 'accept_edits',
      resume: 'abc',
      json: true,
      dataDir: '/d',
    });
  });

  it('knows the demo and acp subcommands', () => {
    expect(parseCliArgs(['demo'], '/').command).toBe('demo');
    expect(parseCliArgs(['acp'], '/').command).toBe('acp');
  });

  it.each([
    [['--mode', 'yolo'], /unknown --mode "yolo"/],
    [['frobnicate'], /unknown command "frobnicate"/],
    [['--nope'], /nope/],
    [['-p', '   '], /non-empty prompt/],
    [['demo', 'extra'], /unexpected argument "extra"/],
  ])('rejects %j with a clear message', (argv, message) => {
    expect(() => parseCliArgs(argv, '/')).toThrow(CliUsageError);
    expect(() => parseCliArgs(argv, '/')).toThrow(message);
  });
});

describe('parseCliArgs on hostile input', () => {
  const token = fc.oneof(
    fc.constantFrom(
      '-p',
      '--prompt',
      '--mode',
      '--resume',
      '--continue',
      '-c',
      '--json',
      '--verbose',
      '--',
      '-',
      '--=',
      '-pz',
    ),
    fc.constantFrom(
      '--stall-timeout',
      '--context-window',
      '--system-prompt',
      'demo',
      'acp',
      '--help',
      '--model=x',
    ),
    fc.string({ unit: 'binary', maxLength: 30 }),
  );

  it('returns options or throws a one-line CliUsageError with control and bidi characters escaped (property)', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 8 }), (argv) => {
        try {
          const o = parseCliArgs(argv, '/w');
          expect(typeof o.command).toBe('string');
        } catch (error) {
          expect(error).toBeInstanceOf(CliUsageError);
          const message = (error as Error).message;
          expect(message).not.toMatch(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/u);
          expect(message.length).toBeLessThan(200);
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('stays fast and bounded on a huge argument list and huge tokens', () => {
    const many = Array.from({ length: 50_000 }, (_, i) => (i % 2 === 0 ? '--system-prompt' : 'x'));
    expect(() => parseCliArgs(many, '/')).toThrow(/given twice/);
    const huge = `--${'a'.repeat(1_000_000)}`;
    expect(() => parseCliArgs([huge], '/')).toThrow(CliUsageError);
    expect(parseCliArgs(['-p', 'y'.repeat(1_000_000)], '/').prompt).toHaveLength(1_000_000);
  });

  it('reads --resume with and without an id, and numbers for the timeouts', () => {
    expect(parseCliArgs(['--resume'], '/').resume).toBe('');
    expect(parseCliArgs(['--resume', '--verbose'], '/')).toMatchObject({ resume: '', verbose: true });
    expect(parseCliArgs(['--resume', 'abc'], '/').resume).toBe('abc');
    expect(parseCliArgs(['--resume=abc'], '/').resume).toBe('abc');
    expect(parseCliArgs(['-c'], '/').continue).toBe(true);
    expect(parseCliArgs(['--stall-timeout', '0.5', '-p', 'x'], '/').stallTimeoutSeconds).toBe(0.5);
    expect(parseCliArgs(['-pfix it'], '/').prompt).toBe('fix it');
    expect(parseCliArgs(['-p', '- a list item'], '/').prompt).toBe('- a list item');
    expect(() => parseCliArgs(['--context-window', '1.5'], '/')).toThrow(/whole number/);
    expect(() => parseCliArgs(['--resume', '-p', 'x'], '/')).toThrow(/session id with -p/);
  });
});
