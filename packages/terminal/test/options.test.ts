import { describe, expect, test } from 'vitest';
import { createTerminalRenderer, resolveColor, resolveRenderOptions } from '../src/index.js';

describe('resolveColor', () => {
  test('an explicit boolean wins over the environment', () => {
    expect(resolveColor({ color: true, env: { NO_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(resolveColor({ color: false, env: { FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
  });
  test('NO_COLOR set and non-empty turns colour off, even on a TTY and with FORCE_COLOR', () => {
    expect(resolveColor({ env: { NO_COLOR: '1' }, isTTY: true })).toBe(false);
    expect(resolveColor({ env: { NO_COLOR: 'yes', FORCE_COLOR: '1' }, isTTY: true })).toBe(false);
  });
  test('an empty NO_COLOR is ignored', () => {
    expect(resolveColor({ env: { NO_COLOR: '' }, isTTY: true })).toBe(true);
  });
  test('FORCE_COLOR turns colour on off a TTY; FORCE_COLOR=0/false turns it off', () => {
    expect(resolveColor({ env: { FORCE_COLOR: '1' }, isTTY: false })).toBe(true);
    expect(resolveColor({ env: { FORCE_COLOR: '' }, isTTY: false })).toBe(true);
    expect(resolveColor({ env: { FORCE_COLOR: '0' }, isTTY: true })).toBe(false);
    expect(resolveColor({ env: { FORCE_COLOR: 'false' }, isTTY: true })).toBe(false);
  });
  test('otherwise colour follows isTTY', () => {
    expect(resolveColor({ env: {}, isTTY: true })).toBe(true);
    expect(resolveColor({ env: {}, isTTY: false })).toBe(false);
    expect(resolveColor({ color: 'auto', env: {}, isTTY: false })).toBe(false);
  });
});

describe('resolveRenderOptions', () => {
  test('clamps width and row limits', () => {
    expect(resolveRenderOptions({ width: 2, env: {} }).width).toBe(8);
    expect(resolveRenderOptions({ width: 5000, env: {} }).width).toBe(1000);
    expect(resolveRenderOptions({ width: Number.NaN, env: {} }).width).toBe(80);
    expect(resolveRenderOptions({ width: 61.7, env: {} }).width).toBe(61);
    expect(resolveRenderOptions({ maxTableRows: 0, env: {} }).maxTableRows).toBe(1);
  });
});

describe('createTerminalRenderer', () => {
  const result = { value: '\u001b[31mred\u001b[0m' };
  test('NO_COLOR: no escape at all in the output', () => {
    const r = createTerminalRenderer({ env: { NO_COLOR: '1' }, isTTY: true, width: 60 });
    expect(r.color).toBe(false);
    expect(r.width).toBe(60);
    expect(r.renderArtifact(result)).toBe('red');
    expect(r.renderToolResult({ card: 'terminal', output: 'x', exitCode: 0 })).not.toContain('\u001b');
  });
  test('a non-TTY without FORCE_COLOR renders plain text', () => {
    const r = createTerminalRenderer({ env: {}, isTTY: false });
    expect(r.renderArtifact(result)).toBe('red');
  });
  test('FORCE_COLOR keeps tool colours and resets them at the line end', () => {
    const r = createTerminalRenderer({ env: { FORCE_COLOR: '1' }, isTTY: false });
    expect(r.color).toBe(true);
    expect(r.renderArtifact({ value: '\u001b[31mred' })).toBe('\u001b[31mred\u001b[0m');
  });
  test('the renderer methods match the free functions', () => {
    const r = createTerminalRenderer({ color: false, width: 40 });
    const call = { card: 'generic', title: 'Glob' } as const;
    expect(r.renderToolCall(call)).toBe('● Glob');
    expect(r.renderToolCard({ call })).toBe('● Glob\n  … running');
    expect(r.renderToolResult({ card: 'generic' }, { value: 'v' })).toBe('  v');
  });
});
