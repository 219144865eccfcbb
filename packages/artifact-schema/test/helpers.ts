import type { ToolArtifact, ToolResult } from '../src/index.js';

/** The contract's key order for every artifact. */
export const ARTIFACT_KEY_ORDER = ['schema', 'version', 'kind', 'status', 'icon', 'title', 'payload'];

/** The first seven keys of an artifact, which must be the v1 fields in contract order. */
export function leadingKeys(artifact: ToolArtifact): string[] {
  return Object.keys(artifact).slice(0, 7);
}

/** The artifact of a ToolResult produced by this package. */
export function artifactOf(result: ToolResult): ToolArtifact {
  return result.extra.codeagent.artifact;
}
