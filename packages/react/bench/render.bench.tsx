// react bench: each renderer as server markup beside what a host would write without it, through the shared bench
// helper (scripts/bench-lib.mjs: interleaved pairs, ratio ours/baseline, spread, goal). The Chromium figures (first
// render, longest task, scrolling, streaming) are the web host's bench (apps/web).
import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { renderToStaticMarkup } from 'react-dom/server';
import ReactMarkdown from 'react-markdown';
import { expect, test } from 'vitest';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
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

const table5000 = () => (
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
  </table>
);

test('react renderers against their baselines (server markup)', async () => {
  const suite = benchSuite(
    '@codeagent/react',
    'the renderers as server markup (renderToStaticMarkup) beside the plain React a host would write without them',
  );
  suite.note(
    `inputs: markdown reply ${(reply.length / 1000).toFixed(1)} kB; terminal output ${(output.length / 1000).toFixed(0)} kB (3,000 lines); table 5,000 rows`,
  );
  let sink = 0;
  await suite.compare({
    name: 'Markdown',
    what: 'Markdown of a long model reply (ours: guards, link policy, image placeholders)',
    baselineName: 'react-markdown as is',
    ours: () => {
      sink += renderToStaticMarkup(<Markdown text={reply} />).length;
    },
    baseline: () => {
      sink += renderToStaticMarkup(<ReactMarkdown>{reply}</ReactMarkdown>).length;
    },
  });
  await suite.compare({
    name: 'TerminalOutput',
    what: 'TerminalOutput of 3,000 coloured lines (ours: SGR colours as classes)',
    baselineName: 'sanitised plain <pre> (no colours)',
    ours: () => {
      sink += renderToStaticMarkup(<TerminalOutput output={output} />).length;
    },
    baseline: () => {
      sink += renderToStaticMarkup(<pre>{sanitizeTerminalText(output, { keepSgr: false })}</pre>).length;
    },
    note: 'no goal: coloured spans necessarily cost more than one text node; the figure shows how much',
  });
  await suite.compare({
    name: 'DataTable',
    what: 'DataTable of 5,000 rows (ours: virtualised, only the first window is rendered)',
    baselineName: 'plain <table> of every row',
    ours: () => {
      sink += renderToStaticMarkup(<DataTable rows={rows} />).length;
    },
    baseline: () => {
      sink += renderToStaticMarkup(table5000()).length;
    },
  });
  suite.finish();
  expect(sink).toBeGreaterThan(0);
});
