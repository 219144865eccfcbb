import type { ComponentType } from 'react';
import type { ChatViewProps } from './chat.tsx';

/**
 * Loads the chat view in steps, each its own task: the AI SDK (after zod's jitless switch), the markdown parser,
 * the renderer kit, then the view. One big module graph would evaluate in one long task on the first load.
 */
export async function loadChatView(): Promise<{ default: ComponentType<ChatViewProps> }> {
  await import('./jitless.ts');
  await import('./vendor-ai.ts');
  const { MarkdownParser } = await import('./vendor-markdown.ts');
  if (typeof MarkdownParser !== 'function') throw new Error('the markdown parser did not load');
  await import('./vendor-kit.ts');
  const { ChatView } = await import('./chat.tsx');
  return { default: ChatView };
}
