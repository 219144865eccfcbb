// Every test file runs with the bash grammar loaded, as hosts do before the first turn; test/shell-unloaded.test.ts
// covers the state before it loads with a fresh module graph.
import { loadInstalledShellGrammar } from '../src/node.js';

await loadInstalledShellGrammar();
