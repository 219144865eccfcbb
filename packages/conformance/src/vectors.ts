import {
  type ConformanceVector as ArtifactVector,
  vectors as artifactVectors,
} from '@codeagent/artifact-schema/vectors';

/** The error a throwing vector expects: the error's name and its stable code. */
export interface ExpectedError {
  /** The error's name in the `instanceof` sense, e.g. `TypeError`. */
  readonly name: string;
  /** The stable code the error carries. */
  readonly code: string;
}

/**
 * One conformance case, language-neutral: an operation, its JSON arguments, and either the expected JSON result
 * or the expected error, with the rule it comes from (a CONTRACTS section, a seed section or an ADR).
 */
export interface Vector {
  /** Unique id, `<group>/<case>`. */
  readonly id: string;
  /** Where the rule comes from. */
  readonly rule: string;
  /** The operation (for artifact vectors, a public function of `@codeagent/artifact-schema`). */
  readonly op: string;
  /** The JSON arguments, applied positionally. */
  readonly args: readonly unknown[];
  /** The expected JSON result (absent when the vector expects an error). */
  readonly expected?: unknown;
  /** The expected error (absent when the vector expects a result). */
  readonly throws?: ExpectedError;
}

/** The suites of vectors the kit ships, by name. */
export type SuiteName = 'artifact';

/** The operations of the artifact suite, which a host declares in its hello line. */
export const ARTIFACT_OPS = [
  'toolResultArtifact',
  'toolResultValue',
  'toolResult',
  'adaptToolResult',
  'normalizeToolOutput',
  'escapeHtml',
  'sanitizeTerminalText',
] as const;

/** The artifact protocol's vectors (accessors, version negotiation, adaptation, normalisation, trust boundary). */
export const artifactSuite: readonly Vector[] = Object.freeze(
  artifactVectors.map((v: ArtifactVector): Vector => Object.freeze({ ...v })),
);

/** Every suite, by name. */
export const suites: Readonly<Record<SuiteName, readonly Vector[]>> = Object.freeze({
  artifact: artifactSuite,
});
