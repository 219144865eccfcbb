/**
 * Conformance vectors of the artifact protocol as data: each case names the operation, its JSON arguments,
 * the expected JSON result (or the expected error), and the rule it comes from. Shared with
 * `@codeagent/conformance` and usable from any language through the JSON files in `src/vectors/`.
 *
 * @packageDocumentation
 */
import accessor from './vectors/accessor.json' with { type: 'json' };
import adapt from './vectors/adapt.json' with { type: 'json' };
import normalize from './vectors/normalize.json' with { type: 'json' };
import producer from './vectors/producer.json' with { type: 'json' };
import safety from './vectors/safety.json' with { type: 'json' };
import value from './vectors/value.json' with { type: 'json' };

/** The operation a vector exercises (a public function of `@codeagent/artifact-schema` or its `./safety` entry). */
export type VectorOp =
  | 'toolResultArtifact'
  | 'toolResultValue'
  | 'toolResult'
  | 'adaptToolResult'
  | 'normalizeToolOutput'
  | 'escapeHtml'
  | 'sanitizeTerminalText';

/** The error a throwing vector expects: the constructor name and the stable `code` (when the error has one). */
export interface VectorThrows {
  /** Expected error name in the `instanceof` sense, e.g. `TypeError`. */
  name: 'TypeError';
  /** Expected stable error code. */
  code: string;
}

/** Fields every vector has. */
interface VectorBase {
  /** Unique id, `<group>/<case>`. */
  id: string;
  /** Where the rule comes from (CONTRACTS section, seed section or ADR). */
  rule: string;
  /** Operation under test. */
  op: VectorOp;
  /** JSON arguments, applied positionally. */
  args: unknown[];
}

/** A vector whose call returns `expected` (compared by deep equality). */
export interface ReturningVector extends VectorBase {
  /** Expected JSON result. */
  expected: unknown;
}

/** A vector whose call throws. */
export interface ThrowingVector extends VectorBase {
  /** Expected error. */
  throws: VectorThrows;
}

/** One conformance case. */
export type ConformanceVector = ReturningVector | ThrowingVector;

/** The vector groups, by file name. */
export interface VectorGroups {
  /** `toolResultArtifact`: accessor, shapes, error rule, version negotiation. */
  accessor: readonly ConformanceVector[];
  /** `toolResultValue`: value extraction. */
  value: readonly ConformanceVector[];
  /** `toolResult`: producer outputs and producer errors. */
  producer: readonly ConformanceVector[];
  /** `adaptToolResult`: legacy upgrade, garbage, future versions, error forcing, preserved keys. */
  adapt: readonly ConformanceVector[];
  /** `normalizeToolOutput`: output normalisation. */
  normalize: readonly ConformanceVector[];
  /** `escapeHtml` and `sanitizeTerminalText`: the trust boundary. */
  safety: readonly ConformanceVector[];
}

/** All vectors, grouped by file. */
export const vectorGroups: VectorGroups = Object.freeze({
  accessor: accessor as readonly ConformanceVector[],
  value: value as readonly ConformanceVector[],
  producer: producer as readonly ConformanceVector[],
  adapt: adapt as readonly ConformanceVector[],
  normalize: normalize as readonly ConformanceVector[],
  safety: safety as readonly ConformanceVector[],
});

/** All vectors in one list. */
export const vectors: readonly ConformanceVector[] = Object.freeze(Object.values(vectorGroups).flat());

/** True when the vector expects an error. */
export function isThrowingVector(v: ConformanceVector): v is ThrowingVector {
  return 'throws' in v;
}
