import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('platform-neutral root entry', () => {
  it('bundles for platform neutral with no Node built-ins', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'esm',
      mainFields: ['module', 'main'],
      // Siblings from source, as every test imports them (artifact-schema's `./internal`, ADR 0230).
      conditions: ['@codeagent/source'],
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.includes('node_modules/diff/'))).toBe(true);
    const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(
      imports.filter((p) => p.startsWith('node:') || /^(fs|path|os|child_process|url|util)$/.test(p)),
    ).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:|import\(["']node:/);
    // Everything is bundled: the output has no bare imports left.
    expect(code).not.toMatch(/^import .* from ["'][^./]/m);
  });
});
