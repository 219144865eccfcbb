import { stripSgr, visibleWidth } from '@codeagent/terminal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Spinner } from '../src/spinner.js';

/** The visible text of the last spinner redraw. */
function draw(label: string, width: number, color: boolean): string {
  const out: string[] = [];
  const spinner = new Spinner(
    (t) => out.push(t),
    true,
    () => 1_000,
    color,
    () => width,
  );
  spinner.start();
  spinner.setLabel(label);
  spinner.tick();
  return stripSgr(out.at(-1) ?? '').replace('\r\u001b[2K', '');
}

describe('Spinner', () => {
  it('names the work, the time and how to interrupt it', () => {
    expect(draw('running npm test', 80, false)).toBe('⠋ running npm test 0.0s · esc to interrupt');
  });

  it('stays on one row of any width: the label is cut, then the hint dropped (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 200 }),
        fc.integer({ min: 1, max: 200 }),
        fc.boolean(),
        (label, w, c) => {
          const line = draw(label.replace(/[\u0000-\u001f\u007f-\u009f]/gu, ''), w, c);
          expect(line.includes('\n')).toBe(false);
          expect(visibleWidth(line)).toBeLessThanOrEqual(Math.max(10, w - 1));
        },
      ),
    );
    expect(draw('running a very long command name indeed', 30, false)).toMatch(
      /^⠋ running a very long c… 0\.0s$/u,
    );
  });
});
