import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { computePositionedHunks, type PositionedHunk } from '../src/diff.js';
import { computeHunkDiffs } from '../src/index.js';

/** Splits text into lines that keep their `\n` (the last one may have none). */
function chunks(text: string): string[] {
  return text.match(/[^\n]*\n|[^\n]+$/g) ?? [];
}

/**
 * Applies positioned hunks to `before`, checking each hunk's oldText is exactly the text it
 * replaces. Hunks apply from the last to the first so earlier positions stay valid.
 */
function apply(before: string, hunks: readonly PositionedHunk[]): string {
  const lines = chunks(before);
  for (const hunk of [...hunks].reverse()) {
    const replaced = lines.slice(hunk.oldIndex, hunk.oldIndex + hunk.oldLines).join('');
    expect(replaced).toBe(hunk.diff.oldText ?? '');
    lines.splice(hunk.oldIndex, hunk.oldLines, ...chunks(hunk.diff.newText));
  }
  return lines.join('');
}

/** Random multi-line texts from a small alphabet (so diffs share lines), CRLF or LF, with or without a final newline. */
const text = fc
  .record({
    lines: fc.array(fc.constantFrom('a', 'b', 'c', 'dd', '', ' x', 'é', '`', '\\ No newline', 'q\r'), {
      maxLength: 25,
    }),
    eol: fc.constantFrom('\n', '\r\n'),
    final: fc.boolean(),
  })
  .map(({ lines, eol, final }) => (lines.length === 0 ? '' : lines.join(eol) + (final ? eol : '')));

