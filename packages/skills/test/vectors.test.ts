import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseSlashCommand, substituteArguments } from '../src/index.js';

// Conformance vectors are data, shared with other implementations (see each file's "source").
function load<T>(file: string): { source: string; vectors: T[] } {
  return JSON.parse(readFileSync(join(import.meta.dirname, '..', 'vectors', file), 'utf8'));
}

const slash = load<{ id: string; input: string; expected: { name: string; args: string } | null }>(
  'slash-commands.json',
);
const args = load<{ id: string; body: string; args: string; expected: string }>('arguments.json');

describe(`slash-command vectors (${slash.source})`, () => {
  it.each(slash.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    expect(parseSlashCommand(v.input)).toEqual(v.expected);
  });
});

describe(`argument vectors (${args.source})`, () => {
  it.each(args.vectors.map((v) => [v.id, v] as const))('%s', (_id, v) => {
    expect(substituteArguments(v.body, v.args)).toBe(v.expected);
  });
});
