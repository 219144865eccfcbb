// Protocol constants, kept apart from the valibot schema so that importing only the accessors pulls no valibot.

/** The `schema` field of every artifact of this protocol. */
export const TOOL_ARTIFACT_SCHEMA = 'codeagent.tool-artifact';

/** The artifact protocol version this package produces. */
export const TOOL_ARTIFACT_VERSION = 1;

/** The render kinds v1 producers emit; readers accept any non-empty kind and fall back for unknown ones. */
export type ArtifactKind = 'text' | 'table' | 'image' | 'code' | 'diff' | 'error';

/** The six kinds of {@link ArtifactKind}, in the contract's order. */
export const ARTIFACT_KINDS: readonly ArtifactKind[] = Object.freeze([
  'text',
  'table',
  'image',
  'code',
  'diff',
  'error',
]);
