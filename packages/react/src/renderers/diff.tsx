import type { ReactNode } from 'react';
import { type DiffHunk, diffHunks } from '../diff-model.js';
import { DiffView } from '../diff-view.js';
import type { ArtifactRendererProps } from '../registry.js';
import { readString } from '../text.js';
import { v1Payload } from './payload.js';

// Hunks per artifact object (a transcript renders the same artifact each time its row mounts).
const hunksOf = new WeakMap<object, { old: string; new: string; hunks: DiffHunk[] }>();

function cachedHunks(artifact: object, oldText: string, newText: string): DiffHunk[] {
  const hit = hunksOf.get(artifact);
  if (hit !== undefined && hit.old === oldText && hit.new === newText) return hit.hunks;
  const hunks = diffHunks(oldText, newText);
  hunksOf.set(artifact, { old: oldText, new: newText, hunks });
  return hunks;
}

/** `diff` artifacts: the whole change between `old` and `new`, with real line numbers, unified or split. */
export function DiffRenderer({ artifact, fallback }: ArtifactRendererProps): ReactNode {
  const payload = v1Payload(artifact);
  const oldText = readString(payload, 'old');
  const newText = readString(payload, 'new');
  if (oldText === undefined || newText === undefined) return fallback;
  return (
    <DiffView
      path={readString(payload, 'path')}
      hunks={cachedHunks(artifact, oldText, newText)}
      isNew={oldText === '' && newText !== ''}
    />
  );
}
