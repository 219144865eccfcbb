import type { ContentBlock } from '@agentclientprotocol/sdk';
import type { InputPart } from '@codeagent/agent-core';
import { assertNever } from '@codeagent/render-intent';

/** A prompt the adapter cannot turn into model input (audio, which it does not advertise). */
export class PromptContentError extends Error {
  override readonly name = 'PromptContentError';
}

function escapeAttribute(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/**
 * Turns an ACP prompt into agent-core input parts: text as is, images as image parts, a resource link as a
 * `[@name](uri)` mention, an embedded text resource as a `<context ref="uri">` block, an embedded blob as a
 * file part. Adjacent text is joined so a leading `/skill args` stays a slash command.
 */
export function promptToInput(blocks: readonly ContentBlock[]): InputPart[] {
  const parts: InputPart[] = [];
  const pushText = (text: string) => {
    const last = parts[parts.length - 1];
    if (last?.type === 'text') parts[parts.length - 1] = { type: 'text', text: `${last.text}\n${text}` };
    else parts.push({ type: 'text', text });
  };
  for (const block of blocks) {
    switch (block.type) {
      case 'text':
        pushText(block.text);
        break;
      case 'image':
        parts.push({ type: 'image', image: block.data, mediaType: block.mimeType });
        break;
      case 'resource_link':
        pushText(`[@${block.name}](${block.uri})`);
        break;
      case 'resource': {
        const r = block.resource;
        if ('text' in r) {
          pushText(`<context ref="${escapeAttribute(r.uri)}">\n${r.text}\n</context>`);
        } else {
          parts.push({
            type: 'file',
            data: r.blob,
            mediaType: r.mimeType ?? 'application/octet-stream',
            filename: r.uri,
          });
        }
        break;
      }
      case 'audio':
        throw new PromptContentError('audio prompts are not supported (promptCapabilities.audio is false)');
      default:
        return assertNever(block, 'adapter-acp prompt block');
    }
  }
  if (parts.length === 0) throw new PromptContentError('the prompt is empty');
  return parts;
}
