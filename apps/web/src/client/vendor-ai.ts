// A loading step of the chat view (chat-loader.ts): the AI SDK's UI client, evaluated in a task of its own. The
// chat view takes these names from here only.
export { Chat, useChat } from '@ai-sdk/react';
export { DefaultChatTransport, lastAssistantMessageIsCompleteWithApprovalResponses } from 'ai';
