import { artifact, FALLBACK_RULE, result } from './inputs.js';
import type { Page } from 'playwright-core';
import { buildReport, type ConformanceReport, caseResult, type VectorResult } from './run.js';
import corpus from './xss-corpus.json' with { type: 'json' };
import { wireJson } from './wire.js';

/** One case of the web renderer suite: an input for the page's render hook and what must hold afterwards. */
export interface BrowserCase {
  /** Unique id, `web/<group>/<case>`. */
  readonly id: string;
  /** The rule and where it comes from. */
  readonly rule: string;
  /** The tool result (or event, or artifact) handed to the renderer. */
  readonly input: unknown;
  /** Text that must be visible in the rendered DOM (the portable fallback), if any. */
  readonly visible?: string;
}

const TRUST =
  'CONTRACTS §1 Trust boundary (HTML): every untrusted string escaped once, only trustedHtml inserted';

const ROBUST = 'CONTRACTS §1 Trust boundary: untrusted artifact data never crashes a renderer';

function nested(depth: number): unknown {
  let v: unknown = 'bottom';
  for (let i = 0; i < depth; i++) v = { v };
  return v;
}

const PLACEMENTS: readonly { name: string; make: (s: string) => unknown }[] = [
  { name: 'value', make: (s) => result(s) },
  { name: 'markdown-text', make: (s) => result('v', artifact('text', { text: s })) },
  { name: 'code', make: (s) => result('v', artifact('code', { text: s, lang: 'html', filename: s })) },
  { name: 'table-cell', make: (s) => result('v', artifact('table', { df: [{ col: s }] })) },
  { name: 'table-column', make: (s) => result('v', artifact('table', { df: [{ [s]: 1 }] })) },
  { name: 'title', make: (s) => result('v', artifact('text', { text: 't' }, { title: s })) },
  {
    name: 'error',
    make: (s) => result('v', artifact('error', { message: s, detail: s }, { status: 'error' })),
  },
  {
    name: 'diff',
    make: (s) => result('v', artifact('diff', { old: `a\n${s}\n`, new: `b\n${s}\n`, path: s })),
  },
  {
    name: 'image-mime',
    make: (s) => result('v', artifact('image', { images: [{ mime: s, b64: 'iVBORw0KGgo=' }] })),
  },
  { name: 'unknown-kind', make: (s) => result(s, artifact('hologram', { beam: s })) },
];

/**
 * The web renderer suite: every payload of the XSS corpus (script tags, event handlers, `javascript:`/`data:` URLs,
 * SVG and MathML, markdown link and image tricks, CSS, bidi, nesting) in every place an untrusted string sits, and the
 * fallbacks to the value (unknown kind, future version, malformed artifacts, none), and huge (10 MB) and deep
 * (10,000 levels) payloads.
 */
export function browserRendererCases(): BrowserCase[] {
  const cases: BrowserCase[] = [];
  for (const placement of PLACEMENTS) {
    for (const p of corpus.payloads) {
      cases.push({ id: `web/xss/${placement.name}/${p.id}`, rule: TRUST, input: placement.make(p.payload) });
    }
  }
  const fallbacks: [string, unknown][] = [
    ['unknown-kind', result('the portable value', artifact('hologram', { beam: 1 }))],
    [
      'future-version',
      result('the portable value', { ...artifact('text', { text: 'v9 only' }), version: 9 }),
    ],
    ['no-artifact', result('the portable value')],
    ['malformed-version', result('the portable value', { ...artifact('text', { text: 'x' }), version: '1' })],
    ['malformed-payload', result('the portable value', artifact('text', null))],
    ['malformed-artifact-string', result('the portable value', '<b>not an artifact</b>')],
  ];
  for (const [name, input] of fallbacks)
    cases.push({ id: `web/fallback/${name}`, rule: FALLBACK_RULE, input, visible: 'the portable value' });
  // Huge and deep payloads: the page must stay up and show the fallback where there is one.
  const robust: [string, unknown, string | undefined][] = [
    [
      'huge-text-10mb',
      result('huge', artifact('text', { text: `${'line of output\n'.repeat(700_000)}END` })),
      undefined,
    ],
    ['huge-value-10mb', result(`${'x'.repeat(10 * 1024 * 1024)}`), undefined],
    ['deep-payload-10000', result('deep value', artifact('hologram', nested(10_000))), 'deep value'],
    ['deep-table-cell', result('v', artifact('table', { df: [{ a: nested(10_000) }] })), undefined],
  ];
  for (const [name, input, visible] of robust)
    cases.push({ id: `web/robust/${name}`, rule: ROBUST, input, ...(visible ? { visible } : {}) });
  return cases;
}

