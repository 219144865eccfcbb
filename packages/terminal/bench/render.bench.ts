import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import stripAnsi from 'strip-ansi';
import { Bench } from 'tinybench';
import { expect, test } from 'vitest';
import { renderArtifact, renderToolResult } from '../src/index.js';

/** 100,000 lines of test-runner-like output: plain lines, SGR-coloured lines, some CJK, a few hostile escapes. */
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
const megabytes = Buffer.byteLength(input, 'utf8') / 1e6;
/** Escape-dense input: every line carries colours and a cursor move. */
const dense = Array.from(
  { length: 20_000 },
  (_, i) => `\u001b[1;31mE${i}\u001b[0m \u001b[2K\u001b[3Aline ${i}`,
).join('\n');
const denseMegabytes = Buffer.byteLength(dense, 'utf8') / 1e6;

test('terminal renderer throughput (100,000-line tool output)', async () => {
  const bench = new Bench({ time: 2000, iterations: 5, warmupTime: 200, warmupIterations: 1 });
  let sink = 0;
  bench
    .add('renderToolResult terminal card, colour on', () => {
      sink += renderToolResult(
        { card: 'terminal', output: input, exitCode: 0 },
        {},
        { color: true, width: 120 },
      ).length;
    })
    .add('renderToolResult terminal card, colour off', () => {
      sink += renderToolResult(
        { card: 'terminal', output: input, exitCode: 0 },
        {},
        { color: false, width: 120 },
      ).length;
    })
    .add('renderArtifact text artifact, colour on', () => {
      sink += renderArtifact({ value: input }, { color: true, width: 120 }).length;
    })
    .add('sanitizeTerminalText (realistic)', () => {
      sink += sanitizeTerminalText(input).length;
    })
    .add('strip-ansi baseline (realistic)', () => {
      sink += stripAnsi(input).length;
    })
    .add('sanitizeTerminalText (escape-dense)', () => {
      sink += sanitizeTerminalText(dense).length;
    })
    .add('strip-ansi baseline (escape-dense)', () => {
      sink += stripAnsi(dense).length;
    });
  await bench.run();
  expect(sink).toBeGreaterThan(0);

  const rows = bench.tasks.map((task) => {
    const r = task.result;
    const hz = r && 'throughput' in r ? r.throughput.mean : 0;
    const size = task.name.includes('dense') ? denseMegabytes : megabytes;
    return { task: task.name, 'ops/s': Number(hz.toFixed(2)), 'MB/s': Number((hz * size).toFixed(1)) };
  });
  const hz = (name: string): number => rows.find((r) => r.task === name)?.['ops/s'] ?? Number.NaN;
  console.log(
    `input: ${LINES} lines, ${megabytes.toFixed(2)} MB; escape-dense input: ${denseMegabytes.toFixed(2)} MB`,
  );
  console.table(rows);
  console.log(
    `ratio sanitizeTerminalText / strip-ansi: realistic ${(hz('sanitizeTerminalText (realistic)') / hz('strip-ansi baseline (realistic)')).toFixed(2)}x, ` +
      `escape-dense ${(hz('sanitizeTerminalText (escape-dense)') / hz('strip-ansi baseline (escape-dense)')).toFixed(2)}x`,
  );
  console.log(
    `ratio full render (colour on) / sanitiser alone: ${(hz('renderToolResult terminal card, colour on') / hz('sanitizeTerminalText (realistic)')).toFixed(2)}x`,
  );
});
