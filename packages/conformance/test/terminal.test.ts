import { renderArtifact } from '@codeagent/terminal';
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { formatReport, runTerminalRendererSuite, startHost, terminalRendererCases } from '../src/index.js';
import { recordReport } from './report-file.js';

describe('the terminal renderer suite', () => {
  it('has every corpus payload in every placement, plus fallbacks and robustness cases, with unique ids', () => {
    const cases = terminalRendererCases();
    expect(new Set(cases.map((c) => c.id)).size).toBe(cases.length);
    expect(cases.filter((c) => c.id.startsWith('terminal/injection/')).length).toBeGreaterThanOrEqual(700);
    expect(cases.filter((c) => c.id.startsWith('terminal/fallback/')).length).toBe(8);
  });

  it('@codeagent/terminal passes, coloured and plain', async () => {
    for (const color of [true, false]) {
      const report = await runTerminalRendererSuite(`@codeagent/terminal (color ${color})`, (x) =>
        renderArtifact(x, { color, width: 80 }),
      );
      recordReport(report, 'in process');
      expect(report.ok, formatReport(report)).toBe(true);
    }
  }, 120_000);

  it('a renderer that writes raw text, or drops the fallback, is caught with the case and the rule', async () => {
    const raw = await runTerminalRendererSuite(
      'raw renderer',
      (x) => String((x as { value?: string })?.value ?? ''),
      {
        only: ['terminal/injection/value/', 'terminal/fallback/'],
      },
    );
    expect(raw.ok).toBe(false);
    expect(formatReport(raw)).toMatch(
      /FAIL terminal\/injection\/value\/osc52[^\n]*\[CONTRACTS §1 Trust boundary \(terminal text\)[^\n]*\n\s+unsafe output: non-sgr-escape/,
    );
    const noFallback = await runTerminalRendererSuite('no fallback', () => '', {
      only: ['terminal/fallback/'],
    });
    expect(noFallback.counts.fail).toBe(8);
    expect(formatReport(noFallback)).toMatch(/visible text lost: "the portable value"/);
    const thrower = await runTerminalRendererSuite(
      'thrower',
      () => {
        throw new Error('boom');
      },
      { only: ['terminal/robust/'] },
    );
    expect(formatReport(thrower)).toMatch(/the renderer threw: boom/);
  });
});

describe('the terminal renderer suite over NDJSON', () => {
  it('a host renders every case that JSON can carry; the rest are listed as not applicable', async () => {
    const host = await startHost(
      `${process.execPath} ${join(import.meta.dirname, '..', 'hosts', 'typescript', 'host.mjs')}`,
      {
        timeoutMs: 30_000,
      },
    );
    const report = await runTerminalRendererSuite(host.name, host);
    await host.close();
    recordReport(report, 'NDJSON (TypeScript host)');
    expect(report.ok, formatReport(report)).toBe(true);
    // A cycle and a getter cannot be written as JSON; 10,000 levels can (the kit's wire serialiser does not recurse).
    expect(report.results.filter((r) => r.outcome === 'not-applicable').map((r) => r.id)).toEqual([
      'terminal/robust/cycle',
      'terminal/robust/throwing-getter',
    ]);
  }, 120_000);
});