/** The global the page under test defines: renders one input into the document, replacing the previous one. */
export const RENDER_HOOK = '__codeagentRender';

/** What the page checks after a render: everything that would mean script ran or could run, or a fallback was lost. */
function inspect(visible: string | null): string[] {
  const w = window as unknown as { __xss?: unknown };
  const problems: string[] = [];
  if (w.__xss !== undefined) problems.push('script ran (window.__xss was set)');
  const bad = document.querySelectorAll(
    'body script, iframe, object, embed, frame, frameset, base, meta[http-equiv], link[rel="import"]',
  );
  for (const el of Array.from(bad))
    if (!el.hasAttribute('data-codeagent-page'))
      problems.push(`<${el.tagName.toLowerCase()}> element in the page`);
  for (const el of Array.from(document.body.querySelectorAll('*'))) {
    for (const attr of Array.from(el.attributes)) {
      const name = attr.name.toLowerCase();
      const value = attr.value.replace(/[\s\u0000-\u001f]/g, '').toLowerCase();
      if (name.startsWith('on')) problems.push(`${name} attribute on <${el.tagName.toLowerCase()}>`);
      if (/^(href|src|action|formaction|xlink:href|data|srcdoc|poster|background)$/.test(name)) {
        if (
          /^(javascript|vbscript):/.test(value) ||
          value.startsWith('data:text/html') ||
          value.startsWith('data:image/svg')
        ) {
          problems.push(`${name}="${attr.value.slice(0, 60)}" on <${el.tagName.toLowerCase()}>`);
        }
      }
      if (name === 'style' && /url\(|expression\(/.test(value))
        problems.push(`style with ${value.slice(0, 40)}`);
    }
  }
  if (visible !== null && !(document.body.textContent ?? '').includes(visible))
    problems.push(`the fallback "${visible}" is not shown`);
  return problems.slice(0, 5);
}

/**
 * Runs the web renderer suite in a browser page that defines `window.__codeagentRender(input)` (see
 * {@link RENDER_HOOK}); the page must be loaded already. Requests to any host but the page's own are aborted and
 * fail the case that made them, as do dialogs; each case is then inspected in the DOM.
 */
export async function runBrowserRendererSuite(
  name: string,
  page: Page,
  options: { baseline?: ReadonlySet<string>; only?: readonly string[]; settleMs?: number } = {},
): Promise<ConformanceReport> {
  const origin = new URL(page.url()).origin;
  const offOrigin: string[] = [];
  const dialogs: string[] = [];
  await page.route('**/*', async (route) => {
    const url = route.request().url();
    if (url.startsWith(origin) || url.startsWith('data:')) await route.continue();
    else {
      offOrigin.push(url);
      await route.abort();
    }
  });
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    dialog.dismiss().catch(() => undefined);
  });
  const all = browserRendererCases();
  const baseline = options.baseline ?? new Set<string>();
  const results: VectorResult[] = [];
  for (const c of all.filter((x) => !options.only || options.only.some((p) => x.id.startsWith(p)))) {
    const started = performance.now();
    offOrigin.length = 0;
    dialogs.length = 0;
    let problems: string[];
    try {
      // As JSON text, parsed in the page: Playwright's own argument serialiser recurses and gives up long before
      // 10,000 levels; JSON.parse does not.
      await page.evaluate(
        async ({ hook, json }) => {
          (window as unknown as { __xss?: unknown }).__xss = undefined;
          await (window as unknown as Record<string, (x: unknown) => unknown>)[hook]?.(JSON.parse(json));
        },
        { hook: RENDER_HOOK, json: wireJson(c.input) },
      );
      await page.waitForTimeout(options.settleMs ?? 30);
      problems = await page.evaluate(inspect, c.visible ?? null);
      problems.push(
        ...offOrigin.map((u) => `a request left for ${u}`),
        ...dialogs.map((d) => `a dialog opened: ${d}`),
      );
    } catch (error) {
      problems = [
        `the page failed: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`,
      ];
    }
    results.push(
      caseResult(
        { id: c.id, rule: c.rule, op: 'render' },
        problems.length ? problems.join('; ') : null,
        baseline,
        performance.now() - started,
      ),
    );
  }
  await page.unroute('**/*');
  return buildReport(
    'web-renderer',
    name,
    results,
    all.map((c) => c.id),
    baseline,
  );
}
