import type { ToolContext } from '@codeagent/agent-core';
import { type ToolResult, toolResultArtifact } from '@codeagent/artifact-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { imageMimeOf, readImageFile } from '../src/read.js';
import { builtinTools } from '../src/tools.js';
import { Workspace } from '../src/workspace.js';
import { tempDir, writeTree } from './helpers.js';

/** A valid 1x1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);

describe('Read on images', () => {
  it('recognises PNG, JPEG, GIF and WebP by content, not by name', () => {
    expect(imageMimeOf(PNG)).toBe('image/png');
    expect(imageMimeOf(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0, 0]))).toBe('image/jpeg');
    expect(imageMimeOf(Buffer.from('GIF89a....'))).toBe('image/gif');
    expect(imageMimeOf(Buffer.from('RIFF\u0000\u0000\u0000\u0000WEBPVP8 '))).toBe('image/webp');
    expect(imageMimeOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'))).toBeUndefined();
    expect(imageMimeOf(new Uint8Array())).toBeUndefined();
  });

  it('never throws on any bytes (property)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (bytes) => {
        const mime = imageMimeOf(bytes);
        expect(mime === undefined || mime.startsWith('image/')).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the user an image artifact and the model one line without the bytes', async () => {
    const root = await tempDir();
    await writeTree(root, { 'assets/logo.png': PNG, 'fake.png': 'not really an image\n' });
    const read = builtinTools({ cwd: root }).find((t) => t.name === 'Read');
    if (!read) throw new Error('no Read tool');
    const ctx = (callId: string): ToolContext => ({
      callId,
      name: 'Read',
      signal: new AbortController().signal,
      cwd: root,
      intent: null,
    });
    const result = (await read.execute({ file_path: 'assets/logo.png' }, ctx('c1'))) as ToolResult;
    const artifact = toolResultArtifact(result);
    expect(artifact).toMatchObject({ kind: 'image', status: 'success', title: 'Read assets/logo.png' });
    expect(artifact?.payload).toEqual({
      images: [{ mime: 'image/png', b64: PNG.toString('base64') }],
    });
    const value = result.value;
    expect(value).toBe(`[Image assets/logo.png: image/png, ${PNG.length} bytes]`);
    expect(value).not.toContain(PNG.toString('base64').slice(0, 12));
    // A file named .png with text inside is read as text.
    const text = await read.execute({ file_path: 'fake.png' }, ctx('c2'));
    expect(toolResultArtifact(text)?.kind).toBe('code');
  });

  it('refuses an image over the limit and one outside the workspace, with clear errors', async () => {
    const root = await tempDir();
    const outside = await tempDir();
    await writeTree(root, { 'big.png': Buffer.concat([PNG, Buffer.alloc(4096)]) });
    await writeTree(outside, { 'secret.png': PNG });
    const ws = new Workspace({ cwd: root });
    await expect(readImageFile(ws, { file_path: 'big.png' }, { maxImageBytes: 1024 })).rejects.toThrow(
      /big\.png is a 4\.\d KB image\/png image, over the 1\.0 KB image limit/,
    );
    await expect(readImageFile(ws, { file_path: `${outside}/secret.png` })).rejects.toThrow(/outside/);
  });
});
