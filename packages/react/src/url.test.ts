import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { safeHref } from './url.ts';

describe('safeHref', () => {
  it('keeps http(s), mailto and relative URLs', () => {
    for (const url of [
      'https://example.com/a?b#c',
      'http://x.test',
      'mailto:a@b.c',
      '/docs',
      'docs/a.md',
      '#top',
      '?q=1',
      '//cdn.example/x',
    ]) {
      expect(safeHref(url)).toBe(url);
    }
  });

  it('drops every other scheme, however it is spelled', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'java\nscript:alert(1)',
      'java\u0000script:alert(1)',
      'javascript\u200b:alert(1)',
      '\u202ejavascript:alert(1)',
      'data:text/html,<script>',
      'vbscript:msgbox',
      'file:///etc/passwd',
      'blob:https://x/1',
      'about:blank',
    ]) {
      expect(safeHref(url)).toBeUndefined();
    }
    expect(safeHref(undefined)).toBeUndefined();
    expect(safeHref('')).toBeUndefined();
  });

  it('never returns a URL a browser would read with a dangerous scheme', () => {
    const dangerous = fc.constantFrom('javascript', 'data', 'vbscript', 'file', 'blob');
    const noise = fc.constantFrom('', '\t', '\n', '\r', ' ', '\u0000', '\u200b', '\u00ad');
    fc.assert(
      fc.property(
        fc.array(noise, { maxLength: 3 }),
        dangerous,
        fc.array(noise, { maxLength: 3 }),
        fc.string(),
        (pre, scheme, mid, rest) => {
          const mixed = scheme
            .split('')
            .map((c, i) => (i % 2 ? c.toUpperCase() : c) + (mid[i % Math.max(1, mid.length)] ?? ''))
            .join('');
          const href = safeHref(`${pre.join('')}${mixed}:${rest}`);
          if (href !== undefined) {
            // What the browser sees after dropping tab/newline and trimming controls and spaces.
            const seen = href.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, '');
            expect(seen.toLowerCase().startsWith(`${scheme}:`)).toBe(false);
            expect(new URL(href, 'https://base.test/').protocol).toMatch(/^(https?|mailto):$/);
          }
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('is total on arbitrary strings and only ever yields safe protocols', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const href = safeHref(s);
        if (href === undefined) return;
        let protocol = 'https:';
        try {
          protocol = new URL(href, 'https://base.test/').protocol;
        } catch {
          return; // unparsable: a browser does not follow it
        }
        expect(['http:', 'https:', 'mailto:']).toContain(protocol);
      }),
      { numRuns: 2000 },
    );
  });
});
