import { stripSgr, visibleWidth } from '@codeagent/terminal';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarkdownStream } from '../src/markdown.js';

function render(text: string, options: { color?: boolean; width?: number; chunks?: number[] } = {}): string {
  const md = new MarkdownStream({ color: options.color ?? true, width: () => options.width ?? 60 });
  let out = '';
  let at = 0;
  for (const size of options.chunks ?? [text.length]) {
    out += md.push(text.slice(at, at + size));
    at += size;
  }
  out += md.push(text.slice(at));
  return out + md.flush();
}

const DOC = `# Plan

Here is **bold** and *italic* and \`code\` in a paragraph that is long enough to wrap at the terminal width for sure.

- first item with **strong** text
- second item that is also rather long and will need to wrap onto a second line at sixty
1. numbered

> a quote

\`\`\`ts
const x = 1; // one
\`\`\`

| name | size |
|------|------|
| a.ts | 12 |
| longer.ts | 3400 |

---
done`;

describe('MarkdownStream', () => {
  it('renders headings, emphasis, code, lists, quotes, code blocks, tables and rules', () => {
    const out = render(DOC);
    const plain = stripSgr(out);
    expect(out).toContain('\u001b[1;4mPlan\u001b[0m');
    expect(out).toContain('\u001b[1mbold\u001b[22m');
    expect(out).toContain('\u001b[3mitalic\u001b[23m');
    expect(out).toContain('\u001b[36mcode\u001b[39m');
    expect(plain).toContain('• first item with strong text');
    expect(plain).toContain('1. numbered');
    expect(plain).toContain('│ a quote');
    expect(out).toContain('\u001b[35mconst\u001b[0m');
    expect(plain).toContain('│ const x = 1; // one');
    expect(plain).toContain('name      │ size');
    expect(plain).toContain('──────────┼─────');
    expect(plain).toContain('longer.ts │ 3400');
    expect(plain).toContain('─'.repeat(60));
    expect(plain).not.toContain('**');
  });

  it('puts a blank line above a heading that follows other text, never two', () => {
    expect(render('Looked at it.\n## Result\nok\n', { color: false })).toBe(
      'Looked at it.\n\n## Result\nok\n',
    );
    expect(render('Looked at it.\n\n## Result\n', { color: false })).toBe('Looked at it.\n\n## Result\n');
  });

  it('wraps prose at word boundaries with a hanging indent for list items', () => {
    const plain = stripSgr(render(DOC, { width: 40 }));
    for (const line of plain.split('\n')) {
      if (!line.startsWith('│ const') && !line.includes('│ size') && !line.includes('┼')) {
        expect(visibleWidth(line), line).toBeLessThanOrEqual(40);
      }
    }
    expect(plain).toMatch(/• second item that is also rather long\n {2}and will need/u);
  });

  it('without colour writes no escape at all and keeps the markers that carry meaning', () => {
    const out = render(DOC, { color: false });
    expect(out).not.toMatch(/\u001b/u);
    expect(out).toContain('# Plan');
    expect(out).toContain('`code`');
    expect(out).toContain('```ts');
  });

  it('gives the same output however the text is split into chunks (property)', () => {
    const whole = render(DOC);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: 12 }), { maxLength: 200 }), (chunks) => {
        expect(render(DOC, { chunks })).toBe(whole);
      }),
      { numRuns: 300 },
    );
  });

  it('never throws, always ends its styles, and stays within the width on arbitrary text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.string({ maxLength: 20 }),
            fc.constantFrom('**', '*', '`', '```', '\n', '| a | b |\n', '# ', '- ', '> '),
          ),
          {
            maxLength: 40,
          },
        ),
        fc.integer({ min: 20, max: 120 }),
        (parts, width) => {
          const out = render(parts.join(''), { width });
          // Every bold/italic/code opened is closed by the end.
          const opens = (out.match(/\u001b\[1m/gu) ?? []).length;
          const closes = (out.match(/\u001b\[22m|\u001b\[0m/gu) ?? []).length;
          expect(closes).toBeGreaterThanOrEqual(opens);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a huge single line and deep nesting stay fast and bounded', () => {
    const out = render(`${'word '.repeat(50_000)}\n${'> '.repeat(5_000)}deep\n${'- '.repeat(5_000)}x\n`, {
      width: 80,
    });
    expect(
      stripSgr(out)
        .split('\n')
        .every((l) => visibleWidth(l) <= 80 || l.includes('- -')),
    ).toBe(true);
  });
});
