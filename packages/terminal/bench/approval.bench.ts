import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { revealText, type ToolCallView } from '@codeagent/render-intent';
import { Bench } from 'tinybench';
import { expect, test } from 'vitest';
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

test('approval rendering vs the card renderer (1 MB command, 5,000-line file diff)', async () => {
  const bench = new Bench({ time: 2000, iterations: 5, warmupTime: 200, warmupIterations: 1 });
  let sink = 0;
  bench
    .add('renderApproval terminal card, 1 MB, 40 lines shown', () => {
      sink += renderApproval(view, { color: true, width: 120, maxLines: 40 }).text.length;
    })
    .add('renderApproval terminal card, 1 MB, all lines', () => {
      sink += renderApproval(view, { color: true, width: 120, maxLines: Number.POSITIVE_INFINITY }).text
        .length;
    })
    .add('renderToolCall terminal card, 1 MB (baseline: cuts the title)', () => {
      sink += renderToolCall(view, { color: true, width: 120 }).length;
    })
    .add('renderApproval diff card, 5,000-line file', () => {
      sink += renderApproval(diff, { color: true, width: 120, maxLines: Number.POSITIVE_INFINITY }).text
        .length;
    })
    .add('renderToolCall diff card, 5,000-line file (baseline)', () => {
      sink += renderToolCall(diff, { color: true, width: 120 }).length;
    })
    .add('revealText, 1 MB', () => {
      sink += revealText(text).length;
    })
    .add('sanitizeTerminalText, 1 MB (baseline)', () => {
      sink += sanitizeTerminalText(text).length;
    });
  await bench.run();
  expect(sink).toBeGreaterThan(0);
  const rows = bench.tasks.map((task) => {
    const r = task.result;
    const hz = r && 'throughput' in r ? r.throughput.mean : 0;
    const rme = r && 'throughput' in r ? r.throughput.rme : 0;
    return { task: task.name, 'ops/s': Number(hz.toFixed(2)), '±%': Number(rme.toFixed(1)) };
  });
  const hz = (name: string): number => rows.find((r) => r.task.startsWith(name))?.['ops/s'] ?? Number.NaN;
  console.table(rows);
  console.log(
    `ratio renderApproval (all lines) / renderToolCall, 1 MB command: ${(hz('renderApproval terminal card, 1 MB, all') / hz('renderToolCall terminal card')).toFixed(2)}x; ` +
      `diff: ${(hz('renderApproval diff') / hz('renderToolCall diff')).toFixed(2)}x; ` +
      `revealText / sanitizeTerminalText: ${(hz('revealText') / hz('sanitizeTerminalText')).toFixed(2)}x`,
  );
});
