import { toolResult } from '@codeagent/artifact-schema';
import { trustedHtml } from '@codeagent/artifact-schema/safety';
import { terminalFallbackText } from '@codeagent/render-intent';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import {
  ApprovalPrompt,
  createRendererRegistry,
  DiffView,
  defaultRenderers,
  diffHunks,
  Markdown,
  ToolCallCard,
  ToolResultView,
  TrustedHtmlView,
} from '../src/index.ts';

const html = (node: React.ReactNode): string => renderToStaticMarkup(node);

describe('ToolResultView', () => {
  it('renders a text artifact as markdown', () => {
    const out = html(
      <ToolResultView result={toolResult('hi', { kind: 'text', payload: { text: '**bold**' } })} />,
    );
    expect(out).toContain('<strong>bold</strong>');
    expect(out).toContain('data-kind="text"');
  });

  it('falls back to the value for an unknown kind, a future version and a malformed artifact', () => {
    const unknown = toolResult('portable', { kind: 'chart', payload: { points: [] } });
    expect(html(<ToolResultView result={unknown} />)).toContain('<pre class="ca-value">portable</pre>');
    const future = {
      value: 'future value',
      extra: { codeagent: { artifact: { ...unknown.extra.codeagent.artifact, kind: 'text', version: 2 } } },
    };
    expect(html(<ToolResultView result={future} />)).toContain('future value');
    const malformed = { value: 'bad meta', extra: { codeagent: { artifact: { schema: 'nope' } } } };
    expect(html(<ToolResultView result={malformed} />)).toContain('bad meta');
    const badPayload = toolResult('payload value', { kind: 'text', payload: { text: 42 } });
    expect(html(<ToolResultView result={badPayload} />)).toContain('payload value');
  });

  it('shows the artifact title only when asked, as text', () => {
    const r = toolResult('v', { kind: 'text', title: '<b>Title</b>\u202e', payload: { text: 'x' } });
    expect(html(<ToolResultView result={r} />)).not.toContain('ca-result-title');
    expect(html(<ToolResultView result={r} showTitle />)).toContain(
      '<div class="ca-result-title">&lt;b&gt;Title&lt;/b&gt;</div>',
    );
  });

  it('says so when there is nothing to show', () => {
    expect(html(<ToolResultView result={{ value: '', extra: {} }} />)).toContain('(no output)');
    expect(html(<ToolResultView result={null} />)).toContain('(no output)');
  });

  it('accepts a tool-result event', () => {
    const r = toolResult('v', { kind: 'error', payload: { message: 'boom', detail: 'stack' } });
    const event = {
      id: '1',
      name: 'X',
      display: null,
      value: 'v',
      isError: true,
      artifact: r.extra.codeagent.artifact,
      view: { card: 'generic' },
    };
    const out = html(<ToolResultView result={event} />);
    expect(out).toContain('boom');
    expect(out).toContain('<details class="ca-error-detail">');
  });

  it('renders a future version only when asked, with a renderer that handles it', () => {
    const r = toolResult('v2 value', { kind: 'text', payload: { text: 'x' } });
    const v2 = { ...r, extra: { codeagent: { artifact: { ...r.extra.codeagent.artifact, version: 2 } } } };
    const registry = createRendererRegistry({ text: ({ artifact }) => <b>version {artifact.version}</b> });
    expect(html(<ToolResultView result={v2} registry={registry} versions={[1, 2]} />)).toContain(
      '<b>version 2</b>',
    );
    // The built-in v1 renderer given a v2 artifact shows the value.
    expect(html(<ToolResultView result={v2} versions={[1, 2]} />)).toContain('v2 value');
  });

  it('never resolves a kind through Object.prototype', () => {
    for (const kind of ['constructor', '__proto__', 'toString', 'hasOwnProperty']) {
      const r = toolResult(`value of ${kind}`, { kind, payload: {} });
      expect(html(<ToolResultView result={r} />)).toContain(`value of ${kind}`);
    }
  });

  it('survives hostile inputs', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('trap');
        },
        has() {
          throw new Error('trap');
        },
      },
    );
    for (const x of [null, undefined, 42, 'str', [], hostile, { value: 7 }]) {
      expect(() => html(<ToolResultView result={x} />)).not.toThrow();
    }
  });

  it('lets an app add a kind and replace one, keeping the others', () => {
    const registry = createRendererRegistry({ chart: () => <i>chart!</i>, text: () => <i>my text</i> });
    expect(registry.kinds).toEqual([...Object.keys(defaultRenderers), 'chart']);
    expect(
      html(<ToolResultView result={toolResult('v', { kind: 'chart', payload: {} })} registry={registry} />),
    ).toContain('chart!');
    expect(
      html(
        <ToolResultView
          result={toolResult('v', { kind: 'text', payload: { text: 'a' } })}
          registry={registry}
        />,
      ),
    ).toContain('my text');
    expect(
      html(
        <ToolResultView
          result={toolResult('v', { kind: 'error', payload: { message: 'kept' } })}
          registry={registry}
        />,
      ),
    ).toContain('kept');
  });
});

