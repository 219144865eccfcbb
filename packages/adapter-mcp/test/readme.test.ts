import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@codeagent/providers';
import { expect, it } from 'vitest';
import { FIXTURE } from './helpers.js';
import { askWithMcp } from './readme-example.js';

it('the README quick start is this file, verbatim', async () => {
  const readme = await readFile(join(import.meta.dirname, '../README.md'), 'utf8');
  const example = await readFile(join(import.meta.dirname, 'readme-example.ts'), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
});

it('the README quick start runs: a turn calls an MCP tool of a configured server', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'codeagent-mcp-readme-'));
  const config = join(dir, '.mcp.json');
  await writeFile(
    config,
    JSON.stringify({ mcpServers: { fixture: { command: process.execPath, args: [FIXTURE, 'stdio'] } } }),
  );
  const model = scriptedModel([
    { parts: [{ type: 'tool-call', toolName: 'mcp__fixture__echo', input: { text: 'from MCP' } }] },
    (ctx) => ({
      parts: [{ type: 'text', text: `The server said: ${ctx.toolResults[0]?.text ?? 'nothing'}` }],
    }),
  ]);
  const { text, tools } = await askWithMcp(model, config, 'echo something');
  expect(tools).toContain('mcp__fixture__echo');
  expect(text).toBe('The server said: from MCP');
  await rm(dir, { recursive: true, force: true });
}, 30_000);
