/**
 * `@codeagent/artifact-schema/internal`: the small defensive readers of untrusted data and the exhaustive-switch
 * guard that every sibling package shares instead of copying (ADR 0201, ADR 0230). Outside semver: anything
 * here may change in a minor or patch release. A host needs only the root entry and `./safety`.
 *
 * @packageDocumentation
 */
export { isErrorSet } from './internal/artifact.js';
export { isPlainObject, isRecord, toText } from './internal/object.js';
export { assertNever, safeJson, unreachableMessage } from './internal/unreachable.js';
