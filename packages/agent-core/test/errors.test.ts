import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AgentCoreError, createClient, stream } from '../src/index.js';
import { errorMessage } from '../src/errors.js';
import { toUserMessage } from '../src/input.js';
import { finish, scriptedModel, text } from './helpers.js';

const hostile: unknown[] = [
  Object.create(null),
  {
    toJSON() {
      throw new Error('no');
    },
    toString() {
      throw new Error('no');
    },
  },
  {
    [Symbol.toPrimitive]() {
      throw new Error('no');
    },
    get x() {
      throw new Error('getter');
    },
  },
  10n,
  Symbol('s'),
  undefined,
  null,
  (() => {
    const c: Record<string, unknown> = {};
    c.c = c;
    return c;
  })(),
];

describe('untrusted values in error paths', () => {
  it('errorMessage is total: one short line for anything', () => {
    fc.assert(
      fc.property(fc.oneof(fc.anything(), fc.constantFrom(...hostile)), (x) => {
        const m = errorMessage(x);
        expect(typeof m).toBe('string');
        expect(m.length).toBeGreaterThan(0);
        expect(m.length).toBeLessThanOrEqual(500);
        expect(m).not.toMatch(/\n/);
      }),
    );
  });

  it('a callback throwing a hostile value still resolves through the error path', async () => {
    for (const value of hostile) {
      const model = scriptedModel([[...text(['a']), finish('stop')]]);
      const client = createClient({ model, registerTools: false });
      const errors: string[] = [];
      const r = await stream(client, 'go', {
        onDelta: () => {
          throw value;
        },
        onError: (m) => errors.push(m),
      });
      expect(r.stopReason).toBe('error');
      expect(errors).toHaveLength(1);
    }
  });

  it('toUserMessage accepts strings and content parts, and rejects anything else with AgentCoreError', () => {
    fc.assert(
      fc.property(fc.anything(), (x) => {
        try {
          const m = toUserMessage(x as never);
          expect(m.role).toBe('user');
          // Whatever was accepted is plain JSON.
          expect(JSON.parse(JSON.stringify(m))).toEqual(m);
        } catch (e) {
          expect(e).toBeInstanceOf(AgentCoreError);
        }
      }),
      { numRuns: 300 },
    );
  });
});
