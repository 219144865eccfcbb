import type { McpServerConnection } from './connection.js';
import { mcpToolName } from './names.js';

/** An MCP prompt offered as a slash command (`/mcp__<server>__<prompt> args`), listed beside skills. */
export interface McpSlashCommand {
  /** The command name, without the slash: `mcp__<server>__<prompt>`. */
  readonly name: string;
  /** What it does (cleaned server text). */
  readonly description: string;
  /** An argument hint built from the prompt's arguments, e.g. `<owner> <repo> [branch]`. */
  readonly argumentHint: string;
  /** Expands the command with its raw argument text into the prompt text for the model. */
  expand(args: string): Promise<string>;
}

/**
 * The prompts of the connected servers as slash commands. Arguments are given positionally, split on whitespace, in
 * the order the server lists them; the last one takes the rest of the line. A server that fails to list is skipped.
 */
export async function mcpSlashCommands(
  connections: readonly McpServerConnection[],
): Promise<McpSlashCommand[]> {
  const out: McpSlashCommand[] = [];
  for (const connection of connections) {
    let prompts: Awaited<ReturnType<McpServerConnection['prompts']>>;
    try {
      prompts = await connection.prompts();
    } catch {
      continue;
    }
    for (const prompt of prompts) {
      out.push({
        name: mcpToolName(connection.name, prompt.name),
        description: prompt.description,
        argumentHint: prompt.arguments.map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' '),
        expand: (args: string) => {
          const words = args.trim() === '' ? [] : args.trim().split(/\s+/);
          const values: Record<string, string> = {};
          prompt.arguments.forEach((a, i) => {
            const last = i === prompt.arguments.length - 1;
            const value = last ? words.slice(i).join(' ') : words[i];
            if (value !== undefined && value !== '') values[a.name] = value;
          });
          return connection.getPrompt(prompt.name, values);
        },
      });
    }
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
