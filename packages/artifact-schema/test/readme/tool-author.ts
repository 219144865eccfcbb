import { normalizeToolOutput, toolResult } from '@codeagent/artifact-schema';

// The first argument is always the portable value: what the model sees and every UI's fallback.
export function summarise(rows: Array<{ group: string; n: number }>) {
  return toolResult(`Summary contains ${rows.length} rows.`, {
    kind: 'table',
    title: 'Grouped summary',
    payload: { df: rows },
  });
}

// Whatever else a tool returns is normalised into the three channels, never throwing.
export const fromText = normalizeToolOutput('done'); // kind 'text'
export const fromRows = normalizeToolOutput([{ file: 'a.ts', lines: 12 }]); // kind 'table'
export const fromBad = normalizeToolOutput({ onDone: () => 1 }); // kind 'error', fixed value
