import { toolResultArtifact, toolResultValue } from '@codeagent/artifact-schema';
import { escapeHtml } from '@codeagent/artifact-schema/safety';

// Works on a ToolResult, a stream event or a bare artifact; untrusted data is escaped once, here.
export function renderResult(eventOrResult: unknown): string {
  const fallback = `<pre>${escapeHtml(toolResultValue(eventOrResult))}</pre>`;
  const artifact = toolResultArtifact(eventOrResult); // null: missing, malformed or not v1
  if (artifact === null || Array.isArray(artifact.payload)) return fallback;
  const { text, message } = artifact.payload;
  if (artifact.kind === 'text' && typeof text === 'string') return `<p>${escapeHtml(text)}</p>`;
  if (artifact.kind === 'error' && typeof message === 'string') {
    return `<p class="${artifact.status}">${escapeHtml(message)}</p>`;
  }
  return fallback; // unknown kinds and combinations this UI does not support
}
