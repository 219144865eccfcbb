import { describe, expect, test } from 'vitest';
import { renderArtifact, renderToolCall, renderToolResult, visibleWidth } from '../src/index.js';
import { safeJson } from '../src/text.js';
import { artifact, expectSafe, result } from './helpers.js';

const plain = { color: false, width: 60 } as const;

describe('hostile structure', () => {
  test('cyclic, repeated, bigint and deeply nested raw input never throws', () => {
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic.self = cyclic;
    const shared = { x: 1 };
    expect(safeJson(cyclic)).toBe('{"a":1,"self":"[circular]"}');
    expect(safeJson({ p: shared, q: shared })).toBe('{"p":{"x":1},"q":{"x":1}}');
    expect(safeJson({ n: 10n, f: () => 1 })).toBe('{"n":"10n","f":"[function]"}');
    let deep: unknown = 'leaf';
    for (let i = 0; i < 20_000; i++) deep = [deep];
    expect(safeJson(deep)).toBe('[unserialisable value]');
    for (const rawInput of [cyclic, deep, { big: 1n }]) {
      const out = renderToolCall({ card: 'generic', title: 'T', rawInput }, plain);
      expect(out.startsWith('● T\n  ')).toBe(true);
    }
  });
  test('a huge table shows the first rows only and stays within the width', () => {
    const df = Array.from({ length: 100_000 }, (_, i) => ({ i, text: 'x'.repeat(i % 200) }));
    const out = renderArtifact(result('t', artifact('table', { df })), plain);
    const lines = out.split('\n');
    expect(lines).toHaveLength(2 + 50 + 1);
    expect(lines.at(-1)).toBe('100000 rows × 2 columns, first 50 shown');
    for (const line of lines) expect(visibleWidth(line)).toBeLessThanOrEqual(60);
  });
  test('a 1 MB single-line cell is cut to the width', () => {
    const out = renderArtifact(result('t', artifact('table', { df: [{ a: '漢'.repeat(500_000) }] })), plain);
    for (const line of out.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(60);
  });
  test('views with wrong field types from a restored session degrade, they do not crash', () => {
    const bad = {
      card: 'generic',
      title: 42,
      kind: { evil: true },
      content: 'not an array',
      locations: [null, { path: { p: 1 }, line: '3' }],
    } as unknown as Parameters<typeof renderToolCall>[0];
    const out = renderToolCall(bad, plain);
    expect(out.split('\n')[0]).toBe('● 42');
    expectSafe(out);
    const diff = {
      card: 'diff',
      diffs: [null, 7, { path: 1, oldText: 2, newText: 3 }],
    } as unknown as Parameters<typeof renderToolResult>[0];
    expect(renderToolResult(diff, {}, plain)).toBe('  1 +1 -1\n  @@ -1,1 +1,1 @@\n  -2\n  +3');
  });
  test('XSS-looking text is plain text in a terminal', () => {
    const xss = '<img src=x onerror=alert(1)>';
    expect(renderArtifact(result(xss, artifact('text', { text: xss })), plain)).toBe(xss);
  });
});
