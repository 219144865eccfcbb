import type { ReactNode } from 'react';
import type { ArtifactRendererProps } from '../registry.js';
import { displayJson, plainText, read, readString } from '../text.js';
import { v1Payload } from './payload.js';

/** `error` artifacts: the message, with the detail (if any) in a collapsed section. */
export function ErrorRenderer({ artifact, value, fallback }: ArtifactRendererProps): ReactNode {
  const payload = v1Payload(artifact);
  if (payload === undefined) return fallback;
  const message = readString(payload, 'message') ?? value;
  const detail = read(payload, 'detail');
  const detailText =
    detail === undefined || detail === null ? '' : typeof detail === 'string' ? detail : displayJson(detail);
  return (
    <div className="ca-error" role="alert">
      <p className="ca-error-message">{plainText(message)}</p>
      {detailText === '' ? null : (
        <details className="ca-error-detail">
          <summary>Details</summary>
          <pre>{plainText(detailText)}</pre>
        </details>
      )}
    </div>
  );
}
