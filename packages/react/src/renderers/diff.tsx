import type { ReactNode } from 'react';
import { diffHunks } from '../diff-model.js';
import { DiffView } from '../diff-view.js';
import type { ArtifactRendererProps } from '../registry.js';
import { readString } from '../text.js';
import { v1Payload } from './payload.js';

/** `diff` artifacts: the whole change between `old` and `new`, with real line numbers, unified or split. */
export function DiffRenderer({ artifact, fallback }: ArtifactRendererProps): ReactNode {
  const payload = v1Payload(artifact);
  const oldText = readString(payload, 'old');
  const newText = readString(payload, 'new');
  if (oldText === undefined || newText === undefined) return fallback;
  return (
    <DiffView
      path={readString(payload, 'path')}
      hunks={diffHunks(oldText, newText)}
      isNew={oldText === '' && newText !== ''}
    />
  );
}
