import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { RegexMatcher, scanText } from '../src/matcher.js';

describe('scanText', () => {
  it('equals a naive split-and-test over lines (property)', () => {
    const line = fc.string({ unit: fc.constantFrom('a', 'b', 'x', ' ', '\r', '😀', 'é'), maxLength: 12 });
    fc.assert(
      fc.property(
        fc.array(line, { maxLength: 12 }),
        fc.constantFrom('a', '^b', 'x$', 'a.b', '\\s', '^$', 'é'),
        (lines, source) => {
          const text = lines.join('\n');
          const naive = text
            .split('\n')
            .map((l, i) => ({ l: l.endsWith('\r') ? l.slice(0, -1) : l, i }))
            .filter(({ l }) => new RegExp(source, 'u').test(l))
            .map(({ l, i }) => ({ line: i + 1, text: l, more: 0 }));
          expect(scanText(text, source, 'u', true, 1000, 1000)).toEqual(naive);
          expect(scanText(text, source, 'u', false, 1000, 1000)).toEqual(naive);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('stops after enough hits and cuts long lines outside surrogate pairs', () => {
    expect(scanText('a\na\na', 'a', '', true, 2, 10).map((h) => h.line)).toEqual([1, 2]);
    expect(scanText(`a${'😀'.repeat(3)}`, 'a', '', true, 5, 2)).toEqual([{ line: 1, text: 'a', more: 6 }]);
  });
});

describe('RegexMatcher', () => {
  it('matches batches in a worker and keeps their order', async () => {
    const m = new RegexMatcher(/o/u, { timeoutMs: 10_000, maxLineLength: 100 });
    const enc = (s: string) => new TextEncoder().encode(s);
    try {
      const out = await m.match([
        { bytes: enc('one\ntwo'), stopAfter: 10 },
        { bytes: enc('zzz'), stopAfter: 10 },
        { bytes: enc('boo'), stopAfter: 10 },
      ]);
      expect(out).toEqual([
        [
          { line: 1, text: 'one', more: 0 },
          { line: 2, text: 'two', more: 0 },
        ],
        [],
        [{ line: 1, text: 'boo', more: 0 }],
      ]);
      expect(await m.match([])).toEqual([]);
    } finally {
      m.close();
      m.close();
    }
  });
});

describe('worker source', () => {
  it('runs when the host process is an ES module (no require in scope)', async () => {
    const { execFileSync } = await import('node:child_process');
    const { WORKER_SOURCE } = await import('../src/matcher.js');
    const script = `
      import { Worker } from 'node:worker_threads';
      const w = new Worker(process.env.SRC, { eval: true });
      w.on('message', (m) => { console.log(JSON.stringify(m)); w.terminate(); });
      w.on('error', (e) => { console.log('ERR ' + e.message); process.exit(1); });
      w.postMessage({ id: 7, source: 'b', flags: '', prefilter: true, maxLineLength: 10, maxFileBytes: 100, files: [{ bytes: new TextEncoder().encode('a\\nb'), stopAfter: 5 }, { path: process.env.FILE, stopAfter: 5 }] });
    `;
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
      env: { ...process.env, SRC: WORKER_SOURCE, FILE: new URL(import.meta.url).pathname },
      encoding: 'utf8',
    });
    // The second file is this test file: larger than maxFileBytes, so no hits.
    expect(JSON.parse(out)).toEqual({ id: 7, results: [[{ line: 2, text: 'b', more: 0 }], []] });
  });
});

describe('loadFileSync (worker-side reads)', () => {
  it('reads regular text files and refuses binary, oversized, missing and non-regular ones', async () => {
    const fs = await import('node:fs');
    const { execFileSync } = await import('node:child_process');
    const { loadFileSync } = await import('../src/matcher.js');
    const { looksBinary } = await import('../src/text.js');
    const dir = fs.mkdtempSync('/tmp/load-');
    try {
      fs.writeFileSync(`${dir}/t.txt`, 'hello');
      fs.writeFileSync(`${dir}/b.bin`, Buffer.from([1, 0, 2]));
      execFileSync('mkfifo', [`${dir}/fifo`]);
      expect(Buffer.from(loadFileSync(fs, `${dir}/t.txt`, 100, looksBinary)!).toString()).toBe('hello');
      expect(loadFileSync(fs, `${dir}/t.txt`, 3, looksBinary)).toBeNull();
      expect(loadFileSync(fs, `${dir}/b.bin`, 100, looksBinary)).toBeNull();
      expect(loadFileSync(fs, `${dir}/missing`, 100, looksBinary)).toBeNull();
      expect(loadFileSync(fs, `${dir}/fifo`, 100, looksBinary)).toBeNull();
      expect(loadFileSync(fs, dir, 100, looksBinary)).toBeNull();
      fs.symlinkSync(`${dir}/t.txt`, `${dir}/link`);
      expect(loadFileSync(fs, `${dir}/link`, 100, looksBinary)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
