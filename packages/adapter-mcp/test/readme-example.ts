import { createClient, stream } from '@codeagent/agent-core';
import { attachMcpServers, readMcpConfigFile } from '@codeagent/adapter-mcp';
import type { LanguageModel } from 'ai';

/** Attaches the servers of an `.mcp.json` to a client, runs one turn, and stops the servers. */
export async function askWithMcp(model: LanguageModel, configFile: string, question: string) {
  const client = createClient({ model, ask: async (name) => name.startsWith('mcp__fixture__') });
  const { servers, warnings } = readMcpConfigFile(configFile);
  for (const w of warnings) console.warn(w);
  const mcp = await attachMcpServers(client, servers, { policies: { docs: { trusted: true } } });
  for (const f of mcp.failures) console.warn(`${f.server}: ${f.reason}`);
  try {
    const result = await stream(client, question);
    return { text: result.text, tools: mcp.tools };
  } finally {
    await mcp.close();
  }
}
