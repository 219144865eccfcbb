import { describe, expectTypeOf, it } from 'vitest';
import {
  type ArtifactKind,
  type ArtifactKindName,
  type ArtifactSchemaErrorCode,
  type ArtifactVersionOption,
  type ToolArtifact,
  type ToolResult,
  adaptToolResult,
  normalizeToolOutput,
  toolResult,
  toolResultArtifact,
  toolResultValue,
} from '../src/index.js';
import { type TrustedHtml, isTrustedHtml, trustedHtml } from '../src/safety.js';
import type { InferredToolArtifact } from '../src/schema.js';
import { type ConformanceVector, isThrowingVector } from '../src/vectors.js';
import { assertNever } from '../src/internal.js';

describe('types', () => {
  it('accessors return the artifact or null and a string', () => {
    expectTypeOf(toolResultArtifact).returns.toEqualTypeOf<ToolArtifact | null>();
    expectTypeOf(toolResultValue).returns.toEqualTypeOf<string>();
    expectTypeOf(adaptToolResult).returns.toEqualTypeOf<ToolResult>();
    expectTypeOf(normalizeToolOutput).returns.toEqualTypeOf<ToolResult>();
  });

  it('artifact fields have the contract types', () => {
    expectTypeOf<ToolArtifact['schema']>().toEqualTypeOf<'codeagent.tool-artifact'>();
    expectTypeOf<ToolArtifact['version']>().toEqualTypeOf<number>();
    expectTypeOf<ToolArtifact['icon']>().toEqualTypeOf<string | null>();
    expectTypeOf<ToolArtifact['payload']>().toEqualTypeOf<Record<string, unknown> | unknown[]>();
    expectTypeOf<ArtifactKind>().toMatchTypeOf<ToolArtifact['kind']>();
    expectTypeOf<'chart'>().toMatchTypeOf<ArtifactKindName>();
  });

  it('toolResult options are typed', () => {
    toolResult('x', { kind: 'table', payload: { df: [] }, title: null, icon: 'table', status: 'denied' });
    // @ts-expect-error the portable value must be a string
    toolResult(5);
    // @ts-expect-error title is a string or null
    toolResult('x', { title: 5 });
    // @ts-expect-error payload is an object or an array
    toolResult('x', { payload: 'text' });
  });

  it('the version option accepts a number, a list or null only', () => {
    expectTypeOf<ArtifactVersionOption>().toEqualTypeOf<number | readonly number[] | null>();
    toolResultArtifact({}, { version: [1, 2] as const });
    toolResultArtifact({}, { version: null });
    // @ts-expect-error a version is a number, not a string
    toolResultArtifact({}, { version: '1' });
  });

  it('error codes form a closed union that can be switched exhaustively', () => {
    const describeCode = (code: ArtifactSchemaErrorCode): string => {
      switch (code) {
        case 'invalid-value':
        case 'invalid-options':
        case 'invalid-kind':
        case 'invalid-payload':
        case 'missing-payload':
        case 'invalid-title':
        case 'invalid-icon':
        case 'invalid-status':
        case 'invalid-version-option':
        case 'invalid-fallback':
        case 'invalid-html':
          return code;
        default:
          return assertNever(code);
      }
    };
    expectTypeOf(describeCode).returns.toEqualTypeOf<string>();
  });

  it('trusted HTML and vectors narrow', () => {
    expectTypeOf(trustedHtml('x')).toEqualTypeOf<TrustedHtml>();
    const x: unknown = null;
    if (isTrustedHtml(x)) expectTypeOf(x).toEqualTypeOf<TrustedHtml>();
    const v = {} as ConformanceVector;
    if (isThrowingVector(v)) expectTypeOf(v.throws.code).toEqualTypeOf<string>();
    else expectTypeOf(v.expected).toEqualTypeOf<unknown>();
  });
});

describe('schema is the source of truth', () => {
  it('ToolArtifact equals the inferred output of the valibot object schema', () => {
    expectTypeOf<InferredToolArtifact>().toEqualTypeOf<ToolArtifact>();
  });
});
