import type { CodeagentClient } from '@codeagent/agent-core';
import { clean } from './clean.js';
import { MarkdownStream } from './markdown.js';

/** How many messages a resumed session shows before saying how many earlier ones it left out. */
const SHOWN = 30;

/** One message of the provider-facing history. */
type ModelMessage = CodeagentClient['messages'][number];

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: { type?: unknown; text?: unknown }) =>
      part && (part.type === 'text' || part.type === 'reasoning') && typeof part.text === 'string'
        ? part.text
        : '',
    )
    .filter((t) => t !== '')
    .join('\n');
}

function toolCalls(content: unknown): string[] {
  if (!Array.isArray(content)) return [];
  return content
    .filter((part: { type?: unknown }) => part?.type === 'tool-call')
    .map((part: { toolName?: unknown; input?: unknown }) => {
      const input = part.input as Record<string, unknown> | undefined;
      const hint =
        typeof input?.file_path === 'string'
          ? input.file_path
          : typeof input?.command === 'string'
            ? input.command
            : typeof input?.pattern === 'string'
              ? input.pattern
              : '';
      const short = hint.split('\n')[0]?.slice(0, 80) ?? '';
      return `${String(part.toolName)}${short ? ` ${short}` : ''}`;
    });
}

/**
 * The earlier conversation of a resumed session, as lines for the terminal: user prompts, the model's text, and one
 * line per tool call; every string sanitised; with a `width` (a terminal) the model's text is drawn as Markdown. Only the last {@link SHOWN} messages, with a count of the rest.
 */
export function renderHistory(
  messages: readonly ModelMessage[],
  color: boolean,
  width: number | undefined = undefined,
): string[] {
  const dim = (s: string) => (color ? `\u001b[2m${s}\u001b[0m` : s);
  const lines: string[] = [];
  const start = Math.max(0, messages.length - SHOWN);
  if (start > 0) lines.push(dim(`… ${start} earlier message(s)`));
  for (const message of messages.slice(start)) {
    switch (message.role) {
      case 'user': {
        const text = textOf(message.content).trim();
        if (text !== '')
          lines.push(`${color ? '\u001b[1;36m›\u001b[0m' : '›'} ${clean(text).split('\n').join('\n  ')}`);
        break;
      }
      case 'assistant': {
        const text = textOf(message.content).trim();
        if (text !== '') {
          // On a terminal the model's Markdown is drawn as it was in the session (wrapped at word boundaries).
          if (width === undefined) lines.push(clean(text));
          else {
            const md = new MarkdownStream({ color, width: () => width });
            lines.push((md.push(clean(text)) + md.flush()).replace(/\n+$/u, ''));
          }
        }
        for (const call of toolCalls(message.content)) lines.push(dim(`  ⏺ ${clean(call)}`));
        break;
      }
      case 'tool':
      case 'system':
        break;
      default: {
        const never: never = message;
        throw new Error(`unreachable role ${JSON.stringify(never)}`);
      }
    }
  }
  return lines;
}
