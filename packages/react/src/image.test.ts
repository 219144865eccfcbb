import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { IMAGE_MIME_TYPES, imageDataUrl } from './image.ts';

const b64 = (bytes: number[]): string => btoa(String.fromCharCode(...bytes));
const PNG = b64([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);
const JPEG = b64([0xff, 0xd8, 0xff, 0xe0, 0, 16]);
const GIF = btoa('GIF89a\u0001\u0000');
const WEBP = btoa('RIFF\u0000\u0000\u0000\u0000WEBPVP8 ');

describe('imageDataUrl', () => {
  it('accepts the four types with matching bytes', () => {
    expect(imageDataUrl('image/png', PNG)).toBe(`data:image/png;base64,${PNG}`);
    expect(imageDataUrl('IMAGE/JPEG', JPEG)).toBe(`data:image/jpeg;base64,${JPEG}`);
    expect(imageDataUrl('image/gif', GIF)).toBe(`data:image/gif;base64,${GIF}`);
    expect(imageDataUrl('image/webp', WEBP)).toBe(`data:image/webp;base64,${WEBP}`);
  });

  it('refuses SVG, other types, lying labels and malformed base64', () => {
    const svg = btoa('<svg onload=alert(1)>');
    expect(imageDataUrl('image/svg+xml', svg)).toBeUndefined();
    expect(imageDataUrl('image/png', svg)).toBeUndefined();
    expect(imageDataUrl('text/html', PNG)).toBeUndefined();
    expect(imageDataUrl('image/png;charset=x', PNG)).toBeUndefined();
    expect(imageDataUrl('image/png', `${PNG}"><script>`)).toBeUndefined();
    expect(imageDataUrl('image/png', 'abc')).toBeUndefined();
    expect(imageDataUrl('image/png', '')).toBeUndefined();
    expect(imageDataUrl(null, PNG)).toBeUndefined();
    expect(imageDataUrl('image/png', 42)).toBeUndefined();
  });

  it('only ever yields a data URL of an allowed type with base64 characters', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.constantFrom(...IMAGE_MIME_TYPES, 'image/svg+xml'), fc.string()),
        fc.oneof(fc.string(), fc.base64String(), fc.constantFrom(PNG, JPEG, GIF, WEBP)),
        (mime, data) => {
          const url = imageDataUrl(mime, data);
          if (url !== undefined)
            expect(url).toMatch(/^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/]+={0,2}$/);
        },
      ),
      { numRuns: 1000 },
    );
  });

  it('refuses a huge image without decoding it', () => {
    expect(imageDataUrl('image/png', PNG + 'A'.repeat(20_000_000))).toBeUndefined();
  });
});
