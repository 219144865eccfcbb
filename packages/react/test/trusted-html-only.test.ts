import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../src/', import.meta.url));

it('uses dangerouslySetInnerHTML only in TrustedHtmlView, behind the trustedHtml brand check', async () => {
  const files = (await readdir(SRC, { recursive: true })).filter(
    (f) => /\.tsx?$/.test(f) && !/\.test\./.test(f),
  );
  const users: string[] = [];
  for (const file of files) {
    const text = await readFile(join(SRC, file), 'utf8');
    if (text.includes('dangerouslySetInnerHTML')) users.push(file);
    // No HTML string sinks either.
    expect(text).not.toMatch(
      /\.innerHTML\s*=|outerHTML|insertAdjacentHTML|document\.write|new Function|\beval\(/,
    );
  }
  expect(users).toEqual(['trusted.tsx']);
  const trusted = await readFile(join(SRC, 'trusted.tsx'), 'utf8');
  expect(trusted).toMatch(
    /if \(isTrustedHtml\(html\)\) \{\s*\/\/[^\n]*\n\s*return <div className=\{cls\} dangerouslySetInnerHTML/,
  );
});
