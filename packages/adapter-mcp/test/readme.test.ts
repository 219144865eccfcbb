import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@codeagent/providers';
import { expect, it } from 'vitest';
import { FIXTURE } from './helpers.js';
import { McpApprovalStore, mcpServerFingerprint } from '../src/index.js';
import { startable } from './readme-approvals.js';
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

it('the README approvals example is this file, verbatim, and starts only what the user approved', async () => {
  const readme = await readFile(join(import.meta.dirname, '../README.md'), 'utf8');
  const example = await readFile(join(import.meta.dirname, 'readme-approvals.ts'), 'utf8');
  expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  const home = await mkdtemp(join(tmpdir(), 'codeagent-mcp-readme-home-'));
  const work = await mkdtemp(join(tmpdir(), 'codeagent-mcp-readme-work-'));
  await mkdir(join(home, '.codeagent'));
  await writeFile(join(home, '.codeagent', 'mcp.json'), JSON.stringify({ mine: { command: 'x' } }));
  await writeFile(
    join(work, '.mcp.json'),
    JSON.stringify({ theirs: { command: 'y' }, ok: { command: 'z' } }),
  );
  const store = new McpApprovalStore(join(home, '.codeagent', 'mcp-approvals.json'));
  await store.record(work, 'ok', mcpServerFingerprint({ command: 'z' }), 'approved');
  expect(await startable(work, home)).toEqual(['mine', 'ok']);
  await rm(home, { recursive: true, force: true });
  await rm(work, { recursive: true, force: true });
});
