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
// The auth scenarios pass their credentials in MCP_CONFORMANCE_CONTEXT; client-credentials ones need no person.
const context = JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT ?? '{}');
const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? '';
const oauth = {
  // A URL-based client id, used where the authorization server supports client ID metadata documents.
  clientMetadataUrl: 'https://conformance-test.local/client-metadata.json',
  ...(context.client_id ? { clientId: context.client_id } : {}),
  ...(context.client_secret ? { clientSecret: context.client_secret } : {}),
  ...(context.private_key_pem ? { privateKeyPem: context.private_key_pem } : {}),
  ...(context.signing_algorithm ? { signingAlgorithm: context.signing_algorithm } : {}),
  ...(scenario.startsWith('auth/client-credentials') ? { grant: 'client_credentials' } : {}),
};
// Tokens in memory; the "user" is a user agent that follows the authorization server's redirect back to us.
const records = new Map();
const signIn = {
  store: { read: async (k) => records.get(k), write: async (k, r) => void records.set(k, r) },
  redirectUrl: 'http://127.0.0.1:9/callback',
  authorize: async ({ url }) => {
    const response = await fetch(url, { redirect: 'manual' });
    const location = response.headers.get('location');
    const code = location ? new URL(location).searchParams.get('code') : null;
    if (!code) throw new Error(`the authorization server sent no code (${response.status})`);
    return code;
  },
};
const connection = new McpServerConnection(
  'conformance',
  { type: 'http', url, oauth },
  // A user who accepts every form as it comes: the schema's defaults fill it (SEP-1034).
  { timeoutMs: 15_000, oauth: signIn, elicit: async () => ({ action: 'accept', content: {} }) },
);
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
