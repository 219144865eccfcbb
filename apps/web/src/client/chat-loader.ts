import type { ComponentType } from 'react';
import type { ChatViewProps } from './chat.tsx';

/**
 * Loads the chat view in steps, each its own task: the AI SDK (after zod's jitless switch), then the renderer kit
 * with markdown, then the view. One big module graph would evaluate in one long task on the first load.
 */
export async function loadChatView(): Promise<{ default: ComponentType<ChatViewProps> }> {
  await import('./jitless.ts');
  await import('./vendor-ai.ts');
  await import('./vendor-kit.ts');
  const { ChatView } = await import('./chat.tsx');
  return { default: ChatView };
}
