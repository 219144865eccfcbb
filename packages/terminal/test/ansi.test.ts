import { describe, expect, test } from 'vitest';
import {
  enforceStrictOutput,
  findUnsafeTerminalBytes,
  isSafeTerminalOutput,
  padEndToWidth,
  padStartToWidth,
  RESET,
  stripSgr,
  truncateToWidth,
  visibleWidth,
} from '../src/index.js';

const RED = '\u001b[31m';

describe('visibleWidth', () => {
  test('counts ASCII, ignores SGR, counts CJK and emoji as two columns', () => {
    expect(visibleWidth('abc')).toBe(3);
    expect(visibleWidth(`${RED}abc${RESET}`)).toBe(3);
    expect(visibleWidth('漢字')).toBe(4);
    expect(visibleWidth('👩‍💻')).toBe(2);
    expect(visibleWidth(`${RED}漢${RESET}a`)).toBe(3);
    expect(visibleWidth('')).toBe(0);
  });
  test('combining marks take no column', () => {
    expect(visibleWidth('e\u0301')).toBe(1);
  });
});

describe('truncateToWidth', () => {
  test('returns text that fits unchanged', () => {
    expect(truncateToWidth('hello', 5)).toBe('hello');
    expect(truncateToWidth(`${RED}hello${RESET}`, 5)).toBe(`${RED}hello${RESET}`);
  });
  test('cuts with an ellipsis and never exceeds the width', () => {
    expect(truncateToWidth('hello world', 8)).toBe('hello w…');
    expect(visibleWidth(truncateToWidth('hello world', 8))).toBe(8);
  });
  test('never splits a wide character: one column short rather than one over', () => {
    const cut = truncateToWidth('漢字漢字', 6);
    expect(cut).toBe('漢字…');
    expect(visibleWidth(cut)).toBe(5);
    expect(visibleWidth(truncateToWidth('漢字漢字', 5))).toBeLessThanOrEqual(5);
  });
  test('keeps SGR sequences whole and resets colour after the cut', () => {
    const cut = truncateToWidth(`${RED}abcdef${RESET}ghi`, 4);
    expect(cut).toBe(`${RED}abc…${RESET}`);
    expect(isSafeTerminalOutput(cut)).toBe(true);
  });
  test('never splits an emoji grapheme', () => {
    const cut = truncateToWidth('a👩‍💻b', 2, { ellipsis: '' });
    expect(cut).toBe('a');
  });
  test('drops an ellipsis wider than the width and clamps bad widths', () => {
    expect(truncateToWidth('abc', 0)).toBe('');
    expect(truncateToWidth('abc', Number.NaN)).toBe('');
    expect(truncateToWidth('abcdef', 2, { ellipsis: '...' })).toBe('ab');
  });
});

describe('padding and stripping', () => {
  test('pads by visible width', () => {
    expect(padEndToWidth('漢', 4)).toBe('漢  ');
    expect(padStartToWidth(`${RED}1${RESET}`, 3)).toBe(`  ${RED}1${RESET}`);
    expect(padEndToWidth('toolong', 3)).toBe('toolong');
  });
  test('stripSgr removes colour only', () => {
    expect(stripSgr(`${RED}a${RESET}b`)).toBe('ab');
  });
});

describe('strict checker', () => {
  test('accepts SGR, newline and tab', () => {
    expect(findUnsafeTerminalBytes(`${RED}a\tb\n\u001b[1;38;5;208mc\u001b[m`)).toEqual([]);
  });
  test.each([
    ['CSI cursor move', '\u001b[2A', 'non-sgr-escape'],
    ['colon SGR', '\u001b[38:2::1:2:3m', 'non-sgr-escape'],
    ['OSC title', '\u001b]0;t\u0007', 'non-sgr-escape'],
    ['lone ESC', 'a\u001b', 'non-sgr-escape'],
    ['CR', 'a\rb', 'c0-control'],
    ['NUL', '\u0000', 'c0-control'],
    ['DEL', '\u007f', 'del'],
    ['C1 CSI', '\u009b2J', 'c1-control'],
    ['RLO', '\u202e', 'bidi-control'],
    ['RLI', '\u2067', 'bidi-control'],
    ['RLM', '\u200f', 'bidi-control'],
  ] as const)('rejects %s', (_name, text, rule) => {
    const found = findUnsafeTerminalBytes(text);
    expect(found[0]?.rule).toBe(rule);
    expect(isSafeTerminalOutput(text)).toBe(false);
    expect(isSafeTerminalOutput(enforceStrictOutput(text))).toBe(true);
  });
  test('reports positions and stops at the limit', () => {
    const found = findUnsafeTerminalBytes('ab\u0000\u0000\u0000', 2);
    expect(found.map((v) => v.index)).toEqual([2, 3]);
    expect(found[0]?.excerpt).toContain('U+0000');
  });
  test('enforceStrictOutput keeps SGR and text', () => {
    expect(enforceStrictOutput(`${RED}ok\u001b[2J${RESET}`)).toBe(`${RED}ok[2J${RESET}`);
  });
});

describe('line isolation (internal)', () => {
  test('colour carried across lines is re-applied and reset; uncoloured lines are untouched', async () => {
    const { isolateText } = await import('../src/ansi.js');
    expect(isolateText('a\nb')).toBe('a\nb');
    expect(isolateText(`x\n${RED}one\ntwo\u001b[0m\nthree`)).toBe(
      `x\n${RED}one${RESET}\n${RED}two${RESET}\nthree`,
    );
    expect(isolateText(`\u001b[1m\u001b[31mb\n\u001b[0;32mg\nz`)).toBe(
      `\u001b[1m\u001b[31mb${RESET}\n\u001b[1m\u001b[31m\u001b[0;32mg${RESET}\n\u001b[32mz${RESET}`,
    );
  });
  test('prefixBlock indents non-empty lines, or every line when asked', async () => {
    const { prefixBlock } = await import('../src/ansi.js');
    expect(prefixBlock('a\n\nb', '> ')).toBe('> a\n\n> b');
    expect(prefixBlock('a\n\nb', '> ', false)).toBe('> a\n> \n> b');
    expect(prefixBlock('', '> ')).toBe('');
  });
});
