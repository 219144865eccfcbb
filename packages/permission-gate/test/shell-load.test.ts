import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { expect, it, vi } from 'vitest';

vi.resetModules();
const { loadShellGrammar, isShellGrammarLoaded } = await import('../src/shell/load.js');
const { createPermissionGate } = await import('../src/index.js');

const require = createRequire(import.meta.url);
const runtime = readFileSync(require.resolve('web-tree-sitter/web-tree-sitter.wasm'));
const grammar = readFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm'));

it('loadShellGrammar takes bytes, rejects a broken grammar, and can be retried', async () => {
  expect(isShellGrammarLoaded()).toBe(false);
  await expect(
    loadShellGrammar({ runtime, grammar: new Uint8Array([0, 97, 115, 109, 9, 9]) }),
  ).rejects.toThrow();
  expect(isShellGrammarLoaded()).toBe(false);
  const bytes = grammar.buffer.slice(grammar.byteOffset, grammar.byteOffset + grammar.byteLength);
  const first = loadShellGrammar({ runtime, grammar: bytes });
  expect(loadShellGrammar({ runtime, grammar })).toBe(first); // one load per realm
  await first;
  expect(isShellGrammarLoaded()).toBe(true);
  const gate = createPermissionGate({ mode: 'bypass', rules: { deny: ['Bash(rm *)'] } });
  expect(gate.evaluate('Bash', { command: "$'\\x72m' -rf x" }).decision).toBe('deny');
});
