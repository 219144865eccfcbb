/// <reference types="node" />
/**
 * `@codeagent/permission-gate/node`: Node-only helpers. Reads the bash grammar's `.wasm` files from the
 * installed `web-tree-sitter` and `tree-sitter-bash` packages.
 *
 * @packageDocumentation
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { loadShellGrammar } from './shell/load.js';

let installed: Promise<void> | undefined;

async function readAndLoad(): Promise<void> {
  const require = createRequire(import.meta.url);
  const [runtime, grammar] = await Promise.all([
    readFile(require.resolve('web-tree-sitter/web-tree-sitter.wasm')),
    readFile(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')),
  ]);
  await loadShellGrammar({ runtime, grammar });
}

/**
 * Loads the bash grammar from the installed packages, once per process (later calls share the promise; a
 * failed load can be retried). Hosts await it before the first turn; agent-core's client awaits it before
 * its first permission check.
 */
export function loadInstalledShellGrammar(): Promise<void> {
  if (installed) return installed;
  const p = readAndLoad();
  installed = p;
  p.catch(() => {
    if (installed === p) installed = undefined;
  });
  return p;
}
