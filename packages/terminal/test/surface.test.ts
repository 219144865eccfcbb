import { describe, expect, test } from 'vitest';

describe('public surface', () => {
  test('root export names are pinned', async () => {
    expect(Object.keys(await import('../src/index.js')).sort()).toEqual([
      'RESET',
      'SUPPORTED_ARTIFACT_KINDS',
      'base64ByteLength',
      'createTerminalRenderer',
      'detectLanguage',
      'enforceStrictOutput',
      'exitPill',
      'findUnsafeTerminalBytes',
      'formatBytes',
      'isSafeTerminalOutput',
      'padEndToWidth',
      'padStartToWidth',
      'renderApproval',
      'renderArtifact',
      'renderToolCall',
      'renderToolCard',
      'renderToolResult',
      'resolveColor',
      'resolveRenderOptions',
      'stripSgr',
      'tokenize',
      'truncateToWidth',
      'visibleWidth',
    ]);
  });
  test('the ./corpus subpath export names are pinned', async () => {
    expect(Object.keys(await import('../src/corpus.js')).sort()).toEqual([
      'findUnsafeTerminalBytes',
      'injectionCorpusPath',
      'isSafeTerminalOutput',
      'loadInjectionCorpus',
    ]);
  });
  test('the package resolves its own ./corpus and ./corpus.json subpaths', async () => {
    const self = await import('@codeagent/terminal/corpus');
    const corpus = self.loadInjectionCorpus();
    expect(corpus.version).toBe(1);
    expect(self.injectionCorpusPath.endsWith('injection-corpus.json')).toBe(true);
    const json = (await import('@codeagent/terminal/corpus.json', { with: { type: 'json' } })) as {
      default: { payloads: unknown[] };
    };
    expect(json.default.payloads).toHaveLength(corpus.payloads.length);
  });
  test('supported kinds are the six v1 kinds', async () => {
    const { SUPPORTED_ARTIFACT_KINDS } = await import('../src/index.js');
    expect([...SUPPORTED_ARTIFACT_KINDS]).toEqual(['text', 'table', 'image', 'code', 'diff', 'error']);
  });
});
