import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { serveHighlighter } from './highlight.ts';
import { highlightCode, setHighlighter, workerHighlighter } from './highlighter.ts';

const channels: MessageChannel[] = [];
afterEach(() => {
  setHighlighter(null);
  for (const c of channels.splice(0)) {
    c.port1.close();
    c.port2.close();
  }
});

/** A real message channel: the page's side and the worker's side exchange structured clones. */
function channel() {
  const c = new MessageChannel();
  channels.push(c);
  return c;
}

describe('highlighting in a worker', () => {
  it('round-trips a request through serveHighlighter and answers with shiki tokens', async () => {
    const { port1, port2 } = channel();
    serveHighlighter(port2 as never);
    const highlight = workerHighlighter(port1 as never);
    setHighlighter(highlight);
    const lines = await highlightCode('const x: number = 1;\nexport { x };', 'typescript', () => true);
    expect(lines).toHaveLength(2);
    expect(lines?.[0]?.map((t) => t.content).join('')).toBe('const x: number = 1;');
    expect(lines?.[0]?.some((t) => typeof t.style['--shiki-dark'] === 'string')).toBe(true);
  }, 30_000);

  it('rejects when the worker has no grammar or answers garbage; stray messages are ignored', async () => {
    const { port1, port2 } = channel();
    serveHighlighter(port2 as never);
    const highlight = workerHighlighter(port1 as never);
    await expect(highlight('x', 'cobol')).rejects.toThrow(/no tokens/);
    // A hostile or broken worker: lines that are not token lines.
    const bad = channel();
    bad.port2.on('message', (m: { id: number }) => {
      bad.port2.postMessage({ id: m.id + 1000, lines: [] });
      bad.port2.postMessage({ id: m.id, lines: [[{ content: 1, style: {} }]] });
    });
    await expect(workerHighlighter(bad.port1 as never)('x', 'typescript')).rejects.toThrow(/no tokens/);
  }, 30_000);

  it('on the page, a block that left before its turn is never tokenised', async () => {
    expect(await highlightCode('const a = 1;', 'typescript', () => false)).toBeNull();
    const lines = await highlightCode('const a = 1;', 'typescript', () => true);
    expect(lines?.[0]?.map((t) => t.content).join('')).toBe('const a = 1;');
  }, 30_000);
});
