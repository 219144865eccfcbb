import { toolResult } from '@codeagent/artifact-schema';
import { describe, expect, test } from 'vitest';
import { base64ByteLength, formatBytes, renderArtifact, stripSgr, visibleWidth } from '../src/index.js';
import { artifact, expectNoBleed, expectSafe, result } from './helpers.js';

const plain = { color: false, width: 60 } as const;
const color = { color: true, width: 60 } as const;
const RED = '\u001b[31m';

describe('text', () => {
  test('renders the text, header with status glyph when titled', () => {
    const r = toolResult('hello', { kind: 'text', title: 'Greeting', payload: { text: 'hello\nworld\n' } });
    expect(renderArtifact(r, plain)).toBe('✓ Greeting\nhello\nworld');
  });
  test('tool colours survive with colour on and are reset at each line end, re-applied on the next', () => {
    const r = result('x', artifact('text', { text: `${RED}one\ntwo\u001b[0m\nthree` }));
    const out = renderArtifact(r, color);
    expect(out.split('\n')).toEqual([`${RED}one\u001b[0m`, `${RED}two\u001b[0m`, 'three']);
    expectNoBleed(out);
  });
  test('colour off strips tool colours too', () => {
    const r = result('x', artifact('text', { text: `${RED}red\u001b[0m` }));
    expect(renderArtifact(r, plain)).toBe('red');
  });
  test('a bare artifact renders as well as a ToolResult or an event', () => {
    const a = artifact('text', { text: 'bare' });
    expect(renderArtifact(a, plain)).toBe('bare');
    expect(renderArtifact({ value: 'v', artifact: a }, plain)).toBe('bare');
  });
});

describe('table', () => {
  const df = [
    { name: 'Alice', age: 30, city: 'Paris' },
    { name: 'Bob', age: 4, city: null },
  ];
  test('aligned columns, numbers right-aligned, caption', () => {
    const out = renderArtifact(result('t', artifact('table', { df })), plain);
    expect(out.split('\n')).toEqual([
      'name  │ age │ city',
      '──────┼─────┼──────',
      'Alice │  30 │ Paris',
      'Bob   │   4 │',
      '2 rows × 3 columns',
    ]);
  });
  test('declared columns keep their order and show for 0 rows', () => {
    const out = renderArtifact(
      result('t', artifact('table', { df: [], columns: [{ name: 'b', type: 'string' }, { name: 'a' }] })),
      plain,
    );
    expect(out.split('\n')[0]).toBe('b │ a');
    expect(out).toContain('0 rows × 2 columns');
  });
  test('wide CJK and emoji cells are measured by columns and truncated to the width', () => {
    const rows = [
      {
        名前: '漢字漢字漢字漢字漢字漢字漢字漢字漢字漢字',
        note: '👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻👩‍💻',
      },
    ];
    for (const width of [20, 31, 40]) {
      const out = renderArtifact(result('t', artifact('table', { df: rows })), { color: false, width });
      for (const line of out.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(width);
      expect(out).toContain('…');
      // The separators of the header and of the row line up in columns.
      const [header = '', , row = ''] = out.split('\n');
      const col = (s: string) => visibleWidth(s.slice(0, s.indexOf('│')));
      expect(col(header)).toBe(col(row));
    }
  });
  test('embedded SGR in cells: widths ignore it, colour survives, and every cell resets it', () => {
    const rows = [{ status: `${RED}FAILED-${'x'.repeat(80)}`, n: 1 }];
    const out = renderArtifact(result('t', artifact('table', { df: rows })), { color: true, width: 30 });
    expectSafe(out, 'table');
    for (const line of out.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(30);
    const row = out.split('\n')[2] ?? '';
    expect(row).toContain(`${RED}FAILED`);
    // The cell's colour is closed before the separator that follows it.
    const cellEnd = row.indexOf('│');
    expect(row.lastIndexOf('\u001b[0m', cellEnd)).toBeGreaterThan(row.indexOf(RED));
    expectNoBleed(out);
  });
  test('too many columns collapse into a … column', () => {
    const row = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`column${i}`, i]));
    const out = renderArtifact(result('t', artifact('table', { df: [row] })), { color: false, width: 40 });
    for (const line of out.split('\n')) expect(visibleWidth(line)).toBeLessThanOrEqual(40);
    expect(out.split('\n')[0]?.endsWith('…')).toBe(true);
    expect(out).toMatch(/30 columns, \d+ hidden/);
  });
  test('row limit with a footer; newlines and tabs in cells stay on one line', () => {
    const df2 = Array.from({ length: 10 }, (_, i) => ({ v: `a\tb\nc${i}` }));
    const out = renderArtifact(result('t', artifact('table', { df: df2 })), {
      color: false,
      width: 40,
      maxTableRows: 3,
    });
    const lines = out.split('\n');
    expect(lines).toHaveLength(2 + 3 + 1);
    expect(lines[2]).toBe('a b↵c0');
    expect(lines.at(-1)).toBe('10 rows × 1 column, first 3 shown');
  });
  test('non-object rows become a value column; nested values show as JSON', () => {
    const out = renderArtifact(result('t', artifact('table', { df: [1, { value: { a: [1] } }] })), plain);
    expect(out).toContain('{"a":[1]}');
  });
  test('a df that is not an array falls back to the value', () => {
    expect(renderArtifact(result('fallback', artifact('table', { df: 'nope' })), plain)).toBe('fallback');
  });
});

