import { describe, expect, test } from 'vitest';
import { findUnsafeTerminalBytes, isSafeTerminalOutput, loadInjectionCorpus } from '../src/corpus.js';
import { stripSgr } from '../src/index.js';
import { CONTEXTS } from './contexts.js';
import { expectNoBleed } from './helpers.js';

const corpus = loadInjectionCorpus();

describe('injection corpus file', () => {
  test('has at least 50 payloads with unique ids, covering every family the issue names', () => {
    expect(corpus.payloads.length).toBeGreaterThanOrEqual(50);
    expect(new Set(corpus.payloads.map((p) => p.id)).size).toBe(corpus.payloads.length);
    const categories = new Set(corpus.payloads.map((p) => p.category));
    for (const c of ['csi', 'osc', 'dcs', 'apc', 'pm', 'sos', 'c1', 'bidi', 'c0', 'truncated', 'sgr']) {
      expect(categories).toContain(c);
    }
    const all = corpus.payloads.map((p) => p.payload).join('');
    for (const needle of [
      '\u001b]0;',
      '\u001b]2;',
      '\u001b]8;',
      '\u001b]52;',
      '\u009b',
      '\u009d',
      '\u202e',
      '\u2067',
      '\u0000',
      '\b',
      '\r',
    ]) {
      expect(all).toContain(needle);
    }
  });
  test('payloads are really adversarial: all but plain SGR and inert text fail the checker as given', () => {
    const inert = new Set(['html-xss']);
    for (const p of corpus.payloads) {
      if (p.category === 'sgr' && p.id !== 'sgr-mixed-with-osc') continue;
      if (inert.has(p.id)) continue;
      expect(isSafeTerminalOutput(p.payload), p.id).toBe(false);
    }
  });
});

describe.each([true, false])('every payload in every context (color=%s)', (color) => {
  for (const ctx of CONTEXTS) {
    test(ctx.name, () => {
      for (const p of corpus.payloads) {
        const out = ctx.render(p.payload, { color, width: 60 });
        const found = findUnsafeTerminalBytes(out);
        expect(found, `${p.id} in ${ctx.name}: ${JSON.stringify(found)}`).toEqual([]);
        if (!color) expect(out.includes('\u001b'), `${p.id}: escape with colour off`).toBe(false);
        else expectNoBleed(out);
        if (ctx.full) {
          for (const keep of p.keep) {
            if (keep.includes('\u001b')) {
              // Colours the tool wrote survive, in every context that shows the whole text.
              if (color) expect(out, `${p.id} keeps its SGR in ${ctx.name}`).toContain(keep);
              continue;
            }
            expect(stripSgr(out), `${p.id} keeps ${JSON.stringify(keep)} in ${ctx.name}`).toContain(keep);
          }
        }
      }
    });
  }
});
