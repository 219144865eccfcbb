import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { OutputCapture } from '../src/capture.js';
import {
  languageFromPath,
  looksBinary,
  numberLines,
  splitLines,
  toPlainText,
  truncateLine,
  utf8CompleteLength,
  utf8SafeStart,
} from '../src/text.js';

describe('toPlainText', () => {
  it('strips colours, cursor moves, OSC titles/links/clipboard, DCS and C1 controls', () => {
    const raw =
      '\u001b[31mred\u001b[0m \u001b[2K\u001b[1Gline\n' +
      '\u001b]0;title\u0007\u001b]8;;https://evil.example\u001b\\link\u001b]8;;\u001b\\\n' +
      '\u001b]52;c;Y2xpcA==\u0007clip \u001bP1$qm\u001b\\dcs \u009b31mc1\u0007bell\n';
    expect(toPlainText(raw)).toBe('red line\nlink\nclip dcs c1bell\n');
  });

  it('applies carriage returns like a terminal and normalises CRLF', () => {
    expect(toPlainText('10%\r50%\r100%\ndone\r\nnext')).toBe('100%\ndone\nnext');
  });

  it('never leaves ESC, C0 (except \\n and \\t) or C1 controls (property)', () => {
    const piece = fc.oneof(
      fc.string(),
      fc.constantFrom(
        '\u001b[',
        '\u001b]',
        '\u001bP',
        '\u009b',
        '\u009d',
        '\u0007',
        '\r',
        '\u001b\\',
        '\u001b',
        '\t',
        '\n',
      ),
      fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const out = toPlainText(pieces.join(''));
        expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
      }),
      { numRuns: 300 },
    );
  });

  it('keeps bidi characters and ordinary text untouched (the value is not a display)', () => {
    expect(toPlainText('a\u202eb ✓ 漢字\tc')).toBe('a\u202eb ✓ 漢字\tc');
  });
});

describe('line helpers', () => {
  it('numbers lines like cat -n', () => {
    expect(numberLines(['a', 'b'], 9)).toBe('     9\ta\n    10\tb');
  });
  it('splits LF and CRLF without a phantom last line', () => {
    expect(splitLines('a\r\nb\n')).toEqual(['a', 'b']);
    expect(splitLines('')).toEqual([]);
    expect(splitLines('\n')).toEqual(['']);
  });
  it('truncates long lines with a marker and never splits a surrogate pair', () => {
    expect(truncateLine('abcdef', 3)).toBe('abc… [3 more characters]');
    const emoji = `a${'😀'.repeat(3)}`;
    expect(truncateLine(emoji, 2)).toBe('a… [6 more characters]');
  });
  it('guesses languages from extensions and special names', () => {
    expect(languageFromPath('src/a.tsx')).toBe('tsx');
    expect(languageFromPath('x/Dockerfile')).toBe('dockerfile');
    expect(languageFromPath('Makefile')).toBe('makefile');
    expect(languageFromPath('analysis.R')).toBe('r');
    expect(languageFromPath('.bashrc')).toBe('text');
    expect(languageFromPath('weird.unknownext')).toBe('text');
  });
  it('detects binary samples', () => {
    expect(looksBinary(Buffer.from('plain text\n'))).toBe(false);
    expect(looksBinary(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x00, 0x01]))).toBe(true);
    expect(looksBinary(Buffer.from('\u001b[31mcolour\u001b[0m'))).toBe(false);
    expect(looksBinary(Buffer.alloc(0))).toBe(false);
  });
});

describe('UTF-8 boundaries', () => {
  it('finds complete prefixes and sequence starts (property)', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.nat(), (s, cut) => {
        const buf = Buffer.from(s, 'utf8');
        const at = buf.length === 0 ? 0 : cut % (buf.length + 1);
        const head = buf.subarray(0, at);
        const n = utf8CompleteLength(head);
        // Whole code points only: the decoded prefix and suffix are the text's own (a U+FFFD the text
        // itself holds is no sign of a cut sequence, so compare with the text, not with U+FFFD).
        expect(s.startsWith(head.subarray(0, n).toString('utf8'))).toBe(true);
        const start = utf8SafeStart(buf, at);
        expect(s.endsWith(buf.subarray(start).toString('utf8'))).toBe(true);
        expect(at - n).toBeLessThan(4);
        expect(start - at).toBeLessThan(4);
      }),
      { numRuns: 300 },
    );
  });
});

describe('OutputCapture', () => {
  it('keeps everything under the cap', () => {
    const c = new OutputCapture(100);
    c.write(Buffer.from('hello '));
    c.write(Buffer.from('world'));
    expect(c.snapshot()).toEqual({ text: 'hello world', totalBytes: 11, droppedBytes: 0 });
  });

  it('keeps head and tail of any chunking and counts the dropped middle (property)', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: 'grapheme-ascii', maxLength: 40 }), { maxLength: 40 }),
        fc.integer({ min: 2, max: 64 }),
        (chunks, cap) => {
          const c = new OutputCapture(cap);
          for (const chunk of chunks) c.write(Buffer.from(chunk));
          const all = chunks.join('');
          const snap = c.snapshot();
          expect(snap.totalBytes).toBe(all.length);
          if (all.length <= cap) {
            expect(snap).toEqual({ text: all, totalBytes: all.length, droppedBytes: 0 });
          } else {
            const head = all.slice(0, Math.ceil(cap / 2));
            const tail = all.slice(all.length - (cap - Math.ceil(cap / 2)));
            expect(snap.droppedBytes).toBe(all.length - cap);
            expect(snap.text).toBe(`${head}\n\n[... ${all.length - cap} bytes omitted ...]\n\n${tail}`);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('never splits a multi-byte character at either cut', () => {
    const c = new OutputCapture(9);
    c.write(Buffer.from('€€€€€€€€'));
    const snap = c.snapshot();
    expect(snap.text).not.toContain('\uFFFD');
    expect(snap.text.startsWith('€')).toBe(true);
    expect(snap.text.endsWith('€')).toBe(true);
    expect(snap.totalBytes).toBe(24);
  });
});
