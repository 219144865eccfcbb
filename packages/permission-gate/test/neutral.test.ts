import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';

describe('platform-neutral root entry', () => {
  it('bundles for platform neutral with no Node built-ins and no globals beyond ECMAScript timers', async () => {
    const result = await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'esm',
      mainFields: ['browser', 'module', 'main'],
      conditions: ['browser', '@codeagent/source'],
      metafile: true,
      logLevel: 'silent',
    });
    expect(result.errors).toEqual([]);
    const inputs = Object.keys(result.metafile.inputs);
    expect(inputs.some((p) => p.includes('node_modules/yaml/'))).toBe(true);
    expect(inputs.some((p) => p.includes('picomatch'))).toBe(false);
    const imports = Object.values(result.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(
      imports.filter((p) => p.startsWith('node:') || /^(fs|path|os|child_process|url|util|process)$/.test(p)),
    ).toEqual([]);
    const code = result.outputFiles[0]?.text ?? '';
    expect(code).not.toMatch(/from\s*["']node:|require\(["']node:|import\(["']node:/);
    expect(code).not.toMatch(/^import .* from ["'][^./]/m);
  });

  it('has no Node built-in imports in its own sources', () => {
    const dir = new URL('../src/', import.meta.url);
    for (const f of [
      'index',
      'gate',
      'rules',
      'glob',
      'paths',
      'config',
      'tool-meta',
      'types',
      'errors',
      'message',
      'mode-table',
      'shell/analyse',
      'shell/words',
      'shell/wrappers',
      'shell/syntax',
      'shell/load',
    ]) {
      const src = readFileSync(new URL(`${f}.ts`, dir), 'utf8');
      expect(src, f).not.toMatch(/from ['"](node:|fs|path|os|process)['"]/);
      expect(src, f).not.toMatch(/\bprocess\.|\bBuffer\b|\brequire\(/);
    }
  });

  it('declares artifact-schema (its ./internal helpers), yaml and the bash grammar (web-tree-sitter + tree-sitter-bash, exact pins) as runtime dependencies', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(pkg.dependencies)).toEqual([
      '@codeagent/artifact-schema',
      'tree-sitter-bash',
      'web-tree-sitter',
      'yaml',
    ]);
    expect(pkg.dependencies['web-tree-sitter']).toMatch(/^\d+\.\d+\.\d+$/);
    expect(pkg.dependencies['tree-sitter-bash']).toMatch(/^\d+\.\d+\.\d+$/);
  });

  it('keeps the parser runtime out of the root entry and bundles ./shell for the browser without Node built-ins', async () => {
    const root = await build({
      entryPoints: [fileURLToPath(new URL('../src/index.ts', import.meta.url))],
      bundle: true,
      write: false,
      platform: 'neutral',
      format: 'esm',
      mainFields: ['browser', 'module', 'main'],
      conditions: ['browser', '@codeagent/source'],
      metafile: true,
      logLevel: 'silent',
    });
    expect(Object.keys(root.metafile.inputs).some((p) => p.includes('web-tree-sitter'))).toBe(false);
    const shell = await build({
      entryPoints: [fileURLToPath(new URL('../src/shell/load.ts', import.meta.url))],
      bundle: true,
      write: false,
      platform: 'browser',
      format: 'esm',
      metafile: true,
      logLevel: 'silent',
    });
    expect(shell.errors).toEqual([]);
    const inputs = Object.keys(shell.metafile.inputs);
    expect(inputs.some((p) => p.includes('web-tree-sitter'))).toBe(true);
    const imports = Object.values(shell.metafile.inputs).flatMap((i) => i.imports.map((x) => x.path));
    expect(imports.filter((p) => p.startsWith('node:'))).toEqual([]);
  });
});
