import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

describe('public surface (changing it is a semver decision)', () => {
  it('pins the root entry export names', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'ARTIFACT_KINDS',
      'ArtifactPayloadSchema',
      'ArtifactSchemaError',
      'TOOL_ARTIFACT_SCHEMA',
      'TOOL_ARTIFACT_VERSION',
      'ToolArtifactSchema',
      'UNSERIALISABLE_OUTPUT_MESSAGE',
      'adaptToolResult',
      'normalizeToolOutput',
      'toolResult',
      'toolResultArtifact',
      'toolResultValue',
    ]);
  });

  it('pins the ./safety entry export names', async () => {
    expect(Object.keys(await import('../src/safety.js')).sort()).toEqual([
      'escapeHtml',
      'isTrustedHtml',
      'sanitizeTerminalText',
      'trustedHtml',
    ]);
  });

  it('pins the ./vectors entry export names', async () => {
    expect(Object.keys(await import('../src/vectors.js')).sort()).toEqual([
      'isThrowingVector',
      'vectorGroups',
      'vectors',
    ]);
  });

  it('pins the ./internal entry export names (outside semver, for siblings)', async () => {
    expect(Object.keys(await import('../src/internal.js')).sort()).toEqual([
      'assertNever',
      'isErrorSet',
      'isPlainObject',
      'isRecord',
      'safeJson',
      'toText',
      'unreachableMessage',
    ]);
  });

  it('pins the package exports map', () => {
    const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as {
      exports: Record<string, unknown>;
      sideEffects: boolean;
    };
    expect(Object.keys(pkg.exports)).toEqual([
      '.',
      './safety',
      './vectors',
      './internal',
      './tool-artifact.v1.schema.json',
      './package.json',
    ]);
    expect(pkg.sideEffects).toBe(false);
  });
});
