import { Ajv } from 'ajv';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import schema from '../render-intent.v1.schema.json' with { type: 'json' };
import builtin from '../fixtures/builtin-tools.json' with { type: 'json' };
import resolution from '../vectors/resolution.json' with { type: 'json' };
import { CARDS, isToolCallView, isToolResultView, TOOL_CALL_KINDS } from '../src/index.js';

// The JSON Schema of the protocol page (docs/protocol/render-intent.md) says what the guards say.
const ajv = new Ajv({ allErrors: true, strict: false });
ajv.addSchema(schema);
const callSchema = ajv.getSchema('urn:codeagent:schema:render-intent:v1#/definitions/ToolCallView');
const resultSchema = ajv.getSchema('urn:codeagent:schema:render-intent:v1#/definitions/ToolResultView');
const isCall = (x: unknown) => callSchema?.(x) === true;
const isResult = (x: unknown) => resultSchema?.(x) === true;

const MALFORMED: unknown[] = [
  { card: 'hologram', title: 'x' },
  { card: 'diff', title: 'x' },
  { card: 'generic' },
  { card: 'generic', title: 'x', kind: 'teleport' },
  { card: 'generic', title: 'x', locations: [{ path: 'a', line: 0 }] },
  { card: 'generic', title: 'x', content: [{ type: 'video', url: 'x' }] },
  { card: 'generic', title: 'x', content: [{ type: 'image', mime: 'image/png' }] },
  { card: 'terminal', title: 'x', cwd: 7 },
  { card: 'terminal', output: 'x', exitCode: 1.5 },
  { card: 'diff', diffs: [{ path: 'a', newText: 'b' }] },
  { card: 'generic', title: 3 },
  null,
  [],
  'generic',
];

describe('render-intent.v1.schema.json', () => {
  it('names the cards and kinds the package exports', () => {
    expect(schema.definitions.ToolCallKind.enum).toEqual([...TOOL_CALL_KINDS]);
    const cards = (u: { oneOf: { properties: { card: { const: string } } }[] }) =>
      u.oneOf.map((m) => m.properties.card.const);
    expect(cards(schema.definitions.ToolCallView)).toEqual([...CARDS]);
    expect(cards(schema.definitions.ToolResultView)).toEqual([...CARDS]);
  });

  it('accepts every view of the golden fixtures and vectors, and agrees with the guards on malformed ones', () => {
    const calls = [
      ...builtin.cases.map((c) => c.expected.call),
      ...resolution.vectors.flatMap((v) => v.steps.flatMap((s) => ('call' in s ? [s.expected] : []))),
    ];
    const results = [
      ...builtin.cases.map((c) => c.expected.result),
      ...resolution.vectors.flatMap((v) => v.steps.flatMap((s) => ('result' in s ? [s.expected] : []))),
    ];
    expect(calls.length).toBeGreaterThan(30);
    for (const view of calls) expect(isCall(view), JSON.stringify(view)).toBe(true);
    for (const view of results) expect(isResult(view), JSON.stringify(view)).toBe(true);
    for (const bad of MALFORMED) {
      expect(isCall(bad), JSON.stringify(bad)).toBe(isToolCallView(bad));
      expect(isResult(bad), JSON.stringify(bad)).toBe(isToolResultView(bad));
    }
    expect(MALFORMED.filter(isCall)).toEqual([]);
  });

  it('agrees with isToolCallView and isToolResultView on generated views', () => {
    const text = fc.oneof(fc.string(), fc.constant(undefined), fc.integer());
    const block = fc.oneof(
      fc.record({ type: fc.constant('text'), text }, { requiredKeys: ['type'] }),
      fc.record({ type: fc.constant('image'), mime: text, b64: text }, { requiredKeys: ['type'] }),
    );
    const location = fc.record(
      { path: text, line: fc.oneof(fc.integer({ min: -1, max: 5 }), fc.double()) },
      { requiredKeys: [] },
    );
    const diff = fc.record(
      { path: text, oldText: fc.oneof(text, fc.constant(null)), newText: text },
      { requiredKeys: [] },
    );
    const view = fc.record(
      {
        card: fc.constantFrom('generic', 'terminal', 'diff', 'other'),
        title: text,
        kind: fc.constantFrom('read', 'other', 'teleport'),
        content: fc.array(block, { maxLength: 2 }),
        locations: fc.array(location, { maxLength: 2 }),
        diffs: fc.array(diff, { maxLength: 2 }),
        description: text,
        cwd: text,
        output: text,
        signal: text,
        exitCode: fc.oneof(fc.integer(), fc.double(), fc.string()),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(view, (v) => {
        // JSON has no undefined: compare on what travels.
        const json = JSON.parse(JSON.stringify(v)) as unknown;
        expect(isCall(json)).toBe(isToolCallView(json));
        expect(isResult(json)).toBe(isToolResultView(json));
      }),
      { numRuns: 2000 },
    );
  });
});
