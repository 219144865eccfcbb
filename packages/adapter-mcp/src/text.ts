import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';

/**
 * Text from an MCP server (names, descriptions, titles, error messages) is untrusted: it reaches the model, cards and
 * terminals. Every escape sequence (SGR included), C0/C1 control but `\n` and `\t`, and bidi override/isolate is
 * removed here, once, where the text enters; renderers sanitise again on their side.
 */
export function cleanServerText(text: string): string {
  return sanitizeTerminalText(text, { keepSgr: false });
}

/** {@link cleanServerText}, then cut to `max` characters with an ellipsis. */
export function clipServerText(text: string, max: number): string {
  const clean = cleanServerText(text);
  return clean.length > max ? `${clean.slice(0, Math.max(0, max - 1))}…` : clean;
}

/**
 * Keeps the first and the last halves of `text` within `max` characters and says how much was left out, so a huge
 * result never floods the model's context (the shape of the Bash tool's capped output).
 */
export function capHeadTail(text: string, max: number): string {
  if (text.length <= max) return text;
  const half = Math.floor(max / 2);
  const omitted = text.length - 2 * half;
  return `${text.slice(0, half)}\n… [${omitted} characters omitted] …\n${text.slice(text.length - half)}`;
}
