import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

const entries = {
  root: fileURLToPath(new URL('../src/index.ts', import.meta.url)),
  safety: fileURLToPath(new URL('../src/safety.ts', import.meta.url)),
  vectors: fileURLToPath(new URL('../src/vectors.ts', import.meta.url)),
};

describe('platform-neutral bundle', () => {
  for (const platform of ['neutral', 'browser'] as const) {
    it.each(Object.entries(entries))(
      `bundles the %s entry for platform ${platform} without Node built-ins`,
      async (_name, entry) => {
        const result = await build({
          entryPoints: [entry],
          bundle: true,
          write: false,
          format: 'esm',
          platform,
          // 'neutral' has no default main fields; resolve packages through their `exports` and `module` fields.
          mainFields: ['module', 'main'],
          conditions: ['import'],
          metafile: true,
          logLevel: 'silent',
        });
        expect(result.errors).toEqual([]);
        const inputs = Object.keys(result.metafile.inputs);
        expect(
          inputs.filter((p) => p.startsWith('node:') || /^(fs|path|os|crypto|url|util|process)$/.test(p)),
        ).toEqual([]);
        const output = result.outputFiles[0]?.text ?? '';
        expect(output).not.toMatch(/\bfrom\s*["']node:|\brequire\(|\bimport\(["']node:/);
        expect(output).not.toMatch(/\bprocess\.|\bBuffer\b/);
        // Nothing left external: every import was resolved into the bundle.
        for (const out of Object.values(result.metafile.outputs)) expect(out.imports).toEqual([]);
      },
    );
  }
});
