// Golden NDJSON of what the editor receives for each built-in tool (reviewed against claude-agent-acp's
// toolInfoFromToolUse / toolUpdateFromToolResult; departures in ADR 0151). Regenerate: UPDATE_GOLDEN=1.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { JsonValue, Script } from '@codeagent/providers';
import { describe, expect, it } from 'vitest';
import { type Answer, promptOnce, withEditor, workspace } from './helpers.js';

const DIR = fileURLToPath(new URL('./__fixtures__/golden/', import.meta.url));
const FILES = {
  'src/app.ts': 'export const answer = 42; // TODO: explain\nexport const name = "app";\n',
  'README.md': '# demo\n',
};

interface Case {
  readonly name: string;
  readonly tool: string;
  readonly input: { readonly [key: string]: JsonValue };
  readonly answers?: Answer[];
  readonly terminal?: boolean;
}

const CASES: readonly Case[] = [
  { name: 'read', tool: 'Read', input: { file_path: 'src/app.ts', offset: 1, limit: 1 } },
  {
    name: 'write',
    tool: 'Write',
    input: { file_path: 'notes/new.md', content: 'hello\nworld\n' },
    answers: ['allow_once'],
  },
  {
    name: 'edit',
    tool: 'Edit',
    input: { file_path: 'src/app.ts', old_string: '"app"', new_string: '"demo"' },
    answers: ['allow_once'],
  },
  {
    name: 'bash',
    tool: 'Bash',
    // One write (cat copies the small file at once), so the live updates are the same on every run.
    input: { command: 'cat src/app.ts', description: 'Show the app' },
    answers: ['allow_once'],
  },
  {
    name: 'bash.terminal',
    tool: 'Bash',
    // One write (cat copies the small file at once), so the live updates are the same on every run.
    input: { command: 'cat src/app.ts', description: 'Show the app' },
    answers: ['allow_once'],
    terminal: true,
  },
  {
    name: 'bash.exit-code',
    tool: 'Bash',
    input: { command: 'exit 3' },
    answers: ['allow_once'],
    terminal: true,
  },
  { name: 'glob', tool: 'Glob', input: { pattern: '**/*.ts' } },
  { name: 'grep', tool: 'Grep', input: { pattern: 'TODO', glob: '*.ts' } },
  {
    name: 'todowrite',
    tool: 'TodoWrite',
    input: {
      todos: [
        { content: 'Read the code', status: 'completed', activeForm: 'Reading the code' },
        { content: 'Fix the bug', status: 'in_progress', activeForm: 'Fixing the bug' },
        { content: 'Ship', status: 'pending', activeForm: 'Shipping' },
      ],
    },
  },
  { name: 'denial', tool: 'Bash', input: { command: 'rm -rf build' }, answers: ['reject_once'] },
];

function normalise(value: unknown, cwd: string): unknown {
  const text = JSON.stringify(value).split(cwd).join('/workspace');
  // Glob reports modification times; they are not part of the mapping.
  return JSON.parse(text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g, '<time>')) as unknown;
}

describe('golden ACP updates per built-in tool', () => {
  for (const c of CASES) {
    it(`${c.name}`, async () => {
      const cwd = await workspace(FILES);
      const script: Script = [
        { parts: [{ type: 'tool-call', toolName: c.tool, input: c.input, toolCallId: 'call_1' }] },
        { parts: [{ type: 'text', text: 'Done.' }] },
      ];
      const lines = await withEditor(
        { cwd, script, answers: [...(c.answers ?? [])], terminal: c.terminal ?? false },
        async (ctx, run) => {
          await promptOnce(ctx, cwd, 'go');
          return run.lines
            .map(
              (line) =>
                JSON.parse(line) as { method?: string; params?: { update?: { sessionUpdate?: string } } },
            )
            .filter((m) => {
              if (m.method === 'session/request_permission') return true;
              const u = m.params?.update?.sessionUpdate;
              return u === 'tool_call' || u === 'tool_call_update' || u === 'plan';
            })
            .map((m) => JSON.stringify(normalise(m, cwd)));
        },
      );
      const file = join(DIR, `${c.name}.ndjson`);
      const text = `${lines.join('\n')}\n`;
      if (process.env.UPDATE_GOLDEN === '1' || !existsSync(file)) {
        if (process.env.CI) throw new Error(`golden file ${c.name}.ndjson is missing`);
        await writeFile(file, text);
      }
      expect(text).toBe(await readFile(file, 'utf8'));
    });
  }
});
