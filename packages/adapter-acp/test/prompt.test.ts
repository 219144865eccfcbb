import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PromptContentError, promptToInput } from '../src/index.js';

describe('ACP prompt -> agent-core input', () => {
  it('maps text, images, resource links and embedded resources', () => {
    expect(
      promptToInput([
        { type: 'text', text: '/review src' },
        { type: 'resource_link', name: 'a.ts', uri: 'file:///w/a.ts' },
        {
          type: 'resource',
          resource: { uri: 'file:///w/b.ts', text: 'const b = 1;', mimeType: 'text/x-typescript' },
        },
        { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
        {
          type: 'resource',
          resource: { uri: 'file:///w/c.pdf', blob: 'JVBERi0=', mimeType: 'application/pdf' },
        },
      ]),
    ).toEqual([
      {
        type: 'text',
        text: '/review src\n[@a.ts](file:///w/a.ts)\n<context ref="file:///w/b.ts">\nconst b = 1;\n</context>',
      },
      { type: 'image', image: 'iVBORw0KGgo=', mediaType: 'image/png' },
      { type: 'file', data: 'JVBERi0=', mediaType: 'application/pdf', filename: 'file:///w/c.pdf' },
    ]);
  });

  it('escapes the context reference and refuses audio and empty prompts', () => {
    const [part] = promptToInput([{ type: 'resource', resource: { uri: 'x"><evil', text: 't' } }]);
    expect(part).toEqual({ type: 'text', text: '<context ref="x&quot;&gt;&lt;evil">\nt\n</context>' });
    expect(() => promptToInput([])).toThrow(PromptContentError);
    expect(() => promptToInput([{ type: 'audio', data: 'AA', mimeType: 'audio/wav' }])).toThrow(/audio/);
  });

  it('property: any block list either converts or fails with PromptContentError, never anything else', () => {
    const block = fc.oneof(
      fc.record({ type: fc.constant('text' as const), text: fc.string({ unit: 'binary' }) }),
      fc.record({
        type: fc.constant('image' as const),
        data: fc.base64String(),
        mimeType: fc.constantFrom('image/png', 'image/gif'),
      }),
      fc.record({ type: fc.constant('resource_link' as const), name: fc.string(), uri: fc.webUrl() }),
      fc.record({
        type: fc.constant('resource' as const),
        resource: fc.record({ uri: fc.string(), text: fc.string({ unit: 'binary' }) }),
      }),
      fc.record({
        type: fc.constant('audio' as const),
        data: fc.base64String(),
        mimeType: fc.constant('audio/wav'),
      }),
    );
    fc.assert(
      fc.property(fc.array(block, { maxLength: 6 }), (blocks) => {
        try {
          const parts = promptToInput(blocks);
          expect(parts.length).toBeGreaterThan(0);
        } catch (error) {
          expect(error).toBeInstanceOf(PromptContentError);
        }
      }),
    );
  });

  it('converts a huge prompt in one piece', () => {
    const text = 'x'.repeat(10_000_000);
    expect(promptToInput([{ type: 'text', text }])).toEqual([{ type: 'text', text }]);
  });

  it('property: text blocks are joined in order, never dropped', () => {
    fc.assert(
      fc.property(fc.array(fc.string(), { minLength: 1, maxLength: 8 }), (texts) => {
        const parts = promptToInput(texts.map((text) => ({ type: 'text' as const, text })));
        expect(parts).toEqual([{ type: 'text', text: texts.join('\n') }]);
      }),
    );
  });
});
