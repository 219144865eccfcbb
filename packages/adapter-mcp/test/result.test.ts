import { toolResultArtifact, toolResultValue } from '@codeagent/artifact-schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { mcpResultToToolResult } from '../src/index.js';
import { payloadText } from './helpers.js';

const src = { server: 'gh', tool: 'search' };
const map = (r: unknown, limits = {}) => mcpResultToToolResult(r, src, limits);
const artifact = (r: unknown) => toolResultArtifact(map(r));

describe('mcpResultToToolResult: the three channels', () => {
  it('text blocks are the value and a text artifact', () => {
    const out = map({
      content: [
        { type: 'text', text: 'a' },
        { type: 'text', text: 'b' },
      ],
    });
    expect(out.value).toBe('a\nb');
    expect(toolResultArtifact(out)).toMatchObject({ kind: 'text', status: 'success', title: 'gh · search' });
  });

  it('an image gives an image artifact; the model gets a line', () => {
    const out = map({ content: [{ type: 'image', data: 'iVBORw0K', mimeType: 'image/png' }] });
    expect(out.value).toBe('[image image/png, 6 bytes]');
    expect(toolResultArtifact(out)).toMatchObject({
      kind: 'image',
      payload: { images: [{ mime: 'image/png', b64: 'iVBORw0K' }] },
    });
  });

  it('invalid base64 images are not carried', () => {
    const out = map({ content: [{ type: 'image', data: '<svg onload=x>', mimeType: 'image/svg+xml' }] });
    expect(toolResultArtifact(out)?.kind).toBe('text');
    expect(out.value).toMatch(/not shown/);
  });

  it('structured content: an array of records is a table, anything else JSON code; the text blocks stay the value', () => {
    const table = map({
      content: [{ type: 'text', text: '2 rows' }],
      structuredContent: { items: [{ a: 1 }, { a: 2 }] },
    });
    expect(table.value).toBe('2 rows');
    expect(toolResultArtifact(table)).toMatchObject({ kind: 'table', payload: { df: [{ a: 1 }, { a: 2 }] } });
    const code = map({ content: [], structuredContent: { a: { b: 1 } } });
    expect(code.value).toBe(JSON.stringify({ a: { b: 1 } }, null, 2));
    expect(toolResultArtifact(code)).toMatchObject({ kind: 'code', payload: { lang: 'json' } });
  });

  it('an embedded text resource is code named by its URI; blobs, audio and links are lines with URI and MIME', () => {
    const code = artifact({
      content: [{ type: 'resource', resource: { uri: 'file:///a.py', text: 'x = 1' } }],
    });
    expect(code).toMatchObject({
      kind: 'code',
      payload: { text: 'x = 1', filename: 'file:///a.py', lang: 'py' },
    });
    const out = map({
      content: [
        { type: 'resource', resource: { uri: 'file:///b', mimeType: 'application/pdf', blob: 'AAAA' } },
        { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
        { type: 'resource_link', uri: 'https://x.invalid/d', name: 'd', mimeType: 'text/html' },
      ],
    });
    expect(out.value.split('\n')).toEqual([
      '[resource file:///b (application/pdf), 3 bytes]',
      '[audio audio/wav, 3 bytes]',
      '[resource link https://x.invalid/d (text/html) d]',
    ]);
  });

  it('isError makes the status error: an error artifact for text, error status on a rich kind', () => {
    const e = map({ content: [{ type: 'text', text: 'denied by server' }], isError: true });
    expect(toolResultArtifact(e)).toMatchObject({
      kind: 'error',
      status: 'error',
      payload: { message: 'denied by server' },
    });
    const rich = map({ content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }], isError: true });
    expect(toolResultArtifact(rich)).toMatchObject({ kind: 'image', status: 'error' });
  });

  it('the value is capped head + tail; the artifact text is capped too', () => {
    const out = map(
      { content: [{ type: 'text', text: `${'a'.repeat(50_000)}END` }] },
      { maxValueChars: 1000, maxArtifactChars: 2000 },
    );
    expect(out.value.length).toBeLessThan(1100);
    expect(out.value.endsWith('END')).toBe(true);
    expect(payloadText(out).length).toBeLessThan(2100);
  });

  it('escapes, controls and bidi characters never pass, in any field', () => {
    const evil = '\u001b[8mhidden\u001b[28m\u001b]52;c;eA==\u0007\u202e\u0000';
    const out = map({
      content: [
        { type: 'text', text: evil },
        { type: 'resource', resource: { uri: `file:///${evil}`, text: evil } },
        { type: 'resource_link', uri: evil, name: evil },
      ],
    });
    const all = JSON.stringify(out);
    expect(all).not.toMatch(/\\u001b|\\u0007|\\u0000|\u202e/);
    expect(out.value).toContain('hidden');
  });

  it.each([null, 7, 'text', [], { content: 'x' }, { content: [null, 1, { type: 'weird' }] }])(
    'a malformed result %j is never a crash',
    (raw) => {
      const out = map(raw);
      expect(typeof out.value).toBe('string');
      expect(toolResultArtifact(out)).not.toBeNull();
    },
  );

  it('property: any JSON shaped like a result maps to a valid artifact and a string value, never throwing', () => {
    const block = fc.oneof(
      fc.record({ type: fc.constant('text'), text: fc.string() }),
      fc.record({ type: fc.constant('image'), data: fc.base64String(), mimeType: fc.string() }),
      fc.record({
        type: fc.constant('resource'),
        resource: fc.record({ uri: fc.string(), text: fc.string() }),
      }),
      fc.record({ type: fc.constant('resource_link'), uri: fc.string(), name: fc.string() }),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(
        fc.record(
          {
            content: fc.array(block, { maxLength: 6 }),
            structuredContent: fc.jsonValue(),
            isError: fc.boolean(),
          },
          { requiredKeys: [] },
        ),
        (raw) => {
          const out = map(raw);
          expect(typeof toolResultValue(out)).toBe('string');
          const a = toolResultArtifact(out);
          expect(a).not.toBeNull();
          if ((raw as { isError?: boolean }).isError === true) expect(a?.status).toBe('error');
          expect(JSON.stringify(out)).not.toMatch(/\\u001b/);
        },
      ),
      { numRuns: 1000 },
    );
  });
});
