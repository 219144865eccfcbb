import { expect, it } from 'vitest';
// README quick start, verbatim from here to the marker.
import {
  createBuiltinPresenters,
  createToolPresenter,
  matchCallView,
  matchResultView,
  terminalFallbackText,
} from '@codeagent/render-intent';

const builtins = createBuiltinPresenters({ cwd: '/work/project' });
const presenter = createToolPresenter((name) => builtins[name as keyof typeof builtins], {
  onError: (issue) => console.warn(issue.code, issue.message),
});

const call = presenter.call('call_1', 'Bash', { command: 'npm test', description: 'Run the tests' });
const header = matchCallView(call, {
  generic: (v) => `• ${v.title}`,
  terminal: (v) => `$ ${v.title}${v.cwd ? `  (in ${v.cwd})` : ''}`,
  diff: (v) => `✎ ${v.title}: ${v.diffs.length} change(s)`,
});
const view = presenter.result('call_1', {
  content: 'ok\n',
  isError: false,
  meta: { output: 'ok\n', exitCode: 0 },
});
const body = matchResultView(view, {
  generic: (v) => (v.content ?? []).map((b) => (b.type === 'text' ? b.text : `[${b.mime}]`)).join('\n'),
  terminal: (v) => `${terminalFallbackText(v.output ?? '')}\nexit ${v.exitCode ?? v.signal}`,
  diff: (v) => v.diffs.map((d) => `${d.path}: -${d.oldText ?? ''} +${d.newText}`).join('\n'),
});
// end of quick start

it('the README quick start runs', () => {
  expect(header).toBe('$ npm test  (in /work/project)');
  expect(body).toBe('```console\nok\n```\nexit 0');
});

// README "writing presenters", verbatim from here to the marker.
import type { StandardSchemaV1, ToolPresentation } from '@codeagent/render-intent';

type FetchArgs = { url: string };

/** `inputSchema` is any Standard Schema, e.g. `z.object({ url: z.string() })`. */
export function fetchPresentation(
  inputSchema: StandardSchemaV1<unknown, FetchArgs>,
): ToolPresentation<FetchArgs> {
  return {
    inputSchema,
    presentCall: (args) => ({ card: 'generic', title: `Fetch ${args.url}`, kind: 'fetch' }),
    presentResult: (_args, result) => {
      const meta = result.meta as { status?: unknown } | undefined; // persisted, untrusted: narrow it
      const status = typeof meta?.status === 'number' ? meta.status : undefined;
      return status === undefined ? undefined : { card: 'generic', title: `HTTP ${status}` };
    },
  };
}
// end of writing presenters

it('the README presenter example resolves through createToolPresenter', () => {
  const schema: StandardSchemaV1<unknown, FetchArgs> = {
    '~standard': {
      version: 1,
      vendor: 'test',
      validate: (v) =>
        typeof (v as { url?: unknown })?.url === 'string'
          ? { value: v as FetchArgs }
          : { issues: [{ message: 'url' }] },
    },
  };
  const tool: ToolPresentation = fetchPresentation(schema);
  const p = createToolPresenter(() => tool);
  expect(p.call('1', 'WebFetch', { url: 'https://example.test' })).toEqual({
    card: 'generic',
    title: 'Fetch https://example.test',
    kind: 'fetch',
  });
  expect(p.result('1', { content: '<html>', isError: false, meta: { status: 200 } })).toEqual({
    card: 'generic',
    title: 'HTTP 200',
    content: [{ type: 'text', text: '<html>' }],
  });
});

it('the README shows these snippets verbatim', async () => {
  const { readFileSync } = await import('node:fs');
  const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
  const self = readFileSync(new URL(import.meta.url), 'utf8');
  const blocks = [...readme.matchAll(/```ts\n([\s\S]*?)```/g)].map((m) => m[1] ?? '');
  expect(blocks).toHaveLength(2);
  for (const block of blocks) expect(self).toContain(block);
});
