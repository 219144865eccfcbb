/** Prefix of every MCP tool name, as in Claude Code's settings (`mcp__<server>__<tool>`), so its rules carry over. */
export const MCP_TOOL_PREFIX = 'mcp__';

const SAFE = /[^A-Za-z0-9_-]/g;
const MAX_TOOL_NAME = 64;

/** A server or tool name as a name segment: letters, digits, `_` and `-`; anything else becomes `_`. */
export function nameSegment(name: string): string {
  const safe = name.replace(SAFE, '_');
  return safe === '' ? '_' : safe;
}

function fnv(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return (h >>> 0).toString(36).padStart(7, '0');
}

/**
 * The agent tool name of an MCP tool: `mcp__<server>__<tool>`, each segment made of `[A-Za-z0-9_-]`. A name over the
 * 64 characters models accept is cut and ends with a hash of the full name, so distinct tools stay distinct.
 */
export function mcpToolName(server: string, tool: string): string {
  const full = `${MCP_TOOL_PREFIX}${nameSegment(server)}__${nameSegment(tool)}`;
  if (full.length <= MAX_TOOL_NAME) return full;
  const hash = fnv(`${server}\u0000${tool}`);
  return `${full.slice(0, MAX_TOOL_NAME - hash.length - 1)}_${hash}`;
}
