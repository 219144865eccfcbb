import { artifact, FALLBACK_RULE, result } from './inputs.js';
import { wireJson } from './wire.js';
import {
  findUnsafeTerminalBytes,
  type InjectionPayload,
  loadInjectionCorpus,
} from '@codeagent/terminal/corpus';
import {
  buildReport,
  type ConformanceReport,
  caseResult,
  type Implementation,
  type VectorResult,
} from './run.js';

/** A terminal renderer under test: takes a tool result (or event, or artifact) and returns the text it would write. */
export type TerminalRender = (result: unknown) => string | Promise<string>;

/** One case of the terminal renderer suite. */
export interface RendererCase {
  /** Unique id, `terminal/<group>/<case>`. */
  readonly id: string;
  /** The rule checked and where it comes from. */
  readonly rule: string;
  /** The input handed to the renderer. */
  readonly input: () => unknown;
  /** Substrings that must be visible in the output (SGR removed, white space ignored). */
  readonly keep: readonly string[];
}

const TRUST = 'CONTRACTS §1 Trust boundary (terminal text) / seed 000 信任边界';
const ROBUST = 'CONTRACTS §1 Trust boundary: untrusted artifact data never crashes a renderer';

/** Where an untrusted string can sit in a result, and whether its text must stay visible there. */
const PLACEMENTS: readonly { name: string; visible: boolean; make: (s: string) => unknown }[] = [
  { name: 'value', visible: true, make: (s) => result(s) },
  { name: 'text-payload', visible: true, make: (s) => result('v', artifact('text', { text: s })) },
  {
    name: 'code-payload',
    visible: true,
    make: (s) => result('v', artifact('code', { text: s, lang: 'ts', filename: 'a.ts' })),
  },
  { name: 'table-cell', visible: false, make: (s) => result('v', artifact('table', { df: [{ col: s }] })) },
  { name: 'table-column', visible: false, make: (s) => result('v', artifact('table', { df: [{ [s]: 1 }] })) },
  { name: 'title', visible: false, make: (s) => result('v', artifact('text', { text: 't' }, { title: s })) },
  {
    name: 'error-message',
    visible: true,
    make: (s) => result('v', artifact('error', { message: s }, { status: 'error' })),
  },
  {
    name: 'diff',
    visible: false,
    make: (s) => result('v', artifact('diff', { old: `a\n${s}\n`, new: `b\n${s}\n`, path: s })),
  },
  {
    name: 'image-mime',
    visible: false,
    make: (s) => result('v', artifact('image', { images: [{ mime: s, b64: 'AAAA' }] })),
  },
  { name: 'unknown-kind-value', visible: true, make: (s) => result(s, artifact('hologram', { x: s })) },
];

function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { v };
  return v;
}

/**
 * The terminal renderer suite: every payload of the terminal injection corpus in every place an untrusted string can
 * sit (value, text, code, table cells and columns, titles, errors, diffs, image metadata, unknown kinds); the
 * fallbacks to the value (unknown kind, future version, malformed artifacts, none); huge (10 MB) and deep (10,000
 * levels) payloads, a cycle and a throwing getter. The rendered text may hold no escape but SGR and no C0/C1/bidi
 * control, and must keep the payload's visible text where the text is shown.
 */
