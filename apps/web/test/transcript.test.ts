import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownBlocks } from '../src/client/transcript.tsx';

const squash = (s: string) => s.replace(/\s+/g, '');

describe('markdownBlocks', () => {
  it('splits at blank lines and keeps code fences whole', () => {
    expect(markdownBlocks('a\nb\n\nc')).toEqual(['a\nb', 'c']);
    expect(markdownBlocks('x\n\n```ts\nconst a = 1;\n\nconst b = 2;\n```\n\ny')).toEqual([
      'x',
      '```ts\nconst a = 1;\n\nconst b = 2;\n```',
      'y',
    ]);
    expect(markdownBlocks('~~~\n\n```\n\n~~~\nafter')).toEqual(['~~~\n\n```\n\n~~~\nafter']);
    expect(markdownBlocks('')).toEqual([]);
    expect(markdownBlocks('\n\n\n')).toEqual([]);
    // An unclosed fence (still streaming) stays one block.
    expect(markdownBlocks('```\ncode\n\nmore')).toEqual(['```\ncode\n\nmore']);
  });

  it('never loses or duplicates content, and stays linear on huge input', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('a', ' ', '\n', '`', '~', '\t', '#'), maxLength: 300 }),
        (text) => {
          expect(squash(markdownBlocks(text).join('\n'))).toBe(squash(text));
        },
      ),
      { numRuns: 500 },
    );
    const huge = 'word '.repeat(40).concat('\n\n').repeat(20_000);
    expect(markdownBlocks(huge)).toHaveLength(20_000);
  });
});
