/** The image types a renderer shows; SVG is never used as an image URL (it can carry script and links). */
export const IMAGE_MIME_TYPES: readonly string[] = Object.freeze([
  'image/png',
  'image/jpeg',
  'image/gif',
  'image/webp',
]);

/** Largest base64 image accepted (about 15 MB decoded); bigger ones fall back to text. */
const MAX_B64_LENGTH = 20_000_000;

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Magic bytes of each allowed type, checked on the decoded head of the data. */
function matchesMagic(mime: string, head: string): boolean {
  const b = (i: number): number => head.charCodeAt(i);
  switch (mime) {
    case 'image/png':
      return head.startsWith('\u0089PNG\r\n\u001a\n');
    case 'image/jpeg':
      return b(0) === 0xff && b(1) === 0xd8 && b(2) === 0xff;
    case 'image/gif':
      return head.startsWith('GIF87a') || head.startsWith('GIF89a');
    case 'image/webp':
      return head.startsWith('RIFF') && head.slice(8, 12) === 'WEBP';
    default:
      return false;
  }
}

function decodeHead(b64: string): string | undefined {
  try {
    return atob(b64.slice(0, 24));
  } catch {
    return undefined;
  }
}

/**
 * The `data:` URL for an untrusted image, or `undefined` when it must not be shown as an image: the MIME type
 * is not one of {@link IMAGE_MIME_TYPES} (compared exactly, after lower-casing), the base64 is malformed or too
 * large, or the bytes do not start with that type's signature.
 */
export function imageDataUrl(mime: unknown, b64: unknown): string | undefined {
  if (typeof mime !== 'string' || typeof b64 !== 'string') return undefined;
  const type = mime.trim().toLowerCase();
  if (!IMAGE_MIME_TYPES.includes(type)) return undefined;
  const data = b64.replace(/[\r\n]/g, '');
  if (data.length === 0 || data.length > MAX_B64_LENGTH || data.length % 4 !== 0 || !BASE64.test(data)) {
    return undefined;
  }
  const head = decodeHead(data);
  if (head === undefined || !matchesMagic(type, head)) return undefined;
  return `data:${type};base64,${data}`;
}