export function terminalRendererCases(): RendererCase[] {
  const corpus = loadInjectionCorpus().payloads;
  const cases: RendererCase[] = [];
  for (const placement of PLACEMENTS) {
    for (const p of corpus as readonly InjectionPayload[]) {
      cases.push({
        id: `terminal/injection/${placement.name}/${p.id}`,
        rule: `${TRUST}: ${p.description}`,
        input: () => placement.make(p.payload),
        keep: placement.visible ? p.keep.filter((k) => !k.includes('\u001b')) : [],
      });
    }
  }
  const fallbacks: [string, () => unknown][] = [
    ['unknown-kind', () => result('the portable value', artifact('hologram', { beam: 1 }))],
    [
      'future-version',
      () => result('the portable value', { ...artifact('text', { text: 'v9 only' }), version: 9 }),
    ],
    ['no-artifact', () => result('the portable value')],
    [
      'malformed-schema',
      () => result('the portable value', { ...artifact('text', { text: 'x' }), schema: 'other' }),
    ],
    [
      'malformed-version-string',
      () => result('the portable value', { ...artifact('text', { text: 'x' }), version: '1' }),
    ],
    ['malformed-payload', () => result('the portable value', { ...artifact('text', null) })],
    ['malformed-artifact-string', () => result('the portable value', '<b>not an artifact</b>')],
    ['malformed-extra', () => ({ value: 'the portable value', extra: 'oops' })],
  ];
  for (const [name, input] of fallbacks) {
    cases.push({ id: `terminal/fallback/${name}`, rule: FALLBACK_RULE, input, keep: ['the portable value'] });
  }
  const robust: [string, () => unknown, string[]][] = [
    [
      'huge-text-10mb',
      () => result('huge', artifact('text', { text: `${'line of output\n'.repeat(700_000)}END` })),
      [],
    ],
    ['huge-value-10mb', () => result(`${'x'.repeat(10 * 1024 * 1024)}`), []],
    ['deep-payload-10000', () => result('deep value', artifact('hologram', nested(10_000))), ['deep value']],
    ['deep-table-cell', () => result('v', artifact('table', { df: [{ a: nested(10_000) }] })), []],
    [
      'cycle',
      () => {
        const payload: Record<string, unknown> = { text: 'cyclic' };
        payload.self = payload;
        return result('cycle value', artifact('text', payload));
      },
      [],
    ],
    [
      'throwing-getter',
      () => {
        const payload = Object.defineProperty({}, 'text', {
          enumerable: true,
          get() {
            throw new Error('hostile getter');
          },
        });
        return result('getter value', artifact('text', payload));
      },
      [],
    ],
    ['non-object-input', () => 42, []],
    ['null-input', () => null, []],
  ];
  for (const [name, input, keep] of robust)
    cases.push({ id: `terminal/robust/${name}`, rule: ROBUST, input, keep });
  return cases;
}

const squash = (s: string) => s.replace(/\u001b\[[0-9;]*m/g, '').replace(/\s+/g, '');

/** The operation a host implements to be run against the terminal renderer suite: `renderTerminal(result) -> text`. */
export const RENDER_TERMINAL_OP = 'renderTerminal';

/** Inputs that JSON cannot carry (a cycle, a getter) only run in process; for a host they are not applicable. */
function overTheWire(input: unknown): boolean {
  try {
    wireJson(input);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs the terminal renderer suite against a render function in this process, or against a host (any language) that
 * implements `renderTerminal` over the NDJSON protocol, with an optional expected-failures baseline.
 */
export async function runTerminalRendererSuite(
  name: string,
  renderer: TerminalRender | Implementation,
  options: { baseline?: ReadonlySet<string>; only?: readonly string[] } = {},
): Promise<ConformanceReport> {
  const host = typeof renderer === 'function' ? undefined : renderer;
  const render: TerminalRender =
    typeof renderer === 'function'
      ? renderer
      : async (input) => {
          const answer = await renderer.call(RENDER_TERMINAL_OP, [input]);
          if (!answer.ok) throw new Error(`${answer.error.name}: ${answer.error.message ?? ''}`);
          return answer.result as string;
        };
  const all = terminalRendererCases();
  const cases = all.filter((c) => !options.only || options.only.some((p) => c.id.startsWith(p)));
  const baseline = options.baseline ?? new Set<string>();
  const results: VectorResult[] = [];
  for (const c of cases) {
    if (host && (!host.ops.includes(RENDER_TERMINAL_OP) || !overTheWire(c.input()))) {
      const why = host.ops.includes(RENDER_TERMINAL_OP)
        ? 'in-process only (JSON cannot carry it)'
        : `${host.name} does not implement ${RENDER_TERMINAL_OP}`;
      results.push({ id: c.id, rule: c.rule, op: 'render', outcome: 'not-applicable', message: why, ms: 0 });
      continue;
    }
    const started = performance.now();
    let problem: string | null = null;
    try {
      const out = await render(c.input());
      if (typeof out !== 'string') problem = `the renderer returned ${typeof out}, not text`;
      else {
        const unsafe = findUnsafeTerminalBytes(out, 3);
        if (unsafe.length > 0)
          problem = `unsafe output: ${unsafe.map((u) => `${u.rule} at ${u.index} ${u.excerpt}`).join('; ')}`;
        else {
          const visible = squash(out);
          const lost = c.keep.filter((k) => !visible.includes(squash(k)));
          if (lost.length > 0)
            problem = `visible text lost: ${lost.map((k) => JSON.stringify(k)).join(', ')}`;
        }
      }
    } catch (error) {
      problem = `the renderer threw: ${error instanceof Error ? error.message : String(error)}`;
    }
    const ms = performance.now() - started;
    results.push(caseResult({ id: c.id, rule: c.rule, op: 'render' }, problem, baseline, ms));
  }
  return buildReport(
    'terminal-renderer',
    name,
    results,
    all.map((x) => x.id),
    baseline,
  );
}
