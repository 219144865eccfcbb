import { isSafeTerminalOutput } from '@codeagent/terminal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { StreamSanitizer } from '../src/text-stream.js';

function feed(chunks: readonly string[]): string {
  const s = new StreamSanitizer();
  return chunks.map((c) => s.push(c)).join('') + s.flush();
}

describe('StreamSanitizer', () => {
  it('keeps an SGR colour split across chunks', () => {
    expect(feed(['plain \u001b[3', '1mred\u001b[0m'])).toBe('plain \u001b[31mred\u001b[0m');
  });

  it('removes an OSC title split across chunks, keeping the text around it', () => {
    expect(feed(['a\u001b]0;pwn', 'ed\u0007b'])).toBe('ab');
  });

  it('drops an escape that never ends', () => {
    expect(feed(['x\u001b]52;c;', 'Zm9v'])).toBe('x');
  });

  it('output is always terminal-safe however the text is split (property)', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '\u001b',
        '\u001b[',
        '\u001b]',
        '\u0007',
        '\u001b\\',
        '\u009b',
        '\u202e',
        '31m',
        '2J',
        ';',
        'P',
      ),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (chunks) => {
        expect(isSafeTerminalOutput(feed(chunks))).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});
