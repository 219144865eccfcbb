import { describe, expect, it } from 'vitest';
import selfFixtures from '@codeagent/render-intent/fixtures' with { type: 'json' };
import fixtureFile from '../fixtures/builtin-tools.json' with { type: 'json' };
import {
  isContentBlock,
  isFileDiff,
  isToolCallView,
  isToolResultView,
  toContentBlocks,
} from '../src/index.js';

describe('view guards (for views read from storage or third-party presenters)', () => {
  it.each([
    [{ card: 'generic', title: 't' }, true],
    [{ card: 'generic', title: 't', kind: 'read', rawInput: { a: 1 }, extra: 'ignored' }, true],
    [{ card: 'generic', title: 't', kind: 'bash' }, false],
    [
      {
        card: 'generic',
        title: 't',
        content: [
          { type: 'text', text: 'x' },
          { type: 'image', mime: 'image/png', b64: '' },
        ],
      },
      true,
    ],
    [{ card: 'generic', title: 't', content: [{ type: 'html', html: '<b>' }] }, false],
    [{ card: 'generic', title: 't', locations: [{ path: 'a', line: 0 }] }, false],
    [{ card: 'generic', title: 't', locations: [{ path: 'a', line: 3 }] }, true],
    [{ card: 'generic' }, false],
    [{ card: 'terminal', title: 'ls', cwd: '/' }, true],
    [{ card: 'terminal', title: 'ls', cwd: 5 }, false],
    [{ card: 'diff', title: 'd', diffs: [{ path: 'a', oldText: null, newText: '' }] }, true],
    [{ card: 'diff', title: 'd', diffs: [{ path: 'a', oldText: null, newText: null }] }, false],
    [{ card: 'diff', title: 'd' }, false],
    [{ card: 'table', title: 't' }, false],
    [{ card: '__proto__', title: 't' }, false],
    [null, false],
    [[{ card: 'generic', title: 't' }], false],
    ['generic', false],
  ])('isToolCallView(%j) = %s', (view, expected) => {
    expect(isToolCallView(view)).toBe(expected);
  });

  it.each([
    [{ card: 'generic' }, true],
    [{ card: 'generic', title: 1 }, false],
    [{ card: 'terminal', output: 'x', exitCode: 0 }, true],
    [{ card: 'terminal', exitCode: 1.5 }, false],
    [{ card: 'terminal', exitCode: '0' }, false],
    [{ card: 'terminal', signal: 9 }, false],
    [{ card: 'diff', diffs: [] }, true],
    [{ card: 'diff', diffs: {} }, false],
    [{ card: 'chart' }, false],
    [undefined, false],
  ])('isToolResultView(%j) = %s', (view, expected) => {
    expect(isToolResultView(view)).toBe(expected);
  });

  it('content block and file diff guards', () => {
    expect(isContentBlock({ type: 'text', text: '' })).toBe(true);
    expect(isContentBlock({ type: 'image', mime: 'image/png' })).toBe(false);
    expect(isFileDiff({ path: 'p', oldText: 'a', newText: 'b' })).toBe(true);
    expect(isFileDiff({ path: 'p', newText: 'b' })).toBe(false);
  });

  it('toContentBlocks normalises strings, nullish values and junk', () => {
    expect(toContentBlocks('x')).toEqual([{ type: 'text', text: 'x' }]);
    expect(toContentBlocks(null)).toEqual([]);
    expect(toContentBlocks({ a: 10n })).toEqual([{ type: 'text', text: '{"a":"10n"}' }]);
  });
});

describe('the ./fixtures subpath resolves by package name', () => {
  it('is the same data as the file', () => {
    expect(selfFixtures).toEqual(fixtureFile);
  });
});
