import { describe, expect, it } from 'vitest';
import resolution from '../vectors/resolution.json' with { type: 'json' };
import fallback from '../vectors/terminal-fallback.json' with { type: 'json' };
import {
  createToolPresenter,
  type PresenterIssue,
  type StandardSchemaV1,
  type ToolPresentation,
  type ToolResultInput,
  terminalFallbackText,
} from '../src/index.js';

// The shared conformance vectors (also run by @codeagent/conformance against any host): tools described as data.
type Behaviour = 'undefined' | 'echo' | { returns: unknown } | { throws: string };
type SchemaSpec = 'async' | { requireString: string } | { throws: string };
interface ToolSpec {
  presentCall?: Behaviour;
  presentResult?: Behaviour;
  inputSchema?: SchemaSpec;
  lookupThrows?: boolean;
}
type Step =
  | { call: { id: string; name: string; args: unknown }; expected: unknown }
  | { result: { id: string } & ToolResultInput; expected: unknown };

function behave(b: Behaviour, echo: (...args: unknown[]) => unknown) {
  return (...args: unknown[]): never => {
    if (b === 'undefined') return undefined as never;
    if (b === 'echo') return echo(...args) as never;
    if ('throws' in b) throw new Error(b.throws);
    return structuredClone(b.returns) as never;
  };
}

function schema(spec: SchemaSpec): StandardSchemaV1<unknown, unknown> {
  const validate = (value: unknown) => {
    if (spec === 'async') return Promise.resolve({ value });
    if ('throws' in spec) throw new Error(spec.throws);
    const arg = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : undefined;
    return typeof arg?.[spec.requireString] === 'string'
      ? { value: { ...arg, checked: true } }
      : { issues: [{ message: `${spec.requireString} must be a string` }] };
  };
  return { '~standard': { version: 1, vendor: 'vectors', validate } };
}

function presentation(spec: ToolSpec): ToolPresentation {
  const p: ToolPresentation = {};
  if (spec.presentCall)
    p.presentCall = behave(spec.presentCall, (args) => ({
      card: 'generic',
      title: 'echo',
      kind: 'other',
      rawInput: args,
    }));
  if (spec.presentResult)
    p.presentResult = behave(spec.presentResult, (args, r) => {
      const { value, isError, meta } = r as { value: string; isError: boolean; meta?: unknown };
      const text = JSON.stringify({ args, value, isError, ...(meta === undefined ? {} : { meta }) });
      return { card: 'generic', title: 'echo', content: [{ type: 'text', text }] };
    });
  if (spec.inputSchema) p.inputSchema = schema(spec.inputSchema);
  return p;
}

describe('resolution vectors (vectors/resolution.json)', () => {
  it('has unique ids and a rule for each', () => {
    const ids = resolution.vectors.map((v) => v.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const v of resolution.vectors) expect(v.rule).toMatch(/CONTRACTS\.md §2|ADR 0021/);
  });

  it.each(resolution.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    const tools = v.tools as Record<string, ToolSpec>;
    const issues: PresenterIssue[] = [];
    const presenter = createToolPresenter(
      (name) => {
        const spec = Object.hasOwn(tools, name) ? tools[name] : undefined;
        if (spec?.lookupThrows) throw new Error(`lookup ${name}`);
        return spec && presentation(spec);
      },
      { onError: (issue) => issues.push(issue) },
    );
    for (const step of v.steps as Step[]) {
      const view =
        'call' in step
          ? presenter.call(step.call.id, step.call.name, step.call.args)
          : presenter.result(step.result.id, step.result);
      expect(JSON.parse(JSON.stringify(view))).toEqual(step.expected);
    }
    expect(issues.map((i) => i.code)).toEqual(v.issues);
    expect(presenter.pending).toBe(v.pending);
  });
});

describe('terminal fallback vectors (vectors/terminal-fallback.json)', () => {
  it.each(fallback.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    expect(terminalFallbackText(v.input as string)).toBe(v.expected);
  });
});
