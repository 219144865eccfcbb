import { MAX_NAME_LENGTH } from './validate.js';

/** A parsed slash command: the skill name and the raw (trimmed) argument text. */
export interface SlashCommand {
  /** Skill name, a valid skill name by construction. */
  readonly name: string;
  /** Text after the name and its separating whitespace, trimmed; `''` when none. */
  readonly args: string;
}

const SLASH = /^\/([a-z0-9]+(?:-[a-z0-9]+)*)(?:\s+([\s\S]*))?$/;

/**
 * Parses `/name args`. Leading whitespace is allowed; the name must be a valid skill name and be followed
 * by whitespace or the end, so `/usr/bin`, `/Foo`, `//x` and `/a--b` are not commands (`null`).
 */
export function parseSlashCommand(text: string): SlashCommand | null {
  const match = SLASH.exec(text.trimStart());
  if (!match) return null;
  const name = match[1] as string;
  if (name.length > MAX_NAME_LENGTH) return null;
  return { name, args: (match[2] ?? '').trim() };
}
