// terminal bench, approvals: renderApproval shows everything (escapes revealed, nothing cut) where the card
// renderer cuts the title; the baseline of each row is the cheaper renderer over the same input.
import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { revealText, type ToolCallView } from '@codeagent/render-intent';
import { expect, test } from 'vitest';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import { renderApproval, renderToolCall } from '../src/index.js';

/** A 1 MB model command: words, space runs, escapes and bidi controls mixed in. */
function command(bytes: number): string {
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < bytes; i++) {
    const part =
      i % 50 === 0
        ? `\u001b[8mhidden${i}\u001b[28m`
        : i % 77 === 0
          ? `${' '.repeat(40)}\u202e${i}`
          : `echo part${i} && `;
    parts.push(part);
    size += part.length;
  }
  return parts.join('');
}

const text = command(1_000_000);
const view: ToolCallView = { card: 'terminal', title: text, description: 'Run it', cwd: '/repo' };
const before = `${Array.from({ length: 5000 }, (_, i) => `const line${i} = ${i};`).join('\n')}\n`;
const diff: ToolCallView = {
  card: 'diff',
  title: 'Edit a.ts',
  diffs: [{ path: 'a.ts', oldText: before, newText: before.replace('line2500 = 2500', 'line2500 = 0') }],
};

test('approval rendering beside the card renderer', async () => {
  const suite = benchSuite(
    '@codeagent/terminal',
    'renderApproval (everything shown, escapes revealed) beside the card renderer over the same call',
    'approval',
  );
  let sink = 0;
  const all = { color: true, width: 120, maxLines: Number.POSITIVE_INFINITY };
  await suite.compare({
    name: 'approval, 1 MB command, 40 lines',
    what: 'renderApproval of a 1 MB command, 40 lines shown',
    baselineName: 'renderToolCall of the same call (cuts the title)',
    ours: () => {
      sink += renderApproval(view, { color: true, width: 120, maxLines: 40 }).text.length;
    },
    baseline: () => {
      sink += renderToolCall(view, { color: true, width: 120 }).length;
    },
  });
  await suite.compare({
    name: 'approval, 1 MB command, all lines',
    what: 'renderApproval of a 1 MB command, every line',
    baselineName: 'renderToolCall of the same call (cuts the title)',
    ours: () => {
      sink += renderApproval(view, all).text.length;
    },
    baseline: () => {
      sink += renderToolCall(view, { color: true, width: 120 }).length;
    },
  });
  await suite.compare({
    name: 'approval, 5,000-line diff',
    what: 'renderApproval of an Edit of a 5,000-line file, every line',
    baselineName: 'renderToolCall of the same diff card',
    ours: () => {
      sink += renderApproval(diff, all).text.length;
    },
    baseline: () => {
      sink += renderToolCall(diff, { color: true, width: 120 }).length;
    },
  });
  await suite.compare({
    name: 'revealText, 1 MB',
    what: 'revealText of the 1 MB command (escapes and controls shown as <ESC>, <U+XXXX>)',
    baselineName: 'sanitizeTerminalText of the same text (strips them)',
    ours: () => {
      sink += revealText(text).length;
    },
    baseline: () => {
      sink += sanitizeTerminalText(text).length;
    },
  });
  suite.finish();
  expect(sink).toBeGreaterThan(0);
});
