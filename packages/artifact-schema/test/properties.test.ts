import fc from 'fast-check';
import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import {
  adaptToolResult,
  normalizeToolOutput,
  type ToolResult,
  ToolArtifactSchema,
  toolResultArtifact,
  toolResultValue,
} from '../src/index.js';
import { snapshotArtifact } from '../src/internal/artifact.js';
import { escapeHtml, sanitizeTerminalText } from '../src/safety.js';
import { artifactLike, containerLike, hostile } from './arbitraries.js';
import { ARTIFACT_KEY_ORDER } from './helpers.js';

const RUNS = { numRuns: 10_000 };

/** The artifact candidate the accessor reads, taken without running hostile code (test-side helper). */
function plainArtifactOf(x: unknown): unknown {
  try {
    const o = x as { extra?: { codeagent?: { artifact?: unknown } } };
    return o.extra?.codeagent?.artifact;
  } catch {
    return undefined;
  }
}

/** adapt output equality that never touches preserved (possibly hostile) values except by identity. */
function expectSameAdapted(a: ToolResult, b: ToolResult): void {
  expect(Object.keys(a)).toEqual(Object.keys(b));
  expect(a.value).toBe(b.value);
  for (const key of Object.keys(a)) {
    if (key !== 'extra' && key !== 'value') {
      expect(Object.is((a as unknown as Record<string, unknown>)[key], (b as unknown as Record<string, unknown>)[key])).toBe(true);
    }
  }
  expect(Object.keys(a.extra)).toEqual(Object.keys(b.extra));
  for (const key of Object.keys(a.extra)) {
    if (key !== 'codeagent') expect(Object.is(a.extra[key], b.extra[key])).toBe(true);
  }
  expect(Object.keys(a.extra.codeagent)).toEqual(Object.keys(b.extra.codeagent));
  for (const key of Object.keys(a.extra.codeagent)) {
    if (key !== 'artifact') expect(Object.is(a.extra.codeagent[key], b.extra.codeagent[key])).toBe(true);
  }
  expect(a.extra.codeagent.artifact).toStrictEqual(b.extra.codeagent.artifact);
}

describe('hostile input (fc.anything with functions, symbols, throwing getters, Proxies, cycles, null prototypes)', () => {
  // One generated value drives every never-throw property, so the 10,000 runs are paid for once.
  it('accessors, adaptToolResult and normalizeToolOutput never throw and keep their invariants', () => {
    fc.assert(
      fc.property(hostile, (make) => {
        const x = make();
        // toolResultArtifact / toolResultValue
        const a = toolResultArtifact(x);
        const any = toolResultArtifact(x, { version: null });
        const listed = toolResultArtifact(x, { version: [1, 2] });
        expect(typeof toolResultValue(x)).toBe('string');
        for (const artifact of [a, any, listed]) {
          if (artifact !== null) {
            expect(v.is(ToolArtifactSchema, artifact)).toBe(true);
            expect(Object.keys(artifact).slice(0, 7)).toEqual(ARTIFACT_KEY_ORDER);
          }
        }
        if (a !== null) {
          expect(a.version).toBe(1);
          expect(Object.keys(a)).toEqual(ARTIFACT_KEY_ORDER);
          if (a.kind === 'error') expect(a.status).toBe('error');
        }

        // adaptToolResult: a string value and a valid v1 artifact or the untouched valid future one
        const out = adaptToolResult(x);
        expect(typeof out.value).toBe('string');
        const artifact = out.extra.codeagent.artifact;
        expect(v.is(ToolArtifactSchema, artifact)).toBe(true);
        expect(JSON.parse(JSON.stringify(artifact))).toStrictEqual(artifact);
        expect(Object.keys(artifact).slice(0, 7)).toEqual(ARTIFACT_KEY_ORDER);
        if (artifact.version === 1) {
          expect(Object.keys(artifact)).toEqual(ARTIFACT_KEY_ORDER);
          if (artifact.kind === 'error') expect(artifact.status).toBe('error');
        } else {
          // Only a valid future artifact of the input survives, unchanged (read from a fresh build of the input,
          // since a hostile getter may answer differently on a second read).
          const original = plainArtifactOf(make()) as Record<string, unknown>;
          for (const [key, value] of Object.entries(artifact)) {
            expect(value).toStrictEqual(JSON.parse(JSON.stringify(original[key])));
          }
        }
        // idempotence, preserved values compared by identity
        expectSameAdapted(adaptToolResult(out), out);

        // normalizeToolOutput
        const normalised = normalizeToolOutput(x);
        expect(typeof normalised.value).toBe('string');
        expect(v.is(ToolArtifactSchema, normalised.extra.codeagent.artifact)).toBe(true);
        expect(Object.keys(normalised.extra.codeagent.artifact).slice(0, 7)).toEqual(ARTIFACT_KEY_ORDER);
      }),
      RUNS,
    );
  });
});

