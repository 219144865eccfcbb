import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { loadInjectionCorpus } from '../src/corpus.js';
import {
  findUnsafeTerminalBytes,
  renderArtifact,
  stripSgr,
  tokenize,
  truncateToWidth,
  visibleWidth,
} from '../src/index.js';
import { CONTEXTS } from './contexts.js';
import { artifact, expectNoBleed, result } from './helpers.js';

const corpus = loadInjectionCorpus().payloads.map((p) => p.payload);

/** Escape-heavy fragments, so random strings hit the interesting parsers often. */
const fragment = fc.constantFrom(
  '\u001b',
  '\u001b[',
  '\u001b]',
  '\u001bP',
  '\u001b_',
  '\u001b\\',
  '\u0007',
  '\u009b',
  '\u009c',
  '\u009d',
  '\r',
  '\n',
  '\t',
  '\b',
  '\u0000',
  '\u202e',
  '\u2066',
  '\u2069',
  '\u200f',
  ';',
  ':',
  'm',
  '31',
  'H',
  '0',
  '漢',
  '👩‍💻',
  'e\u0301',
  '\ud800',
  'x',
  ' ',
);

/** Any string: fully random code units, escape-dense fragments, corpus payloads and mixes of them. */
const hostile = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.array(fragment, { maxLength: 40 }).map((parts) => parts.join('')),
  fc.constantFrom(...corpus),
  fc
    .tuple(fc.constantFrom(...corpus), fc.array(fragment, { maxLength: 10 }))
    .map(([p, f]) => p + f.join('') + p),
);

describe('any string placed anywhere renders safely and never throws', () => {
  test.each([true, false])('color=%s', (color) => {
    fc.assert(
      fc.property(
        hostile,
        fc.integer({ min: 8, max: 120 }),
        fc.nat({ max: CONTEXTS.length - 1 }),
        (s, width, i) => {
          const ctx = CONTEXTS[i]!;
          const out = ctx.render(s, { color, width });
          expect(findUnsafeTerminalBytes(out)).toEqual([]);
          if (!color) expect(out).not.toContain('\u001b');
          else expectNoBleed(out);
        },
      ),
      { numRuns: 400 },
    );
  });

  test('any JSON-ish payload under any kind renders safely', () => {
    const kind = fc.constantFrom('text', 'table', 'image', 'code', 'diff', 'error', 'other');
    fc.assert(
      fc.property(kind, fc.jsonValue({ maxDepth: 3 }), hostile, fc.boolean(), (k, payload, value, color) => {
        const out = renderArtifact(result(value, artifact(k, payload)), { color, width: 50 });
        expect(findUnsafeTerminalBytes(out)).toEqual([]);
      }),
      { numRuns: 300 },
    );
  });
});

describe('tables fit the width', () => {
  test('any cells (wide characters, SGR, hostile text) and any width: no line is wider than the width', () => {
    const cell = fc.oneof(
      hostile,
      fc.integer(),
      fc.constant(null),
      fc.constantFrom('漢字漢字漢字', '👩‍💻👩‍💻', '\u001b[31mred\u001b[0m'),
    );
    const rows = fc.array(
      fc.dictionary(fc.constantFrom('a', 'b', '名前', 'long column name', '\u001b[1mk'), cell),
      {
        maxLength: 6,
      },
    );
    fc.assert(
      fc.property(rows, fc.integer({ min: 8, max: 80 }), fc.boolean(), (df, width, color) => {
        const out = renderArtifact(result('t', artifact('table', { df })), { color, width });
        for (const line of out.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
        expect(findUnsafeTerminalBytes(out)).toEqual([]);
      }),
      { numRuns: 200 },
    );
  });
});

describe('width helpers', () => {
  test('truncateToWidth never exceeds the width and keeps a prefix of the visible text', () => {
    fc.assert(
      fc.property(fc.array(fragment, { maxLength: 30 }), fc.integer({ min: 0, max: 30 }), (parts, width) => {
        // Width helpers work on sanitised text: only SGR and printable characters.
        const text = parts
          .join('')
          .replace(/[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200f]/g, '');
        const sgrText = `\u001b[31m${text}\u001b[0m`;
        for (const t of [text, sgrText]) {
          const cut = truncateToWidth(t, width);
          expect(visibleWidth(cut)).toBeLessThanOrEqual(width);
          const kept = stripSgr(cut).replace(/…$/, '');
          expect(stripSgr(t).startsWith(kept)).toBe(true);
        }
      }),
    );
  });
});

describe('tokenizer', () => {
  test('tokens concatenate back to the source for every language', () => {
    const lang = fc.constantFrom(
      'javascript',
      'typescript',
      'python',
      'r',
      'shell',
      'json',
      'go',
      'rust' as const,
    );
    const src = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc
        .array(
          fc.constantFrom(
            '"',
            "'",
            '`',
            '"""',
            '//',
            '/*',
            '*/',
            '#',
            '\\',
            '\n',
            'if',
            'x',
            '0x1F',
            '1.5e3',
            ' ',
          ),
          {
            maxLength: 30,
          },
        )
        .map((p) => p.join('')),
    );
    fc.assert(
      fc.property(lang, src, (l, s) => {
        expect(
          tokenize(s, l)
            .map((t) => t.text)
            .join(''),
        ).toBe(s);
      }),
    );
  });
  test('classifies keywords, strings, comments and numbers', () => {
    const types = (src: string, lang: Parameters<typeof tokenize>[1]) =>
      tokenize(src, lang).map((t) => `${t.type}:${t.text}`);
    expect(types('def f(): return "a" # c', 'python')).toEqual([
      'keyword:def',
      'plain: f(): ',
      'keyword:return',
      'plain: ',
      'string:"a"',
      'plain: ',
      'comment:# c',
    ]);
    expect(types("x <- TRUE # r\ny <- 'a'", 'r')).toContain('constant:TRUE');
    expect(types('echo "$HOME" # hi', 'shell')).toEqual([
      'keyword:echo',
      'plain: ',
      'string:"$HOME"',
      'plain: ',
      'comment:# hi',
    ]);
    expect(types('{"a": 1, "b": null}', 'json')).toContain('number:1');
    expect(types('fn main() { let x = 0x1F; } /* c */', 'rust')).toContain('comment:/* c */');
    expect(types('s := `multi\nline`', 'go')).toContain('string:`multi\nline`');
    expect(types('x1 = 2', 'javascript')).toEqual(['plain:x1 = ', 'number:2']);
    expect(types('"""doc\nstring"""', 'python')).toEqual(['string:"""doc\nstring"""']);
  });
});
