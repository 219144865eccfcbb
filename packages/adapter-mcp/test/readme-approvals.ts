import { collectMcpServers, McpApprovalStore } from '@codeagent/adapter-mcp';

/** The servers a host may start now: explicit and user ones, and the project's the user approved. */
export async function startable(cwd: string, home: string) {
  const found = collectMcpServers({ cwd, userFile: `${home}/.codeagent/mcp.json` });
  const store = new McpApprovalStore(`${home}/.codeagent/mcp-approvals.json`);
  const out = [];
  for (const s of found.servers) {
    const approved =
      found.workspace !== null &&
      (await store.decision(found.workspace, s.name, s.fingerprint)) === 'approved';
    if (s.scope !== 'project' || approved) out.push(s.name);
  }
  return out;
}
