import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { toolResult } from '../src/index.js';
import { renderResult } from './readme/renderer-author.js';
import { fromBad, fromRows, fromText, summarise } from './readme/tool-author.js';

const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const snippet = (name: string) => readFileSync(new URL(`./readme/${name}`, import.meta.url), 'utf8');

describe('README quick starts', () => {
  it.each(['tool-author.ts', 'renderer-author.ts'])(
    '%s is in the README verbatim and at most 15 lines',
    (name) => {
      const code = snippet(name);
      expect(readme).toContain(`\`\`\`ts\n${code}\`\`\``);
      expect(code.trimEnd().split('\n').length).toBeLessThanOrEqual(15);
    },
  );

  it('the tool-author snippet produces the documented kinds', () => {
    const result = summarise([{ group: 'a', n: 1 }]);
    expect(result.value).toBe('Summary contains 1 rows.');
    expect(result.extra.codeagent.artifact.kind).toBe('table');
    expect(fromText.extra.codeagent.artifact.kind).toBe('text');
    expect(fromRows.extra.codeagent.artifact.kind).toBe('table');
    expect(fromBad.extra.codeagent.artifact.kind).toBe('error');
    expect(fromBad.value).not.toContain('onDone');
  });

  it('the renderer-author snippet escapes, forces error status and falls back to the value', () => {
    expect(renderResult(toolResult('<b>hi</b>'))).toBe('<p>&lt;b&gt;hi&lt;/b&gt;</p>');
    expect(
      renderResult({
        value: 'v',
        isError: true,
        artifact: toolResult('x', { kind: 'error' }).extra.codeagent.artifact,
      }),
    ).toBe('<p class="error">x</p>');
    expect(renderResult({ value: '<i>plain</i>', extra: { codeagent: { artifact: 'garbage' } } })).toBe(
      '<pre>&lt;i&gt;plain&lt;/i&gt;</pre>',
    );
    expect(renderResult(summarise([]))).toBe('<pre>Summary contains 0 rows.</pre>');
  });
});
