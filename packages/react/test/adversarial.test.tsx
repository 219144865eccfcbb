import { toolResult } from '@codeagent/artifact-schema';
import type { ToolCallView } from '@codeagent/render-intent';
import fc from 'fast-check';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ApprovalPrompt, Markdown, ToolCallCard, ToolResultView } from '../src/index.ts';

const html = (node: React.ReactNode): string => renderToStaticMarkup(node);
const ALLOWED_TAGS = new Set(
  'a b blockquote br button code col colgroup del details div em figcaption figure h1 h2 h3 h4 h5 h6 header hr i img li ol p path pre section span strong summary svg table tbody td th thead tr ul'.split(
    ' ',
  ),
);
const TAG = /<([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[^\s=>"/]+(?:="[^"]*")?)*)\s*\/?>/g;
const ATTR = /\s+([^\s=>"/]+)(?:="([^"]*)")?/g;

/** Every tag and attribute in server markup that a payload could have smuggled in (empty when clean). */
function escapedMarkup(out: string): string[] {
  const problems: string[] = [];
  for (const [, tag = '', attrs = ''] of out.matchAll(TAG)) {
    if (!ALLOWED_TAGS.has(tag.toLowerCase())) problems.push(`<${tag}>`);
    for (const [, name = '', value = ''] of attrs.matchAll(ATTR)) {
      const n = name.toLowerCase();
      // The one style the kit writes: a diff's number column sized to its digits (a number, never a payload).
      const numberColumn =
        tag === 'col' && n === 'style' && /^width:(6px|calc\(\d{1,2}ch \+ 12px\))$/.test(value);
      if (n.startsWith('on') || (n === 'style' && !numberColumn) || n === 'srcset' || n === 'formaction')
        problems.push(`${tag} ${n}`);
      if (n === 'href' && !/^(https?:|mailto:|[^:]*$)/i.test(value.replace(/&amp;/g, '&')))
        problems.push(`href ${value}`);
      if (n === 'src' && !/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+=*$/.test(value))
        problems.push(`src ${value}`);
    }
  }
  return problems;
}

describe('Markdown against arbitrary and adversarial input', () => {
  it('never emits markup outside what it allows', () => {
    const tricky = fc.constantFrom(
      '<',
      '>',
      '"',
      "'",
      '`',
      '[',
      ']',
      '(',
      ')',
      '!',
      'javascript:',
      'data:',
      ' on',
      'error=',
      '<img',
      '<script',
      '\n',
      '&#',
      ';',
      '\\',
      '*',
      '_',
      '#',
      '|',
      '-',
    );
    fc.assert(
      fc.property(fc.array(fc.oneof(tricky, fc.string()), { maxLength: 40 }), (parts) => {
        expect(escapedMarkup(html(<Markdown text={parts.join('')} />))).toEqual([]);
      }),
      { numRuns: 400 },
    );
  });

  it('survives deeply nested and huge input', () => {
    for (const text of [
      '>'.repeat(5000) + ' deep',
      '- '.repeat(3000) + 'x',
      '['.repeat(20000) + 'x' + ']'.repeat(20000),
      '*'.repeat(50000),
      '`'.repeat(10000),
      'a'.repeat(1_000_000),
      '<div>'.repeat(10000),
      `${'*a '.repeat(5000)}x${' a*'.repeat(5000)}`,
      '[a]('.repeat(5000),
      Array.from({ length: 3000 }, (_, i) => `${' '.repeat(i * 2)}- item`).join('\n'),
    ]) {
      const out = html(<Markdown text={text} />);
      expect(out.length).toBeGreaterThan(0);
      expect(escapedMarkup(out)).toEqual([]);
    }
  });
});

describe('ToolResultView against arbitrary payloads', () => {
  const json = fc.jsonValue({ maxDepth: 4 });
  it('renders every kind with any payload without throwing or escaping', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('text', 'table', 'image', 'code', 'diff', 'error', 'other'),
        fc.dictionary(
          fc.constantFrom(
            'text',
            'lang',
            'df',
            'columns',
            'images',
            'old',
            'new',
            'path',
            'message',
            'detail',
            'filename',
            'output',
            'mime',
            'b64',
          ),
          json,
        ),
        fc.string(),
        (kind, payload, value) => {
          const out = html(<ToolResultView result={toolResult(value, { kind, payload })} />);
          expect(escapedMarkup(out)).toEqual([]);
        },
      ),
      { numRuns: 400 },
    );
  });

  it('handles a deeply nested table cell and a huge table', () => {
    let nested: unknown = 'leaf';
    for (let i = 0; i < 100_000; i++) nested = { n: nested };
    // Built by hand: the producer refuses such a payload, but a restored session or a peer may send it.
    const artifact = {
      ...toolResult('v', { kind: 'table', payload: { df: [] } }).extra.codeagent.artifact,
      payload: { df: [{ a: nested }] },
    };
    const out = html(<ToolResultView result={artifact} />);
    expect(out).toContain('[unserialisable value]');
    const df = Array.from({ length: 20_000 }, (_, i) => ({ i }));
    const big = html(<ToolResultView result={toolResult('v', { kind: 'table', payload: { df } })} />);
    // Server markup renders only the first virtual window.
    expect((big.match(/<tr/g) ?? []).length).toBeLessThan(100);
  });
});

describe('ToolCallCard against malformed views', () => {
  it('turns a malformed call view into a generic card and ignores a malformed result', () => {
    const bad = [
      { card: 'weird', title: 'x' },
      { card: 'generic', title: 42 },
      { card: 'diff', title: 'd', diffs: 'nope' },
      null,
      'string',
      new Proxy(
        {},
        {
          get: () => {
            throw new Error('trap');
          },
        },
      ),
    ];
    for (const view of bad) {
      const out = html(
        <ToolCallCard
          view={view as unknown as ToolCallView}
          result={{ card: 'nope' } as never}
          status="done"
        />,
      );
      expect(out).toContain('data-card="generic"');
    }
  });

  it('renders any string in any card field as inert text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const views: ToolCallView[] = [
          {
            card: 'generic',
            title: s,
            rawInput: { s },
            content: [
              { type: 'text', text: s },
              { type: 'image', mime: s, b64: s },
            ],
            locations: [{ path: s }],
          },
          { card: 'terminal', title: s, description: s, cwd: s },
          { card: 'diff', title: s, diffs: [{ path: s, oldText: s, newText: `${s}!` }] },
        ];
        for (const view of views) {
          const out = html(
            <ToolCallCard
              view={view}
              result={{ card: 'terminal', output: s, signal: s }}
              status="failed"
              output={s}
            />,
          );
          expect(escapedMarkup(out)).toEqual([]);
          expect(out).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
          const approval = html(<ApprovalPrompt view={view} toolName={s} onDecision={() => {}} />);
          expect(approval.replace(/title="[^"]*"/g, '')).not.toMatch(
            /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u200b-\u200f\ufeff]/,
          );
        }
      }),
      { numRuns: 200 },
    );
  });
});

describe('very long output', () => {
  it('draws the end of a huge terminal output and caps a huge diff', () => {
    const output = `${'x'.repeat(300_000)}\nTHE END`;
    const out = html(
      <ToolCallCard
        view={{ card: 'terminal', title: 'cat big' }}
        result={{ card: 'terminal', output, exitCode: 0 }}
        status="done"
      />,
    );
    expect(out).toContain('[100008 earlier characters not shown]');
    expect(out).toContain('THE END');
    const old = Array.from({ length: 8000 }, (_, i) => `old ${i}\n`).join('');
    const diff = html(
      <ToolResultView result={toolResult('v', { kind: 'diff', payload: { old, new: '' } })} />,
    );
    expect(diff).toContain('3000 more lines not shown');
    expect(diff).toContain('-8000');
  });
});
