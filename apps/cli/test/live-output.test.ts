import { describe, expect, it } from 'vitest';
import { LiveOutput, tailLines } from '../src/live-output.js';

describe('the live tail of a running call', () => {
  it('keeps the last lines, applies carriage returns and strips every escape', () => {
    expect(tailLines('a\nb\nc\nd\n', 2)).toEqual(['c', 'd']);
    expect(tailLines('10%\r50%\r100%\n', 3)).toEqual(['100%']);
    expect(tailLines('\u001b[31mred\u001b[0m \u001b]0;title\u0007x\u202e\n', 1)).toEqual(['red x']);
    expect(tailLines('a\tb', 1)).toEqual(['a  b']);
  });

  it('redraws in place: erases exactly the rows it drew, and no SGR without colour', () => {
    const out: string[] = [];
    const live = new LiveOutput((t) => out.push(t), { color: false, columns: () => 40, rows: () => 30 });
    live.push('c1', 'one\ntwo\n');
    live.draw();
    expect(out.join('')).toBe('  ┆ one\u001b[K\n  ┆ two\u001b[K\n');
    out.length = 0;
    live.push('c1', 'three\n');
    live.draw();
    expect(out.join('')).toBe('\r\u001b[2A\u001b[J  ┆ one\u001b[K\n  ┆ two\u001b[K\n  ┆ three\u001b[K\n');
    expect(out.join('')).not.toMatch(/\u001b\[[0-9;]*m/);
    out.length = 0;
    live.end('c1');
    expect(out.join('')).toBe('\r\u001b[3A\u001b[J');
    expect(live.call).toBeNull();
  });

  it('cuts lines to the width, so the block height is exact, and bounds what it keeps', () => {
    const out: string[] = [];
    const live = new LiveOutput((t) => out.push(t), { color: true, columns: () => 20, rows: () => 9 });
    live.push('c1', `${'x'.repeat(1_000_000)}\n${'漢'.repeat(50)}\n`);
    live.draw();
    const rows = out.join('').split('\n').filter(Boolean);
    // A third of 9 rows: three at most.
    expect(rows.length).toBeLessThanOrEqual(3);
    for (const row of rows) expect(row.replace(/\u001b\[[0-9;]*[mK]/g, '').length).toBeLessThanOrEqual(20);
    // Another call's output starts a new tail.
    live.push('c2', 'fresh\n');
    out.length = 0;
    live.draw();
    expect(out.join('')).toContain('fresh');
    expect(out.join('')).not.toContain('漢');
  });
});
