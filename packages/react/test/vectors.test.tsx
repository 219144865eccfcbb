import type { ToolArtifact } from '@codeagent/artifact-schema';
import { isThrowingVector, vectorGroups } from '@codeagent/artifact-schema/vectors';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { defaultRenderers, ToolResultView } from '../src/index.ts';

// The artifact protocol's own accessor vectors, rendered: the view picks a renderer exactly when the accessor
// returns an artifact of a kind it knows, and shows the portable value otherwise.
describe('ToolResultView on the artifact-schema accessor vectors', () => {
  const cases = vectorGroups.accessor.filter((v) => !isThrowingVector(v));
  it('has vectors to run', () => expect(cases.length).toBeGreaterThan(20));
  for (const vector of cases) {
    if (isThrowingVector(vector)) continue;
    it(vector.id, () => {
      const [input, options] = vector.args as [unknown, { version?: number | number[] | null } | undefined];
      const html = renderToStaticMarkup(<ToolResultView result={input} versions={options?.version} />);
      const expected = vector.expected as ToolArtifact | null;
      if (expected === null || !Object.hasOwn(defaultRenderers, expected.kind)) {
        expect(html).toMatch(/^<div class="ca-result ca-result-fallback">/);
      } else {
        expect(html).toContain(`data-kind="${expected.kind}"`);
        expect(html).toContain(`data-status="${expected.status}"`);
      }
    });
  }
});
