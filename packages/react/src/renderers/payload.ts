import type { ToolArtifact } from '@codeagent/artifact-schema';
import { isDict } from '../text.js';

/** The artifact's payload as a plain object when it is a v1 artifact, else `undefined` (fall back). */
export function v1Payload(artifact: ToolArtifact): Record<string, unknown> | undefined {
  if (artifact.version !== 1) return undefined;
  return isDict(artifact.payload) ? artifact.payload : undefined;
}
