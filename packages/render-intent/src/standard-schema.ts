/**
 * The Standard Schema V1 interface (standardschema.dev), declared here so that any conforming
 * validator (zod 4, valibot, arktype...) can be handed over without a dependency.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The standard properties. */
  readonly '~standard': StandardSchemaV1Props<Input, Output>;
}

/** The properties every Standard Schema V1 exposes under `~standard`. */
export interface StandardSchemaV1Props<Input = unknown, Output = Input> {
  /** The version of the standard: always 1. */
  readonly version: 1;
  /** The library that produced the schema. */
  readonly vendor: string;
  /** Validates an unknown value; may answer synchronously or with a promise. */
  readonly validate: (
    value: unknown,
  ) => StandardSchemaV1Result<Output> | Promise<StandardSchemaV1Result<Output>>;
  /** Inferred types, for type-level use only. */
  readonly types?: StandardSchemaV1Types<Input, Output> | undefined;
}

/** The outcome of a validation. */
export type StandardSchemaV1Result<Output> = StandardSchemaV1Success<Output> | StandardSchemaV1Failure;

/** A successful validation with the (possibly transformed) value. */
export interface StandardSchemaV1Success<Output> {
  /** The validated output value. */
  readonly value: Output;
  /** Absent on success. */
  readonly issues?: undefined;
}

/** A failed validation. */
export interface StandardSchemaV1Failure {
  /** The problems found. */
  readonly issues: ReadonlyArray<StandardSchemaV1Issue>;
}

/** One validation problem. */
export interface StandardSchemaV1Issue {
  /** Human-readable message. */
  readonly message: string;
  /** Where in the value the problem is. */
  readonly path?: ReadonlyArray<PropertyKey | StandardSchemaV1PathSegment> | undefined;
}

/** A path segment given as an object. */
export interface StandardSchemaV1PathSegment {
  /** The key of the segment. */
  readonly key: PropertyKey;
}

/** Type-only carrier of the schema's input and output types. */
export interface StandardSchemaV1Types<Input = unknown, Output = Input> {
  /** The input type. */
  readonly input: Input;
  /** The output type. */
  readonly output: Output;
}
