import type { ReactNode } from 'react';
import { imageDataUrl } from '../image.js';
import type { ArtifactRendererProps } from '../registry.js';
import { plainText, read, readString } from '../text.js';
import { v1Payload } from './payload.js';

/** Props of {@link ImageList}. */
interface ImageListProps {
  /** Untrusted `{mime, b64}` items. */
  images: readonly unknown[];
  /** Alt text base. */
  alt: string;
}

/** Images that pass the MIME allow-list and base64 check; the others are named, never loaded. */
export function ImageList({ images, alt }: ImageListProps): ReactNode {
  return (
    <div className="ca-images">
      {images.map((item, i) => {
        const src = imageDataUrl(read(item, 'mime'), read(item, 'b64'));
        const key = `${i}`;
        if (src === undefined) {
          return (
            <span key={key} className="ca-image-rejected">
              [image not shown: {plainText(readString(item, 'mime') ?? 'unknown type')}]
            </span>
          );
        }
        return <img key={key} className="ca-image" src={src} alt={`${alt} ${i + 1}`} />;
      })}
    </div>
  );
}

/** `image` artifacts: base64 PNG, JPEG, GIF or WebP (never SVG); the optional text output below. */
export function ImageRenderer({ artifact, fallback }: ArtifactRendererProps): ReactNode {
  const payload = v1Payload(artifact);
  const images = read(payload, 'images');
  if (!Array.isArray(images) || images.length === 0) return fallback;
  if (!images.some((item) => imageDataUrl(read(item, 'mime'), read(item, 'b64')) !== undefined))
    return fallback;
  const output = readString(payload, 'output');
  const title = artifact.title === null ? 'image' : plainText(artifact.title);
  return (
    <figure className="ca-figure">
      <ImageList images={images} alt={title} />
      {output === undefined || output === '' ? null : (
        <figcaption className="ca-image-output">{plainText(output)}</figcaption>
      )}
    </figure>
  );
}
