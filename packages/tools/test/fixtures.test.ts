// Replays call/result pairs recorded from real tool runs (scripts/record-fixtures.mjs) through the pure presenters.
import { readFileSync } from 'node:fs';
import { createToolPresenter, type PresenterFixtureFile } from '@codeagent/render-intent';
import { describe, expect, it } from 'vitest';
import { createBuiltinPresentations } from '../src/index.js';

const file = JSON.parse(
  readFileSync(new URL('./__fixtures__/recorded.json', import.meta.url), 'utf8'),
) as PresenterFixtureFile;

describe('recorded presenter fixtures', () => {
  it('covers every card the tools produce', () => {
    expect(file.version).toBe(1);
    const cards = new Set(
      file.cases.flatMap((c) => [`call:${c.expected.call.card}`, `result:${c.expected.result.card}`]),
    );
    expect([...cards].sort()).toEqual([
      'call:diff',
      'call:generic',
      'call:terminal',
      'result:diff',
      'result:generic',
      'result:terminal',
    ]);
  });

  for (const c of file.cases) {
    it(`${c.id}: ${c.source}`, () => {
      const presentations = createBuiltinPresentations({ cwd: c.cwd });
      const issues: unknown[] = [];
      const presenter = createToolPresenter((n) => presentations[n as keyof typeof presentations], {
        onError: (i) => issues.push(i),
      });
      expect(presenter.call(c.id, c.tool, c.args)).toEqual(c.expected.call);
      const result = c.result as { content: string; isError: boolean; meta?: unknown };
      expect(presenter.result(c.id, result)).toEqual(c.expected.result);
      expect(issues).toEqual([]);
    });
  }
});
