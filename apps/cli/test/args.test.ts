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
