// A loading step of the chat view (chat-loader.ts): the renderer kit with markdown and the virtualiser, evaluated
// in a task of its own. The chat view and the transcript take these names from here only.
export {
  ApprovalPrompt,
  Markdown,
  setHighlighter,
  ToolCallCard,
  ToolResultView,
  workerHighlighter,
} from '@codeagent/react';
export { measureElement, useVirtualizer, type Virtualizer } from '@tanstack/react-virtual';
