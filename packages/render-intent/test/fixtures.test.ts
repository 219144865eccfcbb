import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import fixtureFile from '../fixtures/builtin-tools.json' with { type: 'json' };
import pkg from '../package.json' with { type: 'json' };
import {
  createBuiltinPresenters,
  createToolPresenter,
  isToolCallView,
  isToolResultView,
  type PresenterFixtureFile,
  type PresenterIssue,
  type ToolResultInput,
} from '../src/index.js';

const file = fixtureFile as PresenterFixtureFile;
const builtinNames = new Set(['Read', 'Write', 'Edit', 'Bash', 'TodoWrite']);

describe('golden fixtures for the built-in tool shapes', () => {
  it('covers every built-in tool and every shape the contract names', () => {
    const ids = file.cases.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const tool of builtinNames) expect(file.cases.some((c) => c.tool === tool)).toBe(true);
    for (const id of [
      'read-window',
      'write-create',
      'write-overwrite',
      'edit-single',
      'edit-replace-all',
      'edit-error',
      'bash-foreground',
      'bash-background',
      'bash-signal',
      'bash-error',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('expected views are themselves well-formed views', () => {
    for (const c of file.cases) {
      expect(isToolCallView(c.expected.call), c.id).toBe(true);
      expect(isToolResultView(c.expected.result), c.id).toBe(true);
    }
  });

  it.each(file.cases.map((c) => [c.id, c] as const))(
    '%s: the reference presenters reproduce it',
    (_id, c) => {
      const builtins = createBuiltinPresenters({ cwd: c.cwd });
      const issues: PresenterIssue[] = [];
      const presenter = createToolPresenter(
        (name) => (builtinNames.has(name) ? builtins[name as keyof typeof builtins] : undefined),
        { onError: (issue) => issues.push(issue) },
      );
      // Round-trip through JSON like a replayed session does.
      const args: unknown = JSON.parse(JSON.stringify(c.args));
      expect(presenter.call('call_1', c.tool, args)).toEqual(c.expected.call);
      expect(presenter.result('call_1', c.result as ToolResultInput)).toEqual(c.expected.result);
      expect(presenter.pending).toBe(0);
      expect(issues).toEqual([]);
    },
  );

  it('ships through the ./fixtures subpath export', () => {
    expect(pkg.exports['./fixtures']).toBe('./fixtures/builtin-tools.json');
    expect(pkg.files).toContain('fixtures');
    const url = new URL(`../${pkg.exports['./fixtures']}`, import.meta.url);
    expect(JSON.parse(readFileSync(url, 'utf8'))).toEqual(fixtureFile);
  });
});
