import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  fenced,
  planEntries,
  plainText,
  terminalText,
  toolCallNotice,
  toolResultNotices,
  visibleTitle,
} from '../src/index.js';

const CWD = '/w';
const on = { cwd: CWD, terminalOutput: true };
const off = { cwd: CWD, terminalOutput: false };

describe('call views -> tool_call', () => {
  it('generic: kind, title, rawInput, absolute locations, text content', () => {
    expect(
      toolCallNotice(
        'c1',
        {
          card: 'generic',
          title: 'Read a.ts',
          kind: 'read',
          locations: [{ path: 'a.ts', line: 3 }],
          content: [{ type: 'text', text: 'x' }],
        },
        { file_path: 'a.ts' },
        off,
      ),
    ).toEqual({
      sessionUpdate: 'tool_call',
      toolCallId: 'c1',
      title: 'Read a.ts',
      kind: 'read',
      status: 'pending',
      content: [{ type: 'content', content: { type: 'text', text: 'x' } }],
      locations: [{ path: '/w/a.ts', line: 3 }],
      rawInput: { file_path: 'a.ts' },
    });
    expect(toolCallNotice('c', { card: 'generic', title: 'x' }, null, off).kind).toBe('other');
  });

  it('diff: kind edit, diff content and locations with absolute paths', () => {
    const n = toolCallNotice(
      'c',
      { card: 'diff', title: 'Edit a', diffs: [{ path: 'src/../a', oldText: null, newText: 'n' }] },
      {},
      off,
    );
    expect(n.kind).toBe('edit');
    expect(n.content).toEqual([{ type: 'diff', path: '/w/a', oldText: null, newText: 'n' }]);
    expect(n.locations).toEqual([{ path: '/w/a' }]);
  });

  it('terminal: terminal content and _meta.terminal_info only with the capability', () => {
    const view = { card: 'terminal' as const, title: 'ls', description: 'List', cwd: 'sub' };
    expect(toolCallNotice('c', view, { command: 'ls' }, on)).toMatchObject({
      kind: 'execute',
      content: [
        { type: 'content', content: { type: 'text', text: 'List' } },
        { type: 'terminal', terminalId: 'c' },
      ],
      _meta: { terminal_info: { terminal_id: 'c', cwd: '/w/sub' } },
    });
    const plain = toolCallNotice('c', { card: 'terminal', title: 'ls' }, { command: 'ls' }, off);
    expect(plain.content).toBeUndefined();
    expect(plain._meta).toBeUndefined();
  });

  it('titles show control characters visibly and carry no escape', () => {
    const n = toolCallNotice(
      'c',
      { card: 'terminal', title: 'echo \u001b[31mred\u001b]0;pwn\u0007 \u202eevil' },
      {},
      off,
    );
    expect(n.title).toBe('echo \\u{1b}[31mred\\u{1b}]0;pwn\\u{7} \\u{202e}evil');
  });
});

