// A loading step of the chat view (chat-loader.ts): the markdown parser (react-markdown, micromark, unified), the
// largest part of the renderer kit, evaluated in a task of its own before the kit that uses it.
export { default as MarkdownParser } from 'react-markdown';