describe('images', () => {
  const png =
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
  it('shows allowed types as data URLs and never SVG', () => {
    const ok = html(
      <ToolResultView
        result={toolResult('img', { kind: 'image', payload: { images: [{ mime: 'image/png', b64: png }] } })}
      />,
    );
    expect(ok).toContain(`src="data:image/png;base64,${png}"`);
    const svg = btoa('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    const bad = html(
      <ToolResultView
        result={toolResult('svg value', {
          kind: 'image',
          payload: { images: [{ mime: 'image/svg+xml', b64: svg }] },
        })}
      />,
    );
    expect(bad).not.toContain('<img');
    expect(bad).toContain('svg value');
    // A PNG label on non-PNG bytes is refused too.
    const lie = html(
      <ToolResultView
        result={toolResult('lie', { kind: 'image', payload: { images: [{ mime: 'image/png', b64: svg }] } })}
      />,
    );
    expect(lie).not.toContain('<img');
  });
});

describe('Markdown', () => {
  it('shows raw HTML as text and drops unsafe links and remote images', () => {
    const out = html(
      <Markdown
        text={
          '<img src=x onerror=alert(1)> [a](javascript:alert(1)) ![i](https://evil.example/p.png) [ok](https://example.com)'
        }
      />,
    );
    expect(out).not.toMatch(/<img/);
    expect(out).toContain('&lt;img src=x onerror=alert(1)&gt;');
    expect(out).not.toContain('href="javascript');
    expect(out).toContain('[image: i]');
    expect(out).toContain('href="https://example.com"');
  });
});

describe('Markdown code fences', () => {
  it('draws a fenced block with a language as a code block and keeps others plain', () => {
    const out = html(<Markdown text={'```ts\nconst a = 1;\n```\n\n```\nplain <b>\n```'} />);
    expect(out).toContain('<div class="ca-code" data-lang="typescript" data-highlighted="false">');
    expect(out).toContain('<code>const a = 1;</code>');
    expect(out).toContain('<pre><code>plain &lt;b&gt;\n</code></pre>');
  });
});

