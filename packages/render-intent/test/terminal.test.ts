import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { terminalFallbackText } from '../src/index.js';

describe('terminalFallbackText', () => {
  it.each([
    ['hi\n', '```console\nhi\n```'],
    ['hi', '```console\nhi\n```'],
    ['hi\n\n\n', '```console\nhi\n```'],
    ['hi\r\n\r\n', '```console\nhi\n```'],
    ['', '```console\n\n```'],
    ['\n', '```console\n\n```'],
    ['  indented\n\ttab  \n', '```console\n  indented\n\ttab  \n```'],
    ['\nleading newline kept', '```console\n\nleading newline kept\n```'],
    ['a\n\nb\n', '```console\na\n\nb\n```'],
    ['use `x` inline', '```console\nuse `x` inline\n```'],
    ['```sh\nls\n```\n', '````console\n```sh\nls\n```\n````'],
    ['a ```` b ``` c', '`````console\na ```` b ``` c\n`````'],
    ['\u001b[31mred\u001b[0m\n', '```console\n\u001b[31mred\u001b[0m\n```'],
  ])('%j -> %j', (output, expected) => {
    expect(terminalFallbackText(output)).toBe(expected);
  });

  it('is total: a missing or non-string output (optional on terminal results) gives the empty block', () => {
    expect(terminalFallbackText(undefined)).toBe('```console\n\n```');
    expect(terminalFallbackText(null)).toBe('```console\n\n```');
    for (const hostile of [42, {}, [], Symbol('s'), () => 'x', 10n]) {
      expect(terminalFallbackText(hostile as unknown as string)).toBe('```console\n\n```');
    }
  });

  it('handles huge outputs with many newlines in linear time (no regex backtracking)', () => {
    const many = `${'\n'.repeat(200_000)}x${'\r\n'.repeat(200_000)}`;
    expect(terminalFallbackText(many)).toBe(`\`\`\`console\n${'\n'.repeat(200_000)}x\n\`\`\``);
    const ticks = '`'.repeat(100_000);
    expect(terminalFallbackText(ticks).startsWith(`${ticks}\``)).toBe(true);
  });

  it('property: the fence is longer than any backtick run inside and the body survives', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('`', 'a', '\n', '\r', ' ', 'x') }), (output) => {
        const text = terminalFallbackText(output);
        const fence = /^`+/.exec(text)?.[0] ?? '';
        expect(fence.length).toBeGreaterThanOrEqual(3);
        const body = text.slice(fence.length + 'console\n'.length, text.length - fence.length - 1);
        expect(body).toBe(output.replace(/(?:\r?\n)+$/, ''));
        expect(text.endsWith(`\n${fence}`)).toBe(true);
        for (const run of body.match(/`+/g) ?? []) expect(run.length).toBeLessThan(fence.length);
      }),
    );
  });
});
