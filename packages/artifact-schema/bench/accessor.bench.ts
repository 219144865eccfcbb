// `pnpm bench`: toolResultArtifact vs (a) a minimal hand-written shape check and (b) a plain valibot safeParse
// of the same schema, on valid, invalid and future artifacts inside a ToolResult. Vitest prints ops/s per
// case and, per group, how many times faster the fastest case is than each other one.
import * as v from 'valibot';
import { bench, describe } from 'vitest';
import {
  TOOL_ARTIFACT_SCHEMA,
  type ToolArtifact,
  ToolArtifactSchema,
  toolResultArtifact,
} from '../src/index.js';

/** The minimal hand-written check a host might write: navigate, check the seven fields, no copy, no guards. */
function handWritten(x: unknown): ToolArtifact | null {
  const a = (x as { extra?: { codeagent?: { artifact?: Record<string, unknown> } } })?.extra?.codeagent
    ?.artifact;
  if (typeof a !== 'object' || a === null) return null;
  const { version, kind, status, icon, title, payload } = a;
  return a.schema === TOOL_ARTIFACT_SCHEMA &&
    version === 1 &&
    typeof kind === 'string' &&
    kind !== '' &&
    typeof status === 'string' &&
    status !== '' &&
    (icon === null || typeof icon === 'string') &&
    (title === null || typeof title === 'string') &&
    typeof payload === 'object' &&
    payload !== null
    ? (a as ToolArtifact)
    : null;
}

/** A plain valibot parse of the same schema (with the v1 filter, as the accessor applies by default). */
function valibot(x: unknown): ToolArtifact | null {
  const a = (x as { extra?: { codeagent?: { artifact?: unknown } } })?.extra?.codeagent?.artifact;
  const parsed = v.safeParse(ToolArtifactSchema, a);
  return parsed.success && parsed.output.version === 1 ? parsed.output : null;
}

const wrap = (artifact: unknown) => ({ value: 'v', extra: { codeagent: { artifact } } });
const base = {
  schema: TOOL_ARTIFACT_SCHEMA,
  version: 1,
  kind: 'table',
  status: 'success',
  icon: 'table',
  title: 'Grouped summary',
  payload: { df: [{ g: 'a', n: 1 }], columns: [{ name: 'g' }, { name: 'n' }] },
};
const inputs = {
  valid: wrap(base),
  invalid: wrap({ ...base, version: '1' }),
  future: wrap({ ...base, version: 2, layout: 'grid' }),
};

let sink: unknown;
for (const [name, input] of Object.entries(inputs)) {
  describe(`${name} artifact`, () => {
    bench('toolResultArtifact', () => {
      sink = toolResultArtifact(input);
    });
    bench('hand-written shape check (baseline a)', () => {
      sink = handWritten(input);
    });
    bench('valibot safeParse (baseline b)', () => {
      sink = valibot(input);
    });
  });
}
export { sink };
