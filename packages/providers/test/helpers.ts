import type {
  LanguageModelV3,
  LanguageModelV3CallOptions,
  LanguageModelV3Prompt,
  LanguageModelV3StreamPart,
} from '@ai-sdk/provider';
import { jsonSchema, type Tool, tool } from 'ai';

/** A minimal user prompt. */
export function userPrompt(text: string): LanguageModelV3Prompt {
  return [{ role: 'user', content: [{ type: 'text', text }] }];
}

/** Call options with a prompt and nothing else. */
export function callOptions(prompt: LanguageModelV3Prompt = userPrompt('hi')): LanguageModelV3CallOptions {
  return { prompt };
}

/** Reads every part of a V3 stream. */
export async function readAll(
  stream: ReadableStream<LanguageModelV3StreamPart>,
): Promise<LanguageModelV3StreamPart[]> {
  const parts: LanguageModelV3StreamPart[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return parts;
    parts.push(value);
  }
}

/** Runs one doStream call and collects its parts. */
export async function streamOnce(model: LanguageModelV3, options = callOptions()) {
  const result = await model.doStream(options);
  return readAll(result.stream);
}

/** Replaces Error values by their message so parts compare structurally. */
export function comparable(parts: readonly LanguageModelV3StreamPart[]): unknown[] {
  return parts.map((part) => (part.type === 'error' ? { type: 'error', message: String(part.error) } : part));
}

/** A tool with a permissive JSON schema whose execute function is given. */
export function looseTool(execute: (input: Record<string, unknown>) => unknown): Tool {
  return tool({
    inputSchema: jsonSchema<Record<string, unknown>>({ type: 'object', additionalProperties: true }),
    execute: async (input: Record<string, unknown>) => execute(input),
  });
}