describe('image', () => {
  test('labelled placeholder with mime and decoded size', () => {
    const b64 = Buffer.alloc(3000, 7).toString('base64');
    const out = renderArtifact(
      toolResult('img', {
        kind: 'image',
        payload: { images: [{ mime: 'image/png', b64 }], output: 'saved' },
      }),
      plain,
    );
    expect(out).toBe(`[image image/png, ${formatBytes(3000)}]\noutput:\nsaved`);
  });
  test('base64 size matches the decoded length, with padding and whitespace', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 1000, 4097]) {
      const b64 = Buffer.alloc(n, 1).toString('base64');
      expect(base64ByteLength(b64)).toBe(n);
      expect(base64ByteLength(b64.replace(/(.{4})/g, '$1\n'))).toBe(n);
    }
    expect(formatBytes(512)).toBe('512 B');
    expect(formatBytes(1536)).toBe('1.5 KB');
    expect(formatBytes(3 * 1024 * 1024)).toBe('3.0 MB');
  });
  test('a bad image item still gets a placeholder', () => {
    const out = renderArtifact(result('x', artifact('image', { images: [null, { mime: 7 }] })), plain);
    expect(out).toBe('[image unknown type, no data]\n[image unknown type, no data]');
  });
});

describe('code', () => {
  const r = toolResult('code', {
    kind: 'code',
    payload: { text: 'const a = "s"; // note\nreturn 1;\n', lang: 'ts', filename: 'a.ts' },
  });
  test('line-numbered, labelled, uncoloured without colour', () => {
    expect(renderArtifact(r, plain)).toBe('a.ts (ts)\n1 │ const a = "s"; // note\n2 │ return 1;');
  });
  test('light highlighting of keywords, strings, comments and numbers with colour', () => {
    const out = renderArtifact(r, color);
    expect(out).toContain('\u001b[35mconst\u001b[0m');
    expect(out).toContain('\u001b[32m"s"\u001b[0m');
    expect(out).toContain('\u001b[90m// note\u001b[0m');
    expect(out).toContain('\u001b[33m1\u001b[0m');
    expect(stripSgr(out)).toBe(renderArtifact(r, plain));
    expectNoBleed(out);
  });
  test('code already coloured by the tool keeps its colours; unknown languages stay plain', () => {
    const pre = renderArtifact(result('x', artifact('code', { text: `${RED}if\u001b[0m x` })), color);
    expect(pre).toContain(`${RED}if\u001b[0m x`);
    const cobol = renderArtifact(result('x', artifact('code', { text: 'const x', lang: 'cobol' })), color);
    expect(cobol).not.toContain('\u001b[35m');
  });
});

