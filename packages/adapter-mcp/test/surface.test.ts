import { expect, it } from 'vitest';
import * as mcp from '../src/index.js';

it('pins the public export names and constants', () => {
  expect(Object.keys(mcp).sort()).toEqual([
    'DEFAULT_MAX_VALUE_CHARS',
    'MCP_POLICY_KEYS',
    'MCP_TOOL_PREFIX',
    'McpAdapterError',
    'McpApprovalStore',
    'McpFileOAuthStore',
    'McpServerConnection',
    'PROJECT_MCP_FILE',
    'attachMcpServers',
    'collectMcpServers',
    'findProjectMcpFile',
    'mcpAgentTools',
    'mcpResultToToolResult',
    'mcpServerFingerprint',
    'mcpSlashCommands',
    'mcpSourcePolicy',
    'mcpToolCapability',
    'mcpToolName',
    'parseMcpConfig',
    'readMcpConfigFile',
  ]);
  expect([mcp.MCP_TOOL_PREFIX, mcp.DEFAULT_MAX_VALUE_CHARS, mcp.PROJECT_MCP_FILE]).toEqual([
    'mcp__',
    30_000,
    '.mcp.json',
  ]);
});

it('tool names follow mcp__<server>__<tool> within 64 safe characters, distinct when cut', () => {
  expect(mcp.mcpToolName('github', 'create_issue')).toBe('mcp__github__create_issue');
  expect(mcp.mcpToolName('my.server', 'a/b c')).toBe('mcp__my_server__a_b_c');
  const a = mcp.mcpToolName('s', `${'x'.repeat(80)}1`);
  const b = mcp.mcpToolName('s', `${'x'.repeat(80)}2`);
  expect(a).toHaveLength(64);
  expect(a).not.toBe(b);
  expect(a).toMatch(/^[A-Za-z0-9_-]+$/);
});
