import { describe, expect, it } from 'vitest';
import {
  ArtifactSchemaError,
  adaptToolResult,
  normalizeToolOutput,
  toolResult,
  toolResultArtifact,
  toolResultValue,
} from '../src/index.js';
import { escapeHtml, sanitizeTerminalText } from '../src/safety.js';
import {
  type ConformanceVector,
  type VectorOp,
  isThrowingVector,
  vectorGroups,
  vectors,
} from '../src/vectors.js';
import { ARTIFACT_KEY_ORDER } from './helpers.js';

const ops: Record<VectorOp, (...args: never[]) => unknown> = {
  toolResultArtifact,
  toolResultValue,
  toolResult,
  adaptToolResult,
  normalizeToolOutput,
  escapeHtml,
  sanitizeTerminalText,
};

function call(v: ConformanceVector): unknown {
  const fn = ops[v.op] as (...args: unknown[]) => unknown;
  return fn(...v.args);
}

/** Every artifact reachable in a produced value keeps the contract key order. */
function artifactsIn(x: unknown): Array<Record<string, unknown>> {
  if (typeof x !== 'object' || x === null) return [];
  const o = x as Record<string, unknown>;
  if (o.schema === 'codeagent.tool-artifact') return [o];
  const extra = o.extra as { codeagent?: { artifact?: Record<string, unknown> } } | undefined;
  const a = extra?.codeagent?.artifact;
  return a ? [a] : [];
}

describe('conformance vectors', () => {
  it('has at least 80 cases with unique ids, a rule and a known op', () => {
    expect(vectors.length).toBeGreaterThanOrEqual(80);
    expect(new Set(vectors.map((v) => v.id)).size).toBe(vectors.length);
    for (const v of vectors) {
      expect(v.rule.length, v.id).toBeGreaterThan(0);
      expect(Object.keys(ops), v.id).toContain(v.op);
      expect(Array.isArray(v.args), v.id).toBe(true);
    }
  });

  it('covers every group the contract names', () => {
    const ids = vectors.map((v) => v.id);
    for (const prefix of [
      'accessor/',
      'version/',
      'value/',
      'producer/',
      'adapt/',
      'normalize/',
      'safety/html/',
      'safety/terminal/',
    ]) {
      expect(
        ids.some((id) => id.startsWith(prefix)),
        prefix,
      ).toBe(true);
    }
    expect(Object.keys(vectorGroups)).toEqual([
      'accessor',
      'value',
      'producer',
      'adapt',
      'normalize',
      'safety',
    ]);
  });

  for (const v of vectors) {
    it(`${v.id} (${v.rule})`, () => {
      if (isThrowingVector(v)) {
        let thrown: unknown;
        try {
          call(v);
        } catch (error) {
          thrown = error;
        }
        expect(thrown).toBeInstanceOf(TypeError);
        expect(thrown).toBeInstanceOf(ArtifactSchemaError);
        expect((thrown as ArtifactSchemaError).code).toBe(v.throws.code);
        return;
      }
      const actual = call(v);
      expect(actual).toStrictEqual(v.expected);
      for (const artifact of artifactsIn(actual)) {
        if (artifact.version === 1) expect(Object.keys(artifact)).toEqual(ARTIFACT_KEY_ORDER);
        else expect(Object.keys(artifact).slice(0, 7)).toEqual(ARTIFACT_KEY_ORDER);
      }
      if (v.op === 'adaptToolResult' || v.op === 'normalizeToolOutput') {
        // Adaptation is idempotent, and produced results are already adapted.
        expect(adaptToolResult(actual)).toStrictEqual(actual);
      }
      if (v.op === 'sanitizeTerminalText') {
        expect(sanitizeTerminalText(actual as string, v.args[1] as never)).toBe(actual);
      }
    });
  }
});
