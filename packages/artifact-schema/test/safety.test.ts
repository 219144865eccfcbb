import { describe, expect, it } from 'vitest';
import { escapeHtml, isTrustedHtml, sanitizeTerminalText, trustedHtml } from '../src/safety.js';

describe('trustedHtml / isTrustedHtml', () => {
  it('brands host HTML and exposes it', () => {
    const html = trustedHtml('<b>ok</b>');
    expect(isTrustedHtml(html)).toBe(true);
    expect(html.html).toBe('<b>ok</b>');
    expect(String(html)).toBe('<b>ok</b>');
    expect(Object.isFrozen(html)).toBe(true);
  });

  it('cannot be forged by JSON, spreads, clones or look-alike objects', () => {
    const html = trustedHtml('<b>ok</b>');
    const forged = [
      JSON.parse(JSON.stringify(html)),
      { ...html },
      { html: '<img src=x onerror=alert(1)>' },
      Object.create(Object.getPrototypeOf(html)),
      structuredClone({ html: 'x' }),
      '<b>ok</b>',
      null,
    ];
    for (const candidate of forged) expect(isTrustedHtml(candidate)).toBe(false);
  });

  it('rejects non-strings with a TypeError', () => {
    expect(() => trustedHtml(5 as unknown as string)).toThrow(TypeError);
  });
});

describe('escapeHtml', () => {
  it('converts non-strings defensively', () => {
    expect(escapeHtml(5 as unknown as string)).toBe('5');
    expect(escapeHtml(null as unknown as string)).toBe('');
    expect(escapeHtml(undefined as unknown as string)).toBe('');
    const hostile = {
      toString() {
        throw new Error('no');
      },
    };
    expect(escapeHtml(hostile as unknown as string)).toBe('');
  });

  it('returns the same string when there is nothing to escape', () => {
    const s = 'nothing to escape';
    expect(escapeHtml(s)).toBe(s);
  });
});

describe('sanitizeTerminalText', () => {
  it('handles large inputs dense with escapes', () => {
    const chunk = '\u001b[31mred\u001b[0m\u001b]0;t\u0007\u202e\r';
    const input = chunk.repeat(50_000);
    const out = sanitizeTerminalText(input);
    expect(out).toBe('\u001b[31mred\u001b[0m'.repeat(50_000));
  });

  it('treats a truncated CSI as stripped and keeps the following text', () => {
    expect(sanitizeTerminalText('a\u001b[31')).toBe('a');
    expect(sanitizeTerminalText('a\u001b[31\nb')).toBe('a\nb');
  });

  it('ends DCS/OSC strings at C1 ST as well as ESC \\', () => {
    expect(sanitizeTerminalText('a\u001bPdata\u009cb')).toBe('ab');
    expect(sanitizeTerminalText('a\u001b]8;;u\u009cb')).toBe('ab');
  });

  it('converts non-strings defensively', () => {
    expect(sanitizeTerminalText(undefined as unknown as string)).toBe('');
    expect(sanitizeTerminalText(42 as unknown as string)).toBe('42');
  });
});
