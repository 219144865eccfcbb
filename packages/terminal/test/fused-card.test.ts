// The terminal card renders a tool's output with fewer passes (issue 14): the sanitiser's colon-SGR rewrite and
// strict check share two native scans, and the frame's final check skips the body the card already checked.
// Oracle: the previous pipeline, rebuilt here from the unchanged steps, must give the same frame for any text.
import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import type { ToolCallView, ToolResultView } from '@codeagent/render-intent';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { isolateText, paint, prefixBlock, stripSgr } from '../src/ansi.js';
import { exitPill } from '../src/cards.js';
import { enforceStrictOutput, isSafeTerminalOutput } from '../src/checker.js';
import { renderToolCall, renderToolCard, renderToolResult } from '../src/render.js';
import { normaliseColonSgr, sanitize, toText, trimFinalNewline } from '../src/text.js';

/** `sanitize` as it was: four steps, each over the whole text. */
function sanitizeBefore(value: unknown, color: boolean): string {
  const raw = toText(value);
  const clean = enforceStrictOutput(
    normaliseColonSgr(sanitizeTerminalText(raw.includes('\r\n') ? raw.replace(/\r\n/g, '\n') : raw)),
  );
  return color ? clean : stripSgr(clean);
}

/** The terminal result card as it was: body and pill lines, then the strict check over the joined frame. */
function terminalCardBefore(view: ToolResultView & { card: 'terminal' }, color: boolean): string {
  const lines: string[] = [];
  if (view.title !== undefined) {
    // The title line is produced by code this change does not touch: take it from a card without body or pill.
    lines.push(renderToolResult({ card: 'terminal', title: view.title }, {}, { color, width: 80 }));
  }
  const text = trimFinalNewline(toText(view.output));
  if (text !== '') {
    const clean = sanitizeBefore(text, color);
    const safe = color ? isolateText(clean) : clean;
    lines.push(prefixBlock(safe, `  ${paint(color, '│ ', 'dim')}`, false));
  }
  const pill = exitPill(view.exitCode, view.signal, color);
  if (pill) lines.push(`  ${paint(color, '└ ', 'dim')}${pill}`);
  return enforceStrictOutput(lines.join('\n'));
}

// Text biased towards what the passes treat specially: SGR (plain and colon forms), other escapes, C0/C1
// controls, CRLF, bidi controls and marks, wide characters.
const piece = fc.oneof(
  fc.string({ maxLength: 8 }),
  fc.string({ unit: 'binary', maxLength: 4 }),
  fc.constantFrom(
    '\u001b',
    '\u001b[',
    '\u001b[31m',
    '\u001b[0m',
    '\u001b[38:2::255:0:0m',
    '\u001b[4:3m',
    '\u001b[38;5;1m',
    '\u001b[2J',
    '\u001b]0;title\u0007',
    '\u001b]8;;https://x\u001b\\',
    '\u009b31m',
    '\u0085',
    '\r\n',
    '\r',
    '\n',
    '\t',
    ':',
    ';',
    'm',
    '\u202e',
    '\u2066',
    '\u200e',
    '\u200f',
    '\u061c',
    '\u007f',
    '\u0000',
    '日本',
    '👩‍💻',
  ),
);
const hostileText = fc.array(piece, { maxLength: 24 }).map((xs) => xs.join(''));

describe('fused terminal card pipeline', () => {
  test('sanitize gives what the four-step pipeline gave, colour on and off', () => {
    fc.assert(
      fc.property(hostileText, fc.boolean(), (s, color) => {
        expect(sanitize(s, color)).toBe(sanitizeBefore(s, color));
      }),
      { numRuns: 5_000 },
    );
  });

  test('a terminal result card is the same frame as before, title, exit code and signal included', () => {
    fc.assert(
      fc.property(
        hostileText,
        fc.boolean(),
        fc.option(hostileText, { nil: undefined }),
        fc.option(fc.integer({ min: -2, max: 300 }), { nil: undefined }),
        fc.option(fc.constantFrom('SIGTERM', '\u001b[2Jx'), { nil: undefined }),
        (output, color, title, exitCode, signal) => {
          const view = {
            card: 'terminal' as const,
            output,
            ...(title === undefined ? {} : { title }),
            ...(exitCode === undefined ? {} : { exitCode }),
            ...(signal === undefined ? {} : { signal }),
          };
          const out = renderToolResult(view, {}, { color, width: 80 });
          expect(out).toBe(terminalCardBefore(view, color));
          expect(isSafeTerminalOutput(out)).toBe(true);
        },
      ),
      { numRuns: 3_000 },
    );
  });

  test('a whole card (call + terminal result) is the call frame and the result frame, as before', () => {
    const call: ToolCallView = { card: 'terminal', title: 'ls\u001b[2J', description: 'list' };
    fc.assert(
      fc.property(hostileText, fc.boolean(), (output, color) => {
        const result = { card: 'terminal' as const, output, exitCode: 0 };
        const out = renderToolCard({ call, result }, { color, width: 80 });
        const before = enforceStrictOutput(
          `${renderToolCall(call, { color, width: 80 })}\n${terminalCardBefore(result, color)}`,
        );
        expect(out).toBe(before);
      }),
      { numRuns: 1_000 },
    );
  });

  test('a body that is not strict-safe is still caught by the frame check (the skip is only for checked lines)', () => {
    // Every escape class at once, many lines: the frame stays safe and equal to the old pipeline's.
    const output = Array.from({ length: 2_000 }, (_, i) =>
      i % 3 === 0 ? `\u001b[38:2::1:2:3mline ${i}\u001b[0m\u200f` : `\u001b]0;t\u0007\u009b2J plain ${i}\r`,
    ).join('\r\n');
    for (const color of [true, false]) {
      const view = { card: 'terminal' as const, output, exitCode: 1 };
      const out = renderToolResult(view, {}, { color, width: 80 });
      expect(out).toBe(terminalCardBefore(view, color));
      expect(isSafeTerminalOutput(out)).toBe(true);
    }
  });
});