describe('ToolCallCard', () => {
  it('renders a terminal card with SGR classes and an exit pill', () => {
    const out = html(
      <ToolCallCard
        view={{ card: 'terminal', title: 'ls --color', cwd: '/tmp' }}
        result={{
          card: 'terminal',
          output: '\u001b[31mred\u001b[0m \u001b]0;OSCTITLE\u0007plain\n',
          exitCode: 0,
        }}
        status="done"
      />,
    );
    expect(out).toContain('<span class="ca-sgr-fg-1">red</span>');
    expect(out).not.toContain('\u001b');
    expect(out).not.toContain('OSCTITLE');
    expect(out).toContain('exit 0');
  });

  it('numbers applied hunks with real line numbers from the diff artifact', () => {
    const before = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
    const after = before.replace('line 10\n', 'line ten\n');
    const source = toolResult('edited', {
      kind: 'diff',
      payload: { old: before, new: after, path: 'a.txt' },
    });
    const out = html(
      <ToolCallCard
        view={{
          card: 'diff',
          title: 'Edit a.txt',
          diffs: [{ path: '/w/a.txt', oldText: 'line 10', newText: 'line ten' }],
        }}
        result={{
          card: 'diff',
          diffs: [
            {
              path: '/w/a.txt',
              oldText: 'line 7\nline 8\nline 9\nline 10\nline 11\nline 12\nline 13\n',
              newText: 'line 7\nline 8\nline 9\nline ten\nline 11\nline 12\nline 13\n',
            },
          ],
        }}
        source={source}
        status="done"
      />,
    );
    expect(out).toContain('@@ -7,7 +7,7 @@');
    expect(out).toMatch(
      /<td class="ca-diff-no">10<\/td><td class="ca-diff-no"><\/td><td class="ca-diff-mark">-<\/td>/,
    );
  });

  it('sizes the number columns from the real largest line number; a new file leaves the old column empty', () => {
    const content = Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n');
    const out = html(
      <ToolCallCard
        view={{
          card: 'diff',
          title: 'Write a.txt',
          diffs: [{ path: 'a.txt', oldText: null, newText: content }],
        }}
        status="pending"
      />,
    );
    expect(out).toContain('new file');
    // Two digits on the new side; no number at all on the old side.
    expect(out).toContain(
      '<col class="ca-diff-col-no" style="width:6px"/><col class="ca-diff-col-no" style="width:calc(2ch + 12px)"/>',
    );
    expect(out).toMatch(
      /<td class="ca-diff-no"><\/td><td class="ca-diff-no">12<\/td><td class="ca-diff-mark">\+<\/td>/,
    );
    expect(out).not.toMatch(
      /<td class="ca-diff-no">\d+<\/td><td class="ca-diff-no">\d+<\/td><td class="ca-diff-mark">\+/,
    );
    // A change deep in a long file gets columns as wide as its numbers (five digits here).
    const long = Array.from({ length: 12_000 }, (_, i) => `l${i + 1}`).join('\n');
    const wide = html(
      <DiffView hunks={diffHunks(long, long.replace('l11999', 'changed'), { context: 1 })} />,
    );
    expect(wide.match(/style="width:calc\(5ch \+ 12px\)"/g)).toHaveLength(2);
  });

  it('draws every kind icon as inline SVG, never a text glyph a font may lack', () => {
    for (const kind of ['read', 'edit', 'delete', 'move', 'search', 'execute', 'fetch', 'other'] as const) {
      const out = html(<ToolCallCard view={{ card: 'generic', title: 't', kind }} status="done" />);
      const icon =
        /<span class="ca-kind-icon" role="img" aria-label="([a-z]+)" data-kind="[a-z]+">(.*?)<\/span>/.exec(
          out,
        );
      expect(icon?.[1]).toBe(kind);
      expect(icon?.[2]).toMatch(/^<svg [^>]*aria-hidden="true"[^>]*>(<path d="[^"]+"><\/path>)+<\/svg>$/);
    }
  });

  it('draws a console-fenced generic result as terminal output, also with a longer fence', () => {
    for (const output of ['\u001b[31mdenied\u001b[0m', 'has ``` inside\n']) {
      const out = html(
        <ToolCallCard
          view={{ card: 'terminal', title: 'x' }}
          result={{ card: 'generic', content: [{ type: 'text', text: terminalFallbackText(output) }] }}
          status="failed"
        />,
      );
      expect(out).toContain('<pre class="ca-terminal-output">');
      expect(out).not.toContain('console');
    }
  });

  it('shows each status', () => {
    for (const status of ['pending', 'running', 'done', 'failed', 'denied'] as const) {
      expect(html(<ToolCallCard view={{ card: 'generic', title: 't' }} status={status} />)).toContain(
        `data-status="${status}"`,
      );
    }
  });
});

describe('ApprovalPrompt', () => {
  it('reveals invisible characters, escapes and whitespace runs', () => {
    const out = html(
      <ApprovalPrompt
        view={{ card: 'terminal', title: 'rm -rf /\u202e  evil\u001b[8mhidden\u200b\tx' }}
        toolName="Bash"
        onDecision={() => {}}
      />,
    );
    expect(out).toContain('⟨U+202E⟩');
    expect(out).toContain('⟨U+200B⟩');
    expect(out).toContain('␛[8m');
    expect(out).not.toContain('\u202e');
    expect(out).toContain('→');
    // The header and the command line each show the two spaces.
    expect((out.match(/>·</g) ?? []).length).toBe(4);
  });
});

describe('ApprovalPrompt input', () => {
  it('shows the raw input and the exact new text open, not collapsed', () => {
    const generic = html(
      <ApprovalPrompt
        view={{ card: 'generic', title: 'mcp tool', rawInput: { q: 'a\u200bb' } }}
        toolName="mcp"
        onDecision={() => {}}
      />,
    );
    expect(generic).toContain('<details class="ca-raw-input" open="">');
    expect(generic).toContain('⟨U+200B⟩');
    const diff = html(
      <ApprovalPrompt
        view={{ card: 'diff', title: 'Edit', diffs: [{ path: 'a', oldText: 'x', newText: 'y\u202e' }] }}
        toolName="Edit"
        onDecision={() => {}}
      />,
    );
    expect(diff).toContain('<details class="ca-reveal-diff" open="">');
    expect(diff).toContain('⟨U+202E⟩');
    // Outside approvals the raw input stays collapsed.
    expect(
      html(<ToolCallCard view={{ card: 'generic', title: 't', rawInput: {} }} status="done" />),
    ).toContain('<details class="ca-raw-input">');
  });
});

describe('TrustedHtmlView', () => {
  it('inserts branded HTML only', () => {
    expect(html(<TrustedHtmlView html={trustedHtml('<b>yes</b>')} />)).toContain('<b>yes</b>');
    expect(html(<TrustedHtmlView html={{ html: '<b>no</b>' }} />)).not.toContain('<b>');
    expect(html(<TrustedHtmlView html="<b>no</b>" />)).toContain('&lt;b&gt;');
  });
});