describe('diff', () => {
  const r = toolResult('d', {
    kind: 'diff',
    payload: { old: 'a\nb\nc\n', new: 'a\nB\nc\nd\n', path: 'f.txt' },
  });
  test('summary line +N -M and unified hunks', () => {
    expect(renderArtifact(r, plain).split('\n')).toEqual([
      'f.txt +2 -1',
      '@@ -1,3 +1,4 @@',
      ' a',
      '-b',
      '+B',
      ' c',
      '+d',
    ]);
  });
  test('coloured + and - lines', () => {
    const out = renderArtifact(r, color);
    expect(out).toContain('\u001b[32m+B\u001b[0m');
    expect(out).toContain('\u001b[31m-b\u001b[0m');
    expect(out).toContain('\u001b[32m+2\u001b[0m \u001b[31m-1\u001b[0m');
  });
  test('identical texts say no changes; a large rewrite still diffs', () => {
    expect(renderArtifact(result('x', artifact('diff', { old: 'same', new: 'same' })), plain)).toBe(
      '+0 -0\n(no changes)',
    );
    const old = Array.from({ length: 3000 }, (_, i) => `o${i}`).join('\n');
    const neu = Array.from({ length: 3000 }, (_, i) => `n${i}`).join('\n');
    const out = renderArtifact(result('x', artifact('diff', { old, new: neu })), plain);
    expect(out.split('\n')[0]).toBe('+3000 -3000');
  });
});

describe('error', () => {
  test('message in red with the detail dimmed', () => {
    const r = toolResult('boom', { kind: 'error', payload: { message: 'boom\nsecond', detail: 'at x' } });
    expect(renderArtifact(r, plain)).toBe('✖ boom\n  second\n  at x');
    const out = renderArtifact(r, color);
    expect(out).toContain('\u001b[31mboom\u001b[0m');
    expect(out).toContain('\u001b[2mat x\u001b[0m');
  });
  test('an error status on a rich kind gets the error glyph', () => {
    const out = renderArtifact(
      result('x', artifact('text', { text: 't' }, { title: 'T', status: 'error' })),
      plain,
    );
    expect(out).toBe('✖ T\nt');
  });
});

describe('fallbacks', () => {
  test('unknown kinds fall back to the value', () => {
    expect(renderArtifact(result('the value', artifact('chart', { series: [] })), plain)).toBe('the value');
  });
  test('a future version falls back to the value', () => {
    expect(renderArtifact(result('v1 text', artifact('text', { text: 'v2' }, { version: 2 })), plain)).toBe(
      'v1 text',
    );
  });
  test('a malformed artifact or payload falls back to the value', () => {
    expect(renderArtifact(result('val', { kind: 'text' }), plain)).toBe('val');
    expect(renderArtifact(result('val', artifact('text', { notText: 1 })), plain)).toBe('val');
    expect(renderArtifact(result('val', artifact('code', [])), plain)).toBe('val');
  });
  test('a bare unknown artifact with no value says so', () => {
    expect(renderArtifact(artifact('chart', {}), plain)).toBe('(chart artifact: no text fallback)');
  });
  test('strings and junk never throw', () => {
    expect(renderArtifact('just text', plain)).toBe('just text');
    for (const junk of [null, undefined, 42, [], {}, { value: 5 }])
      expect(renderArtifact(junk, plain)).toBe('');
  });
  test('a payload with a throwing getter degrades to the value', () => {
    const payload = {};
    Object.defineProperty(payload, 'text', {
      enumerable: true,
      get() {
        throw new Error('trap');
      },
    });
    expect(renderArtifact(result('safe', artifact('text', payload)), plain)).toBe('safe');
  });
});
