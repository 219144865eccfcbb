// terminal bench: the terminal card over a tool's output (100,000 lines and 50 MB) and the sanitiser, each beside a
// strip-ansi regex over the same text (which only strips colours: it keeps C0/C1 controls and bidi characters, so
// it does less than the sanitiser). Printed and written by the shared bench helper (scripts/bench-lib.mjs).
import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import stripAnsi from 'strip-ansi';
import { expect, test } from 'vitest';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import { renderArtifact, renderToolResult } from '../src/index.js';

/** Test-runner-like output: plain lines, SGR-coloured lines, some CJK, a few hostile escapes. */
function toolOutput(lines: number): string {
  const out: string[] = [];
  for (let i = 0; i < lines; i++) {
    if (i % 10 === 0)
      out.push(`\u001b[32m✓\u001b[0m src/module${i}.test.ts \u001b[2m(${i % 97} ms)\u001b[0m`);
    else if (i % 50 === 1) out.push(`  日本語のログ行 ${i}: 処理が完了しました`);
    else if (i % 1000 === 2) out.push(`\u001b]0;title ${i}\u0007\u001b[2Jhostile line ${i}\r`);
    else out.push(`    at Object.<anonymous> (/repo/src/file${i}.ts:${i % 400}:${i % 80})`);
  }
  return out.join('\n');
}

const LINES = 100_000;
const input = toolOutput(LINES);
const mb = (s: string) => (Buffer.byteLength(s, 'utf8') / 1e6).toFixed(1);
let big = input;
while (big.length < 50e6) big = `${big}\n${big}`;
big = big.slice(0, 50e6);
/** Escape-dense input: every line carries colours and a cursor move. */
const dense = Array.from(
  { length: 20_000 },
  (_, i) => `\u001b[1;31mE${i}\u001b[0m \u001b[2K\u001b[3Aline ${i}`,
).join('\n');

test('terminal card and sanitiser beside strip-ansi', async () => {
  const suite = benchSuite(
    '@codeagent/terminal',
    'the terminal result card and sanitizeTerminalText beside a strip-ansi regex over the same text',
    'render',
  );
  suite.note(
    `inputs: ${LINES.toLocaleString('en')}-line tool output ${mb(input)} MB; the same repeated to ${mb(big)} MB; escape-dense ${mb(dense)} MB (20,000 lines, 4 escapes each)`,
  );
  let sink = 0;
  const card = (text: string, color: boolean) => () => {
    sink += renderToolResult(
      { card: 'terminal', output: text, exitCode: 0 },
      {},
      { color, width: 120 },
    ).length;
  };
  const strip = (text: string) => () => {
    sink += stripAnsi(text).length;
  };
  await suite.compare({
    name: 'terminal card, 50 MB',
    what: `renderToolResult terminal card, colour on, ${mb(big)} MB output`,
    baselineName: 'strip-ansi over the same text',
    ours: card(big, true),
    baseline: strip(big),
    goal: { max: 400, on: 'value', note: 'ms for the 50 MB output' },
    minRounds: 9,
    budgetMs: 30_000,
    warmup: 1,
  });
  for (const color of [true, false]) {
    await suite.compare({
      name: `terminal card, colour ${color ? 'on' : 'off'}`,
      what: `renderToolResult terminal card, ${LINES.toLocaleString('en')}-line output`,
      baselineName: 'strip-ansi over the same text',
      ours: card(input, color),
      baseline: strip(input),
    });
  }
  await suite.compare({
    name: 'text artifact',
    what: `renderArtifact of a text artifact, colour on, ${LINES.toLocaleString('en')}-line output`,
    baselineName: 'strip-ansi over the same text',
    ours: () => {
      sink += renderArtifact({ value: input }, { color: true, width: 120 }).length;
    },
    baseline: strip(input),
  });
  for (const [label, text] of [
    ['realistic', input],
    ['escape-dense', dense],
  ] as const) {
    await suite.compare({
      name: `sanitizer, ${label}`,
      what: `sanitizeTerminalText, ${label} input (strips every escape but SGR, C0/C1 controls, bidi controls)`,
      baselineName: 'strip-ansi regex (colours only)',
      ours: () => {
        sink += sanitizeTerminalText(text).length;
      },
      baseline: strip(text),
      goal: { max: 2, note: 'at least 0.5x the regex throughput' },
    });
  }
  suite.finish();
  expect(sink).toBeGreaterThan(0);
});
