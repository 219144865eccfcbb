import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { diffHunks, locateLines } from './diff-model.ts';

const lines = fc
  .array(fc.constantFrom('a', 'b', 'c', 'd', '', 'x y'), { maxLength: 40 })
  .map((l) => l.map((s) => `${s}\n`).join(''));

describe('diffHunks', () => {
  it('numbers lines as they are in the old and new text', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const oldLines = a.split('\n');
        const newLines = b.split('\n');
        for (const hunk of diffHunks(a, b)) {
          for (const line of hunk.lines) {
            if (line.oldNo !== null) expect(oldLines[line.oldNo - 1]).toBe(line.text);
            if (line.newNo !== null) expect(newLines[line.newNo - 1]).toBe(line.text);
          }
        }
      }),
      { numRuns: 300 },
    );
  });

  it('rebuilds both sides with infinite context', () => {
    fc.assert(
      fc.property(lines, lines, (a, b) => {
        const hunks = diffHunks(a, b, { context: Number.POSITIVE_INFINITY });
        if (a === b) {
          expect(hunks).toEqual([]);
          return;
        }
        const all = hunks.flatMap((h) => h.lines);
        const side = (skip: string) =>
          all
            .filter((l) => l.type !== skip)
            .map((l) => `${l.text}\n`)
            .join('');
        expect(side('add')).toBe(a);
        expect(side('del')).toBe(b);
      }),
      { numRuns: 300 },
    );
  });

  it('offsets numbers and hides them when the position is unknown', () => {
    const [hunk] = diffHunks('x\n', 'y\n', { oldStart: 10, newStart: 12 });
    expect(hunk?.header).toBe('@@ -10,1 +12,1 @@');
    expect(hunk?.lines.map((l) => [l.oldNo, l.newNo])).toEqual([
      [10, null],
      [null, 12],
    ]);
    const [unknown] = diffHunks('x\n', 'y\n', { oldStart: null, newStart: null });
    expect(unknown?.header).toBe('');
    expect(unknown?.lines.every((l) => l.oldNo === null && l.newNo === null)).toBe(true);
  });

  it('falls back to remove-all/add-all for a change too long to diff', () => {
    const a = Array.from({ length: 3000 }, (_, i) => `a${i}\n`).join('');
    const b = Array.from({ length: 3000 }, (_, i) => `b${i}\n`).join('');
    const hunks = diffHunks(a, b);
    const count = (t: string) => hunks.flatMap((h) => h.lines).filter((l) => l.type === t).length;
    expect(count('del')).toBe(3000);
    expect(count('add')).toBe(3000);
  });
});

describe('locateLines', () => {
  it('finds a part only at a line start', () => {
    expect(locateLines('ab\nb\nc\n', 'b\n')).toEqual({ line: 2, end: 5 });
    expect(locateLines('a\nb\n', 'z')).toBeUndefined();
    expect(locateLines('a\nb\n', '')).toBeUndefined();
    expect(locateLines('x\ny\nx\ny\n', 'x\n', 2)).toEqual({ line: 3, end: 6 });
  });
});
