import { isDeepStrictEqual } from 'node:util';
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
import { sanitizeTerminalTextBefore } from './sanitizer-before.js';
import { artifactLike, containerLike, hostile } from './arbitraries.js';
import { ARTIFACT_KEY_ORDER } from './helpers.js';

const RUNS = { numRuns: 10_000 };
// Generous: on an idle machine each property takes 0.1-3 s; shared CI machines can be far slower.
const PROPERTY_TIMEOUT = 180_000;

// Plain checks instead of `expect` inside properties: 10,000 runs x dozens of assertions stay fast.
function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`property violated: ${what}`);
}

function same(actual: unknown, expected: unknown, what: string): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new Error(`property violated: ${what}: ${fc.stringify(actual)} !== ${fc.stringify(expected)}`);
  }
}

/** The artifact candidate the accessor reads, taken without running hostile code (test-side helper). */
function plainArtifactOf(x: unknown): unknown {
  // Mirrors adaptToolResult: each container read on its own, a throwing read counting as absent.
  const read = (f: () => unknown): unknown => {
    try {
      return f();
    } catch {
      return undefined;
    }
  };
  const o = x as { schema?: unknown; artifact?: unknown; extra?: { codeagent?: { artifact?: unknown } } };
  if (read(() => o.schema) === 'codeagent.tool-artifact') return o;
  return read(() => o.extra?.codeagent?.artifact) ?? read(() => o.artifact);
}

/** adapt output equality that never touches preserved (possibly hostile) values except by identity. */
function expectSameAdapted(a: ToolResult, b: ToolResult): void {
  const ra = a as unknown as Record<string, unknown>;
  const rb = b as unknown as Record<string, unknown>;
  same(Object.keys(a), Object.keys(b), 'result keys');
  check(a.value === b.value, 'value');
  for (const key of Object.keys(a)) {
    if (key !== 'extra') check(Object.is(ra[key], rb[key]), `preserved ${key}`);
  }
  same(Object.keys(a.extra), Object.keys(b.extra), 'extra keys');
  for (const key of Object.keys(a.extra)) {
    if (key !== 'codeagent') check(Object.is(a.extra[key], b.extra[key]), `preserved extra.${key}`);
  }
  same(Object.keys(a.extra.codeagent), Object.keys(b.extra.codeagent), 'codeagent keys');
  for (const key of Object.keys(a.extra.codeagent)) {
    if (key !== 'artifact')
      check(Object.is(a.extra.codeagent[key], b.extra.codeagent[key]), `preserved codeagent.${key}`);
  }
  same(a.extra.codeagent.artifact, b.extra.codeagent.artifact, 'artifact');
}

