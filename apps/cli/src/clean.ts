import { sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { enforceStrictOutput } from '@codeagent/terminal';

/**
 * Makes untrusted text (model, tool, file names, errors) safe for the terminal: the contract's sanitiser, then the
 * terminal package's strict backstop, so the CLI writes only plain SGR colours (no colon forms, no bidi marks).
 */
export function clean(text: string): string {
  return enforceStrictOutput(sanitizeTerminalText(text));
}
