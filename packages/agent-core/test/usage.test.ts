import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createClient, stream, tokenThresholds, warningStateFor } from '../src/index.js';
import { finish, scriptedModel, text, usage } from './helpers.js';

describe('usage and warning state', () => {
  it('derives the levels from the window and the max output', () => {
    const t = tokenThresholds(200_000, 32_000);
    expect(t).toEqual({
      effective: 180_000,
      threshold: 167_000,
      warning: 147_000,
      error: 157_000,
      blocking: 177_000,
    });
    const small = tokenThresholds(100_000, 8_000);
    expect(small.effective).toBe(92_000);
  });

  it('warning and error are distinct levels', () => {
    const t = tokenThresholds(200_000, 32_000);
    expect(warningStateFor(146_999, t)).toMatchObject({ aboveWarning: false, aboveError: false });
    expect(warningStateFor(150_000, t)).toMatchObject({
      aboveWarning: true,
      aboveError: false,
      aboveCompact: false,
    });
    expect(warningStateFor(160_000, t)).toMatchObject({
      aboveWarning: true,
      aboveError: true,
      aboveCompact: false,
    });
    expect(warningStateFor(170_000, t)).toMatchObject({ aboveCompact: true, atBlocking: false });
    expect(warningStateFor(177_000, t)).toMatchObject({ atBlocking: true, percentLeft: 0 });
    expect(warningStateFor(0, t).percentLeft).toBe(100);
  });

  it('levels scale with small windows: positive, ordered, no warning on an empty context (property)', () => {
    // The old fixed margins put the warning of a 32k window below zero: a false alarm on every turn.
    const t = tokenThresholds(32_768, 4_096);
    expect(t).toEqual({
      effective: 28_672,
      threshold: 19_115,
      warning: 14_337,
      error: 16_726,
      blocking: 25_805,
    });
    expect(warningStateFor(1_200, t)).toMatchObject({ aboveWarning: false, percentLeft: 94 });
    fc.assert(
      fc.property(
        fc.integer({ min: 4_096, max: 10_000_000 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        (window, maxOut) => {
          const l = tokenThresholds(window, maxOut);
          expect(0).toBeLessThan(l.warning);
          expect(l.warning).toBeLessThan(l.error);
          expect(l.error).toBeLessThan(l.threshold);
          expect(l.threshold).toBeLessThan(l.blocking);
          expect(l.blocking).toBeLessThan(l.effective);
          expect(l.effective).toBeLessThanOrEqual(window);
          expect(warningStateFor(0, l)).toEqual({
            percentLeft: 100,
            aboveWarning: false,
            aboveError: false,
            aboveCompact: false,
            atBlocking: false,
          });
        },
      ),
      { numRuns: 2_000 },
    );
    // Tiny or nonsense windows never throw and never produce NaN.
    for (const [w, m] of [
      [0, 0],
      [1, 1],
      [100, 4_096],
      [-5, 10],
      [Number.NaN, 1],
    ] as const) {
      const l = tokenThresholds(w, m);
      for (const v of Object.values(l)) expect(Number.isNaN(v)).toBe(false);
    }
  });

  it('levels are monotonic in the token count (property)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 60_000, max: 2_000_000 }),
        fc.integer({ min: 1, max: 200_000 }),
        fc.nat(2_000_000),
        fc.nat(2_000_000),
        (window, maxOut, a, b) => {
          const t = tokenThresholds(window, maxOut);
          const [lo, hi] = a <= b ? [a, b] : [b, a];
          const x = warningStateFor(lo, t);
          const y = warningStateFor(hi, t);
          expect(x.percentLeft).toBeGreaterThanOrEqual(y.percentLeft);
          for (const k of ['aboveWarning', 'aboveError', 'aboveCompact', 'atBlocking'] as const) {
            if (x[k]) expect(y[k]).toBe(true);
          }
          // Each level implies the lower ones.
          if (y.atBlocking) expect(y.aboveCompact).toBe(true);
          if (y.aboveCompact) expect(y.aboveError).toBe(true);
          if (y.aboveError) expect(y.aboveWarning).toBe(true);
        },
      ),
    );
  });

  it('reports usage at turn end: provider tokens, limit, cost', async () => {
    const model = scriptedModel([[...text(['hi']), finish('stop', 'stop', usage(150_000, 1_000))]]);
    const client = createClient({
      model,
      registerTools: false,
      pricing: { inputPerMillion: 3, outputPerMillion: 15 },
    });
    const seen: unknown[] = [];
    const r = await stream(client, 'go', { onUsage: (u) => seen.push(u) });
    expect(seen).toEqual([r.usage]);
    expect(r.usage).toMatchObject({
      nTokens: 151_000,
      modelLimit: 200_000,
      inputTokens: 150_000,
      outputTokens: 1_000,
      warningState: { aboveWarning: true, aboveError: false, aboveCompact: false, atBlocking: false },
    });
    expect(r.usage?.costLast).toBeCloseTo((150_000 * 3 + 1_000 * 15) / 1e6, 10);
  });

  it('client.usage() reports the current context without turn cost', async () => {
    const model = scriptedModel([[...text(['hi']), finish('stop', 'stop', usage(50_000, 10))]]);
    const client = createClient({
      model,
      registerTools: false,
      pricing: { inputPerMillion: 1, outputPerMillion: 1 },
    });
    const r = await stream(client, 'go');
    expect(client.usage()).toEqual({ ...r.usage, costLast: 0, inputTokens: 0, outputTokens: 0 });
  });

  it('costLast is null without pricing, and the structural estimate counts when larger', async () => {
    const model = scriptedModel([[...text(['hi']), finish('stop', 'stop', usage(1, 1))]]);
    const client = createClient({ model, registerTools: false });
    const r = await stream(client, 'x'.repeat(40_000));
    expect(r.usage?.costLast).toBeNull();
    expect(r.usage?.nTokens).toBeGreaterThanOrEqual(10_000);
  });

  it('rejects nonsense sizes', () => {
    const model = scriptedModel([]);
    expect(() => createClient({ model, registerTools: false, contextWindow: 10 })).toThrow(/contextWindow/);
    expect(() => createClient({ model, registerTools: false, maxTurns: 0 })).toThrow(/maxTurns/);
    expect(() =>
      createClient({
        model,
        registerTools: false,
        pricing: { inputPerMillion: Number.NaN, outputPerMillion: 1 },
      }),
    ).toThrow(/pricing/);
  });
});

describe('ticks', () => {
  it('ticks while a turn runs and never after it ends', async () => {
    let ticks = 0;
    let enough!: () => void;
    const threeTicks = new Promise<void>((r) => {
      enough = r;
    });
    const model = scriptedModel([
      () =>
        new ReadableStream({
          async start(c) {
            await threeTicks;
            c.enqueue({ type: 'text-start', id: 't' });
            c.enqueue({ type: 'text-delta', id: 't', delta: 'x' });
            c.enqueue({ type: 'text-end', id: 't' });
            c.enqueue(finish('stop'));
            c.close();
          },
        }),
    ]);
    const client = createClient({ model, registerTools: false, tickIntervalMs: 5 });
    const r = await stream(client, 'go', {
      onTick: () => {
        ticks++;
        if (ticks === 3) enough();
      },
    });
    expect(r.stopReason).toBe('completed');
    const atEnd = ticks;
    expect(atEnd).toBeGreaterThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, 40));
    expect(ticks).toBe(atEnd);
  });
});
