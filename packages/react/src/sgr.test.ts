import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSgr } from './sgr.ts';

const CLASS = /^ca-sgr-(inverse|bold|dim|italic|underline|strike|fg-(1[0-5]|[0-9])|bg-(1[0-5]|[0-9]))$/;
const plain = (s: string): string => sanitizeTerminalText(s, { keepSgr: false });
const joined = (s: unknown): string =>
  parseSgr(s)
    .map((x) => x.text)
    .join('');

const escapes = fc.constantFrom(
  '\u001b[31m',
  '\u001b[0m',
  '\u001b[1;4;38;5;208m',
  '\u001b[38:2::10:20:30m',
  '\u001b[48;2;1;2m',
  '\u001b[2J',
  '\u001b]0;title\u0007',
  '\u001b]8;;https://x.invalid\u001b\\',
  '\u009b31m',
  '\u001bP1$q\u001b\\',
  '\u202e',
  '\r',
  '\u0000',
  '\u001b',
  '\u001b[',
  '\u001b[38;5m',
  '\u001b[7m',
);
const terminalText = fc
  .array(fc.oneof(fc.string(), escapes, fc.string({ unit: 'binary' })), { maxLength: 30 })
  .map((a) => a.join(''));

describe('parseSgr', () => {
  it('keeps exactly the text that remains once every escape is removed', () => {
    fc.assert(
      fc.property(terminalText, (s) => {
        expect(joined(s)).toBe(plain(s));
      }),
      { numRuns: 500 },
    );
  });

  it('emits only known classes and never an escape or control', () => {
    fc.assert(
      fc.property(terminalText, (s) => {
        for (const span of parseSgr(s)) {
          if (span.className !== '') for (const c of span.className.split(' ')) expect(c).toMatch(CLASS);
          expect(span.text).not.toMatch(
            /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/,
          );
          expect(span.text).not.toBe('');
        }
      }),
      { numRuns: 500 },
    );
  });

  it('maps basic, bright, 256 and true colours and resets', () => {
    expect(parseSgr('\u001b[31mred\u001b[0m plain')).toEqual([
      { text: 'red', className: 'ca-sgr-fg-1' },
      { text: ' plain', className: '' },
    ]);
    expect(parseSgr('\u001b[1;92;44mx')[0]?.className).toBe('ca-sgr-fg-10 ca-sgr-bg-4 ca-sgr-bold');
    expect(parseSgr('\u001b[38;5;196mx')[0]?.className).toBe('ca-sgr-fg-1');
    expect(parseSgr('\u001b[38;2;0;0;0mx')[0]?.className).toBe('ca-sgr-fg-0');
    expect(parseSgr('\u001b[38:5:4mx')[0]?.className).toBe('ca-sgr-fg-4');
    expect(parseSgr('\u001b[7;31mx')[0]?.className).toBe('ca-sgr-inverse ca-sgr-bg-1');
    expect(parseSgr('\u001b[mx')[0]?.className).toBe('');
    // A malformed extended colour changes nothing and does not swallow later codes.
    expect(parseSgr('\u001b[38;9;1mx')[0]?.className).toBe('ca-sgr-bold');
  });

  it('strips other escapes and keeps text', () => {
    expect(joined('a\u001b]0;evil\u0007b\u001b[2Jc\u001b]8;;http://x\u0007link\u001b]8;;\u0007')).toBe(
      'abclink',
    );
  });

  it('handles huge input without a hang', () => {
    const big = '\u001b[31mx\u001b[0m'.repeat(100_000);
    expect(parseSgr(big).length).toBeGreaterThan(0);
    expect(joined(big).length).toBe(100_000);
  });

  it('accepts non-strings', () => {
    expect(parseSgr(undefined)).toEqual([]);
    expect(parseSgr(42)).toEqual([{ text: '42', className: '' }]);
  });
});
