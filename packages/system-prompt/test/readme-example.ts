import { createSystemPrompt, displaySafe } from '@codeagent/system-prompt';

/** What a host does once per session: build the system prompt and tell the user what went into it. */
export async function systemFor(cwd: string, toolNames: readonly string[]) {
  const prompt = await createSystemPrompt({
    cwd, // instruction files are read from the repository root down to here
    tools: toolNames, // conventions are given for the built-in tools offered
    append: 'Answer in British English.', // what --append-system-prompt adds
  });
  for (const warning of prompt.warnings) console.warn(displaySafe(warning)); // skipped or cut files
  const files = prompt.instructions.map((file) => displaySafe(file.label));
  console.log(`system prompt ${prompt.bytes} bytes, instructions: ${files.join(', ') || 'none'}`);
  return prompt.text; // hand it to createClient({ system }) from @codeagent/agent-core
}