describe('hostile input (fc.anything with functions, symbols, throwing getters, Proxies, cycles, null prototypes)', () => {
  // One generated value drives every never-throw property, so the 10,000 runs are paid for once.
  it(
    'accessors, adaptToolResult and normalizeToolOutput never throw and keep their invariants',
    () => {
      fc.assert(
        fc.property(hostile, (make) => {
          const x = make();
          // toolResultArtifact / toolResultValue
          const a = toolResultArtifact(x);
          const any = toolResultArtifact(x, { version: null });
          const listed = toolResultArtifact(x, { version: [1, 2] });
          check(typeof toolResultValue(x) === 'string', 'toolResultValue is a string');
          for (const artifact of [a, any, listed]) {
            if (artifact !== null) {
              check(v.is(ToolArtifactSchema, artifact), 'schema-valid artifact');
              same(Object.keys(artifact).slice(0, 7), ARTIFACT_KEY_ORDER, 'key order');
            }
          }
          if (a !== null) {
            check(a.version === 1, 'default filter is v1');
            same(Object.keys(a), ARTIFACT_KEY_ORDER, 'v1 keys');
            if (a.kind === 'error') check(a.status === 'error', 'error rule');
          }

          // adaptToolResult: a string value and a valid v1 artifact or the untouched valid future one
          const out = adaptToolResult(x);
          check(typeof out.value === 'string', 'adapt value');
          const artifact = out.extra.codeagent.artifact;
          check(v.is(ToolArtifactSchema, artifact), 'schema-valid artifact');
          same(JSON.parse(JSON.stringify(artifact)), artifact, 'artifact is JSON data');
          same(Object.keys(artifact).slice(0, 7), ARTIFACT_KEY_ORDER, 'key order');
          if (artifact.version === 1) {
            same(Object.keys(artifact), ARTIFACT_KEY_ORDER, 'v1 keys');
            if (artifact.kind === 'error') check(artifact.status === 'error', 'error rule');
          } else {
            // Only a valid future artifact of the input survives, unchanged (read from a fresh build of the input,
            // since a hostile getter may answer differently on a second read).
            const original = plainArtifactOf(make()) as Record<string, unknown>;
            for (const [key, value] of Object.entries(artifact)) {
              same(value, JSON.parse(JSON.stringify(original[key])), `future artifact ${key} untouched`);
            }
          }
          // idempotence, preserved values compared by identity
          expectSameAdapted(adaptToolResult(out), out);

          // normalizeToolOutput
          const normalised = normalizeToolOutput(x);
          check(typeof normalised.value === 'string', 'normalised value');
          check(v.is(ToolArtifactSchema, normalised.extra.codeagent.artifact), 'normalised artifact valid');
          same(
            Object.keys(normalised.extra.codeagent.artifact).slice(0, 7),
            ARTIFACT_KEY_ORDER,
            'normalised key order',
          );
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('adaptToolResult', () => {
  it(
    'is idempotent by deep equality on JSON containers',
    () => {
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
          same(adaptToolResult(once), once, 'idempotent');
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('the hand-written fast path is equivalent to the valibot schema', () => {
  it(
    'agrees with v.safeParse on validity and on the parsed value',
    () => {
      fc.assert(
        fc.property(artifactLike, (a) => {
          const fast = snapshotArtifact(a);
          const slow = v.safeParse(ToolArtifactSchema, a);
          check((fast !== null) === slow.success, 'fast path agrees with valibot');
          if (fast !== null && slow.success) same(fast, slow.output, 'same parsed value');
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'the accessor (version: null) accepts exactly what the schema accepts',
    () => {
      fc.assert(
        fc.property(artifactLike, (a) => {
          check(
            (toolResultArtifact(a, { version: null }) !== null) === v.is(ToolArtifactSchema, a),
            'accessor agrees',
          );
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('version negotiation', () => {
  it(
    'accepts a valid artifact exactly when its version is in the consumer list',
    () => {
      fc.assert(
        fc.property(
          fc.integer({ min: 1, max: 6 }),
          fc.array(fc.integer({ min: 1, max: 6 }), { minLength: 1, maxLength: 4 }),
          (version, list) => {
            const artifact = {
              schema: 'codeagent.tool-artifact',
              version,
              kind: 'text',
              status: 'success',
              icon: null,
              title: null,
              payload: {},
            };
            check(
              (toolResultArtifact(artifact, { version: list }) !== null) === list.includes(version),
              'filter',
            );
          },
        ),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'throws a TypeError for every invalid version option, whatever x is',
    () => {
      const badVersion = fc.oneof(
        fc.double().filter((n) => !(Number.isInteger(n) && n >= 1)),
        fc.string(),
        fc.constant([]),
        fc
          .array(fc.oneof(fc.constant(0), fc.string(), fc.constant(1.5)), { minLength: 1 })
          .map((xs) => [1, ...xs]),
        fc.object(),
        fc.boolean(),
      );
      fc.assert(
        fc.property(fc.oneof(containerLike, fc.constant(null)), badVersion, (x, version) => {
          let thrown: unknown;
          try {
            toolResultArtifact(x, { version: version as number });
          } catch (error) {
            thrown = error;
          }
          check(thrown instanceof TypeError, 'invalid version option throws a TypeError');
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('normalizeToolOutput', () => {
  it(
    'round-trips JSON: the value parses back to the output',
    () => {
      fc.assert(
        fc.property(fc.jsonValue({ maxDepth: 3 }), (x) => {
          fc.pre(typeof x !== 'string');
          const out = normalizeToolOutput(x);
          same(JSON.parse(out.value), JSON.parse(JSON.stringify(x)), 'round trip');
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );
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
  it(
    'leaves ESC only in SGR sequences and no other control or bidi override/isolate',
    () => {
      fc.assert(
        fc.property(terminalText, (s) => {
          const out = sanitizeTerminalText(s);
          const withoutSgr = out.replace(/\u001b\[[0-9;:]*m/g, '');
          check(
            !/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(withoutSgr),
            'no stray control',
          );
          check(sanitizeTerminalText(out) === out, 'idempotent');
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'gives exactly what the previous implementation gave (SGR runs are now copied in place), SGR kept or not',
    () => {
      const sgrish = fc
        .array(fc.constantFrom('\u001b[', '38:2::1:2:3', '4:3', ';', ':', '1', 'm', '\u001b[0m', 'x', '\n'), {
          maxLength: 16,
        })
        .map((xs) => xs.join(''));
      const mixed = fc.oneof(
        terminalText,
        sgrish,
        fc.string({ unit: 'binary' }),
        fc.string({ unit: 'grapheme' }),
      );
      fc.assert(
        fc.property(mixed, fc.boolean(), (s, keepSgr) => {
          check(
            sanitizeTerminalText(s, { keepSgr }) === sanitizeTerminalTextBefore(s, { keepSgr }),
            `same output for ${JSON.stringify(s)}`,
          );
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );

  it(
    'keeps text that has nothing to strip unchanged',
    () => {
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme' }), (s) => {
          fc.pre(!/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/.test(s));
          check(sanitizeTerminalText(s) === s, 'unchanged');
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('escapeHtml', () => {
  it(
    'leaves no markup-significant character and decodes back to the input',
    () => {
      fc.assert(
        fc.property(fc.string({ unit: 'binary' }), (s) => {
          const out = escapeHtml(s);
          check(!/[<>"']/.test(out), 'no markup characters');
          const decoded = out
            .replace(/&lt;/g, '<')
            .replace(/&gt;/g, '>')
            .replace(/&quot;/g, '"')
            .replace(/&#39;/g, "'")
            .replace(/&amp;/g, '&');
          check(decoded === s, 'decodes back');
        }),
        RUNS,
      );
    },
    PROPERTY_TIMEOUT,
  );
});

describe('generator sanity', () => {
  it('artifactLike yields both valid and invalid artifacts in useful proportions', () => {
    const sample = fc.sample(artifactLike, { numRuns: 2000, seed: 42 });
    const valid = sample.filter((a) => v.is(ToolArtifactSchema, a)).length;
    expect(valid).toBeGreaterThan(100);
    expect(valid).toBeLessThan(1900);
  });
});
