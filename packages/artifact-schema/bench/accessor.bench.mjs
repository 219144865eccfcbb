// `pnpm bench`: toolResultArtifact vs (a) a minimal hand-written shape check and (b) a plain valibot
// safeParse of the same schema, on valid, invalid and future (v2) artifacts inside a ToolResult.
// Runs on the built package (dist), in the shared format (scripts/bench-lib.mjs): interleaved pairs, CPU time.
import * as v from 'valibot';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
import { TOOL_ARTIFACT_SCHEMA, ToolArtifactSchema, toolResultArtifact } from '../dist/index.js';

/** Baseline (a): navigate, check the seven fields, return the input object (no copy, no guards). */
function handWritten(x) {
  const a = x?.extra?.codeagent?.artifact;
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
    ? a
    : null;
}

/** Baseline (a) plus the fresh seven-key copy that the contract requires of toolResultArtifact. */
function handWrittenWithCopy(x) {
  const a = handWritten(x);
  if (a === null) return null;
  const { schema, version, kind, status, icon, title, payload } = a;
  return { schema, version, kind, status, icon, title, payload };
}

/** Baseline (b): a plain valibot safeParse of the same schema, with the default v1 filter. */
function valibot(x) {
  const parsed = v.safeParse(ToolArtifactSchema, x?.extra?.codeagent?.artifact);
  return parsed.success && parsed.output.version === 1 ? parsed.output : null;
}

const wrap = (artifact) => ({ value: 'v', extra: { codeagent: { artifact } } });
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
const candidates = {
  toolResultArtifact: (x) => toolResultArtifact(x),
  '(a) hand-written check': handWritten,
  '(a) hand-written check + copy': handWrittenWithCopy,
  '(b) valibot safeParse': valibot,
};

let sink;
const suite = benchSuite(
  '@codeagent/artifact-schema',
  'toolResultArtifact (reads the artifact of a ToolResult: guards, v1 filter, a fresh seven-key copy) beside a minimal hand-written check and a plain valibot safeParse',
);
const goals = {
  '(a) hand-written check + copy': { max: 1.5, note: 'the copy the contract requires is the floor' },
  '(b) valibot safeParse': { max: 1 },
};
for (const [name, input] of Object.entries(inputs)) {
  for (const [k, fn] of Object.entries(candidates)) {
    if (k === 'toolResultArtifact') continue;
    await suite.compare({
      name: `${name} artifact vs ${k.replace(/^\([ab]\) /, '')}`,
      what: `toolResultArtifact of a ${name} artifact`,
      baselineName: k.replace(/^\([ab]\) /, ''),
      ours: () => {
        sink = toolResultArtifact(input);
      },
      baseline: () => {
        sink = fn(input);
      },
      ...(goals[k] && name === 'valid' ? { goal: goals[k] } : {}),
      budgetMs: 8_000,
    });
  }
}
suite.finish();
if (sink === Symbol.for('never')) console.log(sink);
