import { expect } from 'vitest';
import { findUnsafeTerminalBytes } from '../src/index.js';

/** A bare v1 artifact with any kind and payload (bypasses the producer's typing on purpose). */
export function artifact(
  kind: string,
  payload: unknown,
  extra: { title?: string | null; status?: string; version?: number } = {},
): Record<string, unknown> {
  return {
    schema: 'codeagent.tool-artifact',
    version: extra.version ?? 1,
    kind,
    status: extra.status ?? (kind === 'error' ? 'error' : 'success'),
    icon: null,
    title: extra.title ?? null,
    payload,
  };
}

/** A ToolResult carrying `value` and a v1 artifact. */
export function result(value: string, art: Record<string, unknown>): Record<string, unknown> {
  return { value, extra: { codeagent: { artifact: art } } };
}

/** Asserts the strict terminal rules with a readable failure. */
export function expectSafe(text: string, context = ''): void {
  const found = findUnsafeTerminalBytes(text);
  expect(found, `${context}: ${JSON.stringify(found)}`).toEqual([]);
}

/** Every line that sets any SGR attribute ends with all attributes reset (its last SGR is a reset). */
export function expectNoBleed(text: string): void {
  for (const line of text.split('\n')) {
    const sgrs = line.match(/\u001b\[[0-9;]*m/g);
    if (sgrs) expect(/^\u001b\[0*m$/.test(sgrs.at(-1) ?? ''), JSON.stringify(line)).toBe(true);
  }
}
