import { renderToStaticMarkup } from 'react-dom/server';
import { expect, it } from 'vitest';
// README quick start, verbatim from here to the marker.
import { toolResult } from '@codeagent/artifact-schema';
import { ApprovalPrompt, Markdown, ToolCallCard, ToolResultView } from '@codeagent/react';
import '@codeagent/react/styles.css';

const result = toolResult('2 rows', {
  kind: 'table',
  payload: {
    df: [
      { name: 'Ada', age: 36 },
      { name: 'Lin', age: 28 },
    ],
  },
});

export function Turn({ onDecision }: { onDecision: (d: 'allow_once' | 'allow_always' | 'deny') => void }) {
  return (
    <div data-theme="dark">
      <Markdown text="Here are the **users**:" />
      <ToolCallCard view={{ card: 'generic', title: 'Query users', kind: 'read' }} status="done">
        <ToolResultView result={result} />
      </ToolCallCard>
      <ApprovalPrompt
        view={{ card: 'terminal', title: 'rm -rf build', cwd: '/repo' }}
        toolName="Bash"
        onDecision={onDecision}
      />
    </div>
  );
}
// end of quick start

it('the README quick start renders', () => {
  const html = renderToStaticMarkup(<Turn onDecision={() => {}} />);
  expect(html).toContain('<strong>users</strong>');
  expect(html).toContain('<td>Ada</td><td>36</td>');
  expect(html).toContain('Allow once');
});