describe('computeHunkDiffs', () => {
  it('property: applying the hunks to before gives after (context 3, 0 and 1)', () => {
    fc.assert(
      fc.property(text, text, fc.constantFrom(3, 0, 1), (before, after, context) => {
        const hunks = computePositionedHunks('f', before, after, { context });
        expect(apply(before, hunks)).toBe(after);
        expect(hunks.map((h) => h.diff)).toEqual(computeHunkDiffs('f', before, after, { context }));
      }),
      { numRuns: 400 },
    );
  });

  it('property: past maxEditLength the change is one whole-file hunk, still exact', () => {
    fc.assert(
      fc.property(text, text, fc.constantFrom(0, 1, 2, 5), (before, after, maxEditLength) => {
        const hunks = computePositionedHunks('f', before, after, { maxEditLength });
        expect(apply(before, hunks)).toBe(after);
      }),
      { numRuns: 300 },
    );
  });

  it('a change past the quick 64-edit search still gets its real hunks (the second, full search)', () => {
    const lines = Array.from({ length: 600 }, (_, i) => `line ${i}\n`);
    const before = lines.join('');
    // 150 changed lines spread over the file: 300 edits, past the quick search, under maxEditLength (1000).
    const after = lines.map((l, i) => (i % 4 === 1 ? `changed ${i}\n` : l)).join('');
    const hunks = computePositionedHunks('p', before, after, { context: 0 });
    expect(hunks).toHaveLength(150);
    expect(hunks.every((h) => h.oldLines === 1)).toBe(true);
    expect(apply(before, hunks)).toBe(after);
  });

  it('property: long texts with many edits apply exactly whatever the bound (quick search, full search, whole file)', () => {
    const long = fc
      .array(fc.constantFrom('a', 'b', 'c', 'dd', '', 'x y', 'é'), { minLength: 60, maxLength: 220 })
      .map((ls) => `${ls.join('\n')}\n`);
    fc.assert(
      fc.property(long, long, fc.constantFrom(70, 150, 1000), (before, after, maxEditLength) => {
        const hunks = computePositionedHunks('f', before, after, { maxEditLength });
        expect(apply(before, hunks)).toBe(after);
      }),
      { numRuns: 150 },
    );
  });

  it('a full rewrite of a large file is one whole-file diff (no quadratic diff on the hot path)', () => {
    const before = Array.from({ length: 5000 }, (_, i) => `old ${i}\n`).join('');
    const after = Array.from({ length: 5000 }, (_, i) => `new ${i}\n`).join('');
    expect(computeHunkDiffs('p', before, after)).toEqual([{ path: 'p', oldText: before, newText: after }]);
    expect(computeHunkDiffs('p', '', after, { maxEditLength: 0 })).toEqual([
      { path: 'p', oldText: null, newText: after },
    ]);
  });

  it('reordered lines (small lower bound, long edit) fall back when jsdiff gives up', () => {
    const lines = Array.from({ length: 400 }, (_, i) => `line ${i}\n`);
    const before = lines.join('');
    const after = [...lines].reverse().join('');
    const hunks = computePositionedHunks('p', before, after, { maxEditLength: 50 });
    expect(hunks.map((h) => h.diff)).toEqual([{ path: 'p', oldText: before, newText: after }]);
    expect(apply(before, hunks)).toBe(after);
  });

  it('invalid numeric options fall back to the defaults', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\n';
    const after = before.replace('a', 'A').replace('h', 'H');
    const expected = computeHunkDiffs('p', before, after);
    for (const bad of [Number.NaN, -1, undefined]) {
      expect(
        computeHunkDiffs('p', before, after, { context: bad as number, maxEditLength: bad as number }),
      ).toEqual(expected);
    }
  });

  it('property: identical texts give []', () => {
    fc.assert(
      fc.property(text, (t) => {
        expect(computeHunkDiffs('f', t, t)).toEqual([]);
      }),
    );
  });

  it('property: oldText is null exactly when the hunk has no old lines; hunks never overlap', () => {
    fc.assert(
      fc.property(text, text, (before, after) => {
        const hunks = computePositionedHunks('f', before, after);
        let end = 0;
        for (const h of hunks) {
          expect(h.diff.oldText === null).toBe(h.oldLines === 0);
          expect(h.diff.path).toBe('f');
          expect(h.oldIndex).toBeGreaterThanOrEqual(end);
          end = h.oldIndex + h.oldLines;
        }
      }),
    );
  });

  it.each([
    ['empty -> text: one new-file hunk', '', 'a\nb\n', [{ path: 'p', oldText: null, newText: 'a\nb\n' }]],
    ['text -> empty', 'a\n', '', [{ path: 'p', oldText: 'a\n', newText: '' }]],
    ['adds a final newline', 'a\nb', 'a\nb\n', [{ path: 'p', oldText: 'a\nb', newText: 'a\nb\n' }]],
    ['removes a final newline', 'a\nb\n', 'a\nb', [{ path: 'p', oldText: 'a\nb\n', newText: 'a\nb' }]],
    ['keeps CRLF', 'a\r\nb\r\n', 'a\r\nc\r\n', [{ path: 'p', oldText: 'a\r\nb\r\n', newText: 'a\r\nc\r\n' }]],
    [
      'a line that looks like the EOF marker',
      '\\ x\n',
      '\\ y\n',
      [{ path: 'p', oldText: '\\ x\n', newText: '\\ y\n' }],
    ],
  ])('%s', (_name, before, after, expected) => {
    expect(computeHunkDiffs('p', before, after)).toEqual(expected);
  });

  it('context 3: changes 7 lines apart are two hunks, 6 lines apart one', () => {
    const lines = (n: number) => Array.from({ length: n }, (_, i) => `l${i + 1}\n`);
    const before = lines(20).join('');
    const two = before.replace('l2\n', 'X\n').replace('l10\n', 'Y\n');
    expect(computeHunkDiffs('p', before, two)).toHaveLength(2);
    const one = before.replace('l2\n', 'X\n').replace('l9\n', 'Y\n');
    expect(computeHunkDiffs('p', before, one)).toHaveLength(1);
    expect(computeHunkDiffs('p', before, one)[0]).toEqual({
      path: 'p',
      oldText: lines(12).join(''),
      newText: lines(12).join('').replace('l2\n', 'X\n').replace('l9\n', 'Y\n'),
    });
  });
});
