import fc from 'fast-check';
import { TOOL_ARTIFACT_SCHEMA } from '../src/index.js';

/** A Proxy whose every trap throws. */
export function explodingProxy(): object {
  const boom = (): never => {
    throw new Error('trap');
  };
  return new Proxy(
    {},
    { get: boom, has: boom, ownKeys: boom, getPrototypeOf: boom, getOwnPropertyDescriptor: boom, set: boom },
  );
}

/** A revoked Proxy: even `Array.isArray` throws on it. */
export function revokedProxy(): object {
  const { proxy, revoke } = Proxy.revocable([], {});
  revoke();
  return proxy;
}

/** Wraps a value so that reading one of its keys throws (or the whole object is hostile). */
function trap(value: unknown, how: number, key: string): unknown {
  switch (how) {
    case 0: {
      const o: Record<string, unknown> =
        typeof value === 'object' && value !== null ? { ...value } : { inner: value };
      Object.defineProperty(o, key, {
        enumerable: true,
        get() {
          throw new Error('getter');
        },
      });
      return o;
    }
    case 1:
      return explodingProxy();
    case 2:
      return revokedProxy();
    case 3: {
      const o: Record<string, unknown> = { value: 'cyclic' };
      o.self = o;
      o[key] = o;
      return o;
    }
    case 4: {
      const o = Object.create(null) as Record<string, unknown>;
      o[key] = value;
      return o;
    }
    case 5: {
      let n = 0;
      // A getter that answers differently each time (a valid artifact on the first read only).
      const o: Record<string, unknown> = { ...(typeof value === 'object' && value !== null ? value : {}) };
      Object.defineProperty(o, key, {
        enumerable: true,
        get() {
          n++;
          return n === 1 ? value : Symbol('changed');
        },
      });
      return o;
    }
    default:
      return value;
  }
}

const keys = fc.constantFrom(
  'value',
  'extra',
  'codeagent',
  'artifact',
  'schema',
  'version',
  'kind',
  'payload',
  'error',
  'isError',
);

/** fc.anything with every exotic option on, plus functions and symbols. */
export const exotic: fc.Arbitrary<unknown> = fc.oneof(
  fc.anything({
    maxDepth: 1,
    maxKeys: 3,
    withBigInt: true,
    withBoxedValues: true,
    withDate: true,
    withMap: true,
    withSet: true,
    withNullPrototype: true,
    withObjectString: true,
    withSparseArray: true,
    withTypedArray: true,
  }),
  fc.func(fc.anything()),
  fc.string().map((s) => Symbol(s)),
);

class Klass {
  kind = 'text';
}

/** Pre-built non-JSON values (cheap to draw; never mutated by the code under test). */
const garbage: fc.Arbitrary<unknown> = fc.constantFrom<unknown>(
  undefined,
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  10n,
  Symbol('s'),
  () => 1,
  new Date(0),
  new Date(Number.NaN),
  new Map([[1, 2]]),
  new Set([1]),
  Object.create(null),
  new Uint8Array(2),
  // biome-ignore lint/suspicious/noSparseArray: a sparse array is the point
  [, 1],
  new String('x'),
  /re/,
  new Klass(),
  '',
  '1',
  [1],
  true,
);

/** Field values that are valid for some field, plus garbage. */
const fieldValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(TOOL_ARTIFACT_SCHEMA),
  fc.constantFrom(1, 2, 3, 1.5, 0, -1),
  fc.constantFrom('text', 'table', 'image', 'code', 'diff', 'error', 'success', 'denied'),
  fc.constant(null),
  fc.dictionary(fc.string({ maxLength: 3 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 2 }),
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 2 }),
  garbage,
);

const artifactFields = {
  schema: fc.oneof({ weight: 4, arbitrary: fc.constant(TOOL_ARTIFACT_SCHEMA) }, fieldValue),
  version: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) }, fieldValue),
  kind: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('text', 'error', 'image', 'chart') }, fieldValue),
  status: fc.oneof({ weight: 3, arbitrary: fc.constantFrom('success', 'error', 'denied') }, fieldValue),
  icon: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(null, 'file') }, fieldValue),
  title: fc.oneof({ weight: 3, arbitrary: fc.constantFrom(null, 'T', '<b>x</b>') }, fieldValue),
  payload: fc.oneof(
    {
      weight: 3,
      arbitrary: fc.dictionary(fc.string({ maxLength: 4 }), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 }),
    },
    fieldValue,
  ),
  extraKey: fc.jsonValue({ maxDepth: 1 }),
};

/** Artifact-like records drawn from valid-ish values and garbage; mostly complete, sometimes with keys missing. */
export const artifactLike: fc.Arbitrary<Record<string, unknown>> = fc.oneof(
  {
    weight: 3,
    arbitrary: fc.record(artifactFields, {
      requiredKeys: ['schema', 'version', 'kind', 'status', 'icon', 'title', 'payload'],
    }),
  },
  { weight: 1, arbitrary: fc.record(artifactFields, { requiredKeys: [] }) },
);

/** ToolResult-like and stream-event-like containers around artifact-like values. */
export const containerLike: fc.Arbitrary<unknown> = fc.oneof(
  fc.record(
    {
      value: fc.oneof(fc.string(), fieldValue),
      extra: fc.oneof(
        {
          weight: 4,
          arbitrary: fc.record(
            {
              codeagent: fc.oneof(
                {
                  weight: 4,
                  arbitrary: fc.record(
                    { artifact: artifactLike, provenance: fc.string() },
                    { requiredKeys: ['artifact'] },
                  ),
                },
                fieldValue,
              ),
              display: fc.jsonValue({ maxDepth: 1 }),
            },
            { requiredKeys: [] },
          ),
        },
        fieldValue,
      ),
      error: fc.oneof(fc.constantFrom(undefined, null, false, 'E', true), fieldValue),
      request: fc.record({ id: fc.string(), name: fc.string(), arguments: fc.jsonValue({ maxDepth: 1 }) }),
      isError: fc.boolean(),
    },
    { requiredKeys: [] },
  ),
  fc.record({ id: fc.string(), value: fc.string(), isError: fc.boolean(), artifact: artifactLike }),
  artifactLike,
);

/** A recipe for a value built lazily inside the property (fast-check must not touch traps while reporting). */
export type Recipe = (() => unknown) & { readonly [fc.toStringMethod]: () => string };

function recipe(describe: () => string, build: () => unknown): Recipe {
  return Object.assign(build, { [fc.toStringMethod]: describe });
}

const trapped = fc.tuple(containerLike, fc.integer({ min: 0, max: 6 }), keys).map(([v, how, key]) =>
  recipe(
    () => `trap(${fc.stringify(v)}, ${how}, ${key})`,
    () => trap(v, how, key),
  ),
);

const trappedArtifact = fc
  .tuple(artifactLike, fc.integer({ min: 0, max: 6 }), keys, fc.boolean())
  .map(([a, how, key, inEvent]) =>
    recipe(
      () => `trappedArtifact(${fc.stringify(a)}, ${how}, ${key}, ${inEvent})`,
      () =>
        inEvent
          ? { value: 'v', isError: true, artifact: trap(a, how, key) }
          : { value: 'v', extra: { codeagent: { artifact: trap(a, how, key) } } },
    ),
  );

const plain = fc.oneof(containerLike, exotic).map((v) =>
  recipe(
    () => fc.stringify(v),
    () => v,
  ),
);

/** Everything: containers, exotic values, and either of them with a hostile trap somewhere (as recipes). */
export const hostile: fc.Arbitrary<Recipe> = fc.oneof(plain, trapped, trappedArtifact);
