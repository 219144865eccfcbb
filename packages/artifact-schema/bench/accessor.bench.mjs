// `pnpm bench`: toolResultArtifact vs (a) a minimal hand-written shape check and (b) a plain valibot
// safeParse of the same schema, on valid, invalid and future (v2) artifacts inside a ToolResult.
// Runs on the built package (dist). Each round times BATCH calls of one function; rounds of all functions are
// interleaved and the median round is reported, which keeps the ratios stable on a busy machine.
import * as v from 'valibot';
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

const BATCH = 20_000;
const ROUNDS = 31;
let sink;

function round(fn, input) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < BATCH; i++) sink = fn(input);
  return Number(process.hrtime.bigint() - start) / BATCH;
}

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

console.log(
  `toolResultArtifact bench: median of ${ROUNDS} interleaved rounds x ${BATCH} calls (node ${process.version});\n` +
    'ratio = time of toolResultArtifact / time of the baseline (lower is better)\n',
);
for (const [name, input] of Object.entries(inputs)) {
  const samples = Object.fromEntries(Object.keys(candidates).map((k) => [k, []]));
  for (const fn of Object.values(candidates)) for (let i = 0; i < 3; i++) round(fn, input); // warm-up
  for (let r = 0; r < ROUNDS; r++) {
    for (const [k, fn] of Object.entries(candidates)) samples[k].push(round(fn, input));
  }
  const ns = Object.fromEntries(Object.entries(samples).map(([k, xs]) => [k, median(xs)]));
  const ours = ns.toolResultArtifact;
  console.log(`${name} artifact`);
  for (const [k, t] of Object.entries(ns)) {
    const opsPerSec = Math.round(1e9 / t).toLocaleString('en-US');
    const r = ours / t;
    const ratio =
      k === 'toolResultArtifact'
        ? ''
        : `  ratio ${r.toFixed(2)}${r < 1 ? ` (toolResultArtifact ${(1 / r).toFixed(1)}x faster)` : ''}`;
    console.log(
      `  ${k.padEnd(32)} ${opsPerSec.padStart(13)} ops/s  ${t.toFixed(1).padStart(7)} ns/call${ratio}`,
    );
  }
  console.log('');
}
if (sink === Symbol.for('never')) console.log(sink);
