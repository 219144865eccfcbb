import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { Bench } from 'tinybench';
import { expect, test } from 'vitest';
import { DataTable, Markdown, TerminalOutput } from '../src/index.ts';

/** A long model reply: headings, lists, links, code spans and fences, some raw HTML. */
const reply = Array.from(
  { length: 120 },
  (_, i) =>
    `## Step ${i}\n\nThe **${i}th** change touches \`src/file${i}.ts\`; see [the docs](https://example.com/${i}).\n\n- one <b>item</b>\n- two\n\n\`\`\`ts\nconst x${i} = ${i};\n\`\`\`\n`,
).join('\n');

/** 3,000 lines (under the 200,000-character cap) of coloured test-runner output with a few hostile escapes. */
const output = Array.from({ length: 3000 }, (_, i) =>
  i % 10 === 0
    ? `\u001b[32m✓\u001b[0m src/module${i}.test.ts \u001b[2m(${i % 97} ms)\u001b[0m`
    : i % 300 === 2
      ? `\u001b]0;title ${i}\u0007\u001b[2Jhostile ${i}`
      : `    at Object.<anonymous> (/repo/src/file${i}.ts:${i % 400}:${i % 80})`,
).join('\n');

const rows = Array.from({ length: 5000 }, (_, i) => ({ id: i, name: `row ${i}`, score: (i * 7919) % 1000 }));

test('react renderers against their baselines (server markup)', async () => {
  const bench = new Bench({ time: 1500, iterations: 5, warmupTime: 200, warmupIterations: 1 });
  let sink = 0;
  bench
    .add('Markdown (ours: guards, link policy, image placeholders)', () => {
      sink += renderToStaticMarkup(<Markdown text={reply} />).length;
    })
    .add('react-markdown as is (baseline)', () => {
      sink += renderToStaticMarkup(<ReactMarkdown>{reply}</ReactMarkdown>).length;
    })
    .add('TerminalOutput (ours: SGR colours as classes)', () => {
      sink += renderToStaticMarkup(<TerminalOutput output={output} />).length;
    })
    .add('sanitised plain <pre> (baseline: no colours)', () => {
      sink += renderToStaticMarkup(<pre>{sanitizeTerminalText(output, { keepSgr: false })}</pre>).length;
    })
    .add('DataTable 5,000 rows (ours: virtualised)', () => {
      sink += renderToStaticMarkup(<DataTable rows={rows} />).length;
    })
    .add('plain <table> of 5,000 rows (baseline)', () => {
      sink += renderToStaticMarkup(
        <table>
          <tbody>
            {rows.map((r) => (
              <tr key={r.id}>
                <td>{r.id}</td>
                <td>{r.name}</td>
                <td>{r.score}</td>
              </tr>
            ))}
          </tbody>
        </table>,
      ).length;
    });
  await bench.run();
  expect(sink).toBeGreaterThan(0);
  const table = bench.tasks.map((task) => {
    const r = task.result;
    const hz = r && 'throughput' in r ? r.throughput.mean : 0;
    const rme = r && 'throughput' in r ? r.throughput.rme : 0;
    return { task: task.name, 'ops/s': Number(hz.toFixed(1)), '±%': Number(rme.toFixed(1)) };
  });
  console.log(
    `markdown ${(reply.length / 1000).toFixed(1)} kB; terminal output ${(output.length / 1000).toFixed(0)} kB; table 5,000 rows`,
  );
  console.table(table);
  const hz = (i: number): number => table[i]?.['ops/s'] ?? Number.NaN;
  console.log(
    `ratio ours/baseline (time): markdown ${(hz(1) / hz(0)).toFixed(2)}x, terminal ${(hz(3) / hz(2)).toFixed(2)}x, table ${(hz(5) / hz(4)).toFixed(2)}x`,
  );
});
