import type { FilePart, ImagePart, ModelMessage, TextPart } from 'ai';
/** A content part of user input: text, image or file, as the AI SDK accepts them. */
export type InputPart = TextPart | ImagePart | FilePart;
/** What a turn takes as user input: a string or content parts. */
export type StreamInput = string | readonly InputPart[];
/** Validates user input and turns it into the user message of a turn. */
export declare function toUserMessage(input: StreamInput): ModelMessage;
//# sourceMappingURL=input.d.ts.map