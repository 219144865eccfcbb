import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { checkAccessors } from './readme-example.js';

it('the README quick start is this file, verbatim', async () => {
  const readme = await readFile(join(import.meta.dirname, '../README.md'), 'utf8');
  const example = await readFile(join(import.meta.dirname, 'readme-example.ts'), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});

it('the README quick start runs: the accessors conform, the other operations are listed as not applicable', async () => {
  const text = await checkAccessors();
  expect(text).toMatch(/conformance: OK/);
  expect(text).toMatch(/not applicable/);
});
