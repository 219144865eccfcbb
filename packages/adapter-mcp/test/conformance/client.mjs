// The adapter's Streamable HTTP client path as an MCP conformance client: the runner starts a scenario server and
// runs `node client.mjs <server-url>`. It lists the tools through McpServerConnection and calls each with arguments
// made from its JSON Schema, as an agent would, mapping each result to the three channels.
import { McpServerConnection, mcpResultToToolResult } from '../../dist/index.js';

const url = process.argv.at(-1);
const sample = (schema) => {
  const type = Array.isArray(schema?.type) ? schema.type[0] : schema?.type;
  if (schema && 'default' in schema) return schema.default;
  if (Array.isArray(schema?.enum)) return schema.enum[0];
  if (type === 'number' || type === 'integer') return 2;
  if (type === 'boolean') return true;
  if (type === 'array') return [];
  if (type === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(schema.properties ?? {})) out[k] = sample(v);
    return out;
  }
  return 'x';
};
const connection = new McpServerConnection('conformance', { type: 'http', url }, { timeoutMs: 15_000 });
try {
  for (const tool of await connection.tools()) {
    const raw = await connection.callTool(tool.name, sample(tool.inputSchema) ?? {});
    const result = mcpResultToToolResult(raw, { server: 'conformance', tool: tool.name });
    process.stdout.write(`${tool.name}: ${result.value.slice(0, 200)}\n`);
  }
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
} finally {
  await connection.close();
}