describe('result views -> tool_call_update', () => {
  it('generic: status and content; read results and errors fenced', () => {
    expect(
      toolResultNotices(
        'c',
        { card: 'generic', title: 'x', kind: 'search' },
        { card: 'generic', title: '2 files', content: [{ type: 'text', text: 'a\nb' }] },
        false,
        off,
      ),
    ).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c',
        status: 'completed',
        title: 'x · 2 files',
        content: [{ type: 'content', content: { type: 'text', text: 'a\nb' } }],
      },
    ]);
    const read = toolResultNotices(
      'c',
      { card: 'generic', title: 'Read', kind: 'read' },
      { card: 'generic', content: [{ type: 'text', text: '# heading' }] },
      false,
      off,
    );
    expect(read[0]?.content).toEqual([
      { type: 'content', content: { type: 'text', text: '```\n# heading\n```' } },
    ]);
    const failed = toolResultNotices(
      'c',
      undefined,
      { card: 'generic', content: [{ type: 'text', text: 'boom' }] },
      true,
      off,
    );
    expect(failed[0]).toMatchObject({ status: 'failed', content: [{ content: { text: '```\nboom\n```' } }] });
    const image = toolResultNotices(
      'c',
      undefined,
      { card: 'generic', content: [{ type: 'image', mime: 'image/png', b64: 'AA==' }] },
      false,
      off,
    );
    expect(image[0]?.content).toEqual([
      { type: 'content', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } },
    ]);
  });

  it('diff: replaces the call-time diff with the applied hunks', () => {
    const u = toolResultNotices(
      'c',
      undefined,
      { card: 'diff', diffs: [{ path: 'a', oldText: 'x', newText: 'y' }] },
      false,
      off,
    );
    expect(u).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c',
        status: 'completed',
        content: [{ type: 'diff', path: '/w/a', oldText: 'x', newText: 'y' }],
      },
    ]);
  });

  it('terminal with the capability: terminal_output, then terminal_exit with the status, in separate updates', () => {
    const call = { card: 'terminal' as const, title: 'x', description: 'd' };
    const u = toolResultNotices(
      'c',
      call,
      { card: 'terminal', output: '\u001b[32mok\u001b[0m\u001b]52;c;evil\u0007\n', signal: 'SIGTERM' },
      true,
      on,
    );
    expect(u).toEqual([
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c',
        _meta: { terminal_output: { terminal_id: 'c', data: '\u001b[32mok\u001b[0m\n' } },
      },
      {
        sessionUpdate: 'tool_call_update',
        toolCallId: 'c',
        status: 'failed',
        content: [
          { type: 'content', content: { type: 'text', text: 'd' } },
          { type: 'terminal', terminalId: 'c' },
        ],
        _meta: { terminal_exit: { terminal_id: 'c', exit_code: null, signal: 'SIGTERM' } },
      },
    ]);
  });

  it('terminal without the capability (or an orphan terminal result): console-fenced plain output', () => {
    const u = toolResultNotices(
      'c',
      { card: 'terminal', title: 'x' },
      { card: 'terminal', output: '\u001b[1mhi\u001b[0m\n', exitCode: 0 },
      false,
      off,
    );
    expect(u[0]?.content).toEqual([
      { type: 'content', content: { type: 'text', text: '```console\nhi\n```' } },
    ]);
    const orphan = toolResultNotices(
      'c',
      { card: 'generic', title: 'x' },
      { card: 'terminal', output: 'hi' },
      false,
      on,
    );
    expect(orphan).toHaveLength(1);
    expect(orphan[0]?.content).toEqual([
      { type: 'content', content: { type: 'text', text: '```console\nhi\n```' } },
    ]);
    expect(toolResultNotices('c', undefined, { card: 'terminal' }, false, off)[0]?.content).toBeUndefined();
  });
});

describe('plan entries from TodoWrite', () => {
  it('maps todos and refuses anything that is not a todo list', () => {
    expect(planEntries({ todos: [{ content: 'a', status: 'in_progress', activeForm: 'A' }] })).toEqual([
      { content: 'a', status: 'in_progress', priority: 'medium' },
    ]);
    expect(planEntries({ todos: [] })).toEqual([]);
    fc.assert(
      fc.property(fc.anything(), (x) => {
        const entries = planEntries(x);
        if (entries === null) return;
        for (const e of entries) {
          expect(['pending', 'in_progress', 'completed']).toContain(e.status);
          expect(e.content.includes('\u001b')).toBe(false);
        }
      }),
    );
    const deep = JSON.parse(`${'{"todos":['.repeat(1)}${'['.repeat(5000)}${']'.repeat(5000)}]}`) as unknown;
    expect(planEntries(deep)).toBeNull();
    for (const bad of [
      null,
      1,
      {},
      { todos: 'x' },
      { todos: [null] },
      { todos: [{ content: 'a', status: 'done' }] },
      { todos: [{ status: 'pending' }] },
    ]) {
      expect(planEntries(bad)).toBeNull();
    }
  });
});

describe('text for the editor', () => {
  const unsafe = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
  it('property: titles never contain a control, escape or bidi character, and are idempotent', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const t = visibleTitle(s);
        expect(unsafe.test(t)).toBe(false);
        expect(visibleTitle(t)).toBe(t);
      }),
    );
  });
  it('property: plain text has no escape at all; terminal text keeps only SGR', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(plainText(s).includes('\u001b')).toBe(false);
        expect(unsafe.test(plainText(s))).toBe(false);
        expect(
          terminalText(s)
            .replace(/\u001b\[[0-9;:]*m/g, '')
            .includes('\u001b'),
        ).toBe(false);
      }),
    );
  });
  it('fences with a fence longer than any backtick run inside', () => {
    expect(fenced('a ```` b')).toBe('`````\na ```` b\n`````');
    fc.assert(
      fc.property(fc.string(), (s) => {
        const f = fenced(s);
        const fence = f.slice(0, f.indexOf('\n'));
        expect(s.includes(fence)).toBe(false);
      }),
    );
  });
  it('handles huge and deeply nested-looking text quickly', () => {
    const huge = '\u001b['.repeat(200_000) + '`'.repeat(100_000);
    expect(plainText(huge).length).toBeLessThan(huge.length);
    expect(visibleTitle(huge).includes('\u001b')).toBe(false);
    expect(fenced(huge).startsWith('`'.repeat(100_001))).toBe(true);
  });
});