describe('adaptToolResult', () => {
  it('is idempotent by deep equality on JSON containers', () => {
    const jsonContainer = containerLike.map((x) => {
      try {
        return JSON.parse(JSON.stringify(x) ?? 'null') as unknown;
      } catch {
        return null;
      }
    });
    fc.assert(
      fc.property(fc.oneof(jsonContainer, fc.jsonValue({ maxDepth: 3 })), (x) => {
        const once = adaptToolResult(x);
        expect(adaptToolResult(once)).toStrictEqual(once);
      }),
      RUNS,
    );
  });
});

describe('the hand-written fast path is equivalent to the valibot schema', () => {
  it('agrees with v.safeParse on validity and on the parsed value', () => {
    fc.assert(
      fc.property(artifactLike, (a) => {
        const fast = snapshotArtifact(a);
        const slow = v.safeParse(ToolArtifactSchema, a);
        expect(fast !== null).toBe(slow.success);
        if (fast !== null && slow.success) expect(fast).toStrictEqual(slow.output);
      }),
      RUNS,
    );
  });

  it('the accessor (version: null) accepts exactly what the schema accepts', () => {
    fc.assert(
      fc.property(artifactLike, (a) => {
        expect(toolResultArtifact(a, { version: null }) !== null).toBe(v.is(ToolArtifactSchema, a));
      }),
      RUNS,
    );
  });
});

describe('version negotiation', () => {
  it('accepts a valid artifact exactly when its version is in the consumer list', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 6 }),
        fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 }),
        (version, list) => {
          const artifact = { schema: 'codeagent.tool-artifact', version, kind: 'text', status: 'success', icon: null, title: null, payload: {} };
          expect(toolResultArtifact(artifact, { version: list }) !== null).toBe(list.includes(version));
        },
      ),
      RUNS,
    );
  });

  it('throws a TypeError for every invalid version option, whatever x is', () => {
    const badVersion = fc.oneof(
      fc.double().filter((n) => !(Number.isInteger(n) && n >= 1)),
      fc.string(),
      fc.constant([]),
      fc.array(fc.oneof(fc.constant(0), fc.string(), fc.constant(1.5)), { minLength: 1 }).map((xs) => [1, ...xs]),
      fc.object(),
      fc.boolean(),
    );
    fc.assert(
      fc.property(fc.oneof(containerLike, fc.constant(null)), badVersion, (x, version) => {
        expect(() => toolResultArtifact(x, { version: version as number })).toThrow(TypeError);
      }),
      RUNS,
    );
  });
});

describe('normalizeToolOutput', () => {
  it('round-trips JSON: the value parses back to the output', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 3 }), (x) => {
        fc.pre(typeof x !== 'string');
        const out = normalizeToolOutput(x);
        expect(JSON.parse(out.value)).toStrictEqual(JSON.parse(JSON.stringify(x)));
      }),
      RUNS,
    );
  });
});

// Strings biased towards escape sequences, controls and bidi characters.
const terminalChunk = fc.oneof(
  fc.string({ maxLength: 6 }),
  fc.constantFrom(
    '\u001b',
    '\u001b[',
    '\u001b]',
    '\u001bP',
    '\u001b_',
    '\u001b^',
    '\u001bX',
    '\u001b\\',
    '\u0007',
    '\u009b',
    '\u009d',
    '\u009c',
    '\u0090',
    '\r',
    '\n',
    '\t',
    ';',
    'm',
    '31',
    '?',
    '\u202e',
    '\u2066',
    '\u200f',
  ),
  fc.integer({ min: 0, max: 0x9f }).map((c) => String.fromCharCode(c)),
  fc.integer({ min: 0x2000, max: 0x206f }).map((c) => String.fromCharCode(c)),
);
const terminalText = fc.array(terminalChunk, { maxLength: 12 }).map((xs) => xs.join(''));

describe('sanitizeTerminalText', () => {
  it('leaves ESC only in SGR sequences and no other control or bidi override/isolate', () => {
    fc.assert(
      fc.property(terminalText, (s) => {
        const out = sanitizeTerminalText(s);
        const withoutSgr = out.replace(/\u001b\[[0-9;:]*m/g, '');
        expect(withoutSgr).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/);
        expect(sanitizeTerminalText(out)).toBe(out);
      }),
      RUNS,
    );
  });

  it('keeps text that has nothing to strip unchanged', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (s) => {
        fc.pre(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(s));
        expect(sanitizeTerminalText(s)).toBe(s);
      }),
      RUNS,
    );
  });
});

describe('escapeHtml', () => {
  it('leaves no markup-significant character and decodes back to the input', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        const out = escapeHtml(s);
        expect(out).not.toMatch(/[<>"']/);
        const decoded = out
          .replace(/&lt;/g, '<')
          .replace(/&gt;/g, '>')
          .replace(/&quot;/g, '"')
          .replace(/&#39;/g, "'")
          .replace(/&amp;/g, '&');
        expect(decoded).toBe(s);
      }),
      RUNS,
    );
  });
});
