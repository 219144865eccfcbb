#!/usr/bin/env node
// The TypeScript reference host: @codeagent/artifact-schema (and @codeagent/terminal's renderer) behind the kit's NDJSON protocol, so the same runner
// that tests a Python or R host tests the package itself over a real process boundary.
import { createInterface } from 'node:readline';
import {
  adaptToolResult,
  normalizeToolOutput,
  toolResult,
  toolResultArtifact,
  toolResultValue,
} from '@codeagent/artifact-schema';
import { escapeHtml, sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { createPermissionGate } from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import { parseSlashCommand, substituteArguments } from '@codeagent/skills';
import { renderArtifact } from '@codeagent/terminal';

// The terminal renderer under the renderer suite: coloured, 80 columns.
const renderTerminal = (result) => renderArtifact(result, { color: true, width: 80 });
// Permission decisions with the same bash grammar a real host loads.
await loadInstalledShellGrammar();
const evaluatePermission = (options, name, input) => {
  const { decision, capability, source } = createPermissionGate(options).evaluate(name, input);
  return { decision, capability, source };
};
const ops = {
  renderTerminal,
  evaluatePermission,
  substituteArguments,
  parseSlashCommand,
  toolResultArtifact,
  toolResultValue,
  toolResult,
  adaptToolResult,
  normalizeToolOutput,
  escapeHtml,
  sanitizeTerminalText,
};
const write = (o) => process.stdout.write(`${JSON.stringify(o)}\n`);
write({
  type: 'hello',
  protocol: 'codeagent.conformance/1',
  name: 'typescript reference host',
  ops: Object.keys(ops),
});
for await (const line of createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY })) {
  if (line.trim() === '') continue;
  let request;
  try {
    request = JSON.parse(line);
  } catch {
    write({ id: null, ok: false, error: { name: 'ProtocolError', message: 'not JSON' } });
    continue;
  }
  const fn = ops[request.op];
  if (!fn || !Array.isArray(request.args)) {
    write({ id: request.id, ok: false, error: { name: 'Unsupported', message: `unknown op ${request.op}` } });
    continue;
  }
  try {
    write({ id: request.id, ok: true, result: fn(...request.args) ?? null });
  } catch (error) {
    write({
      id: request.id,
      ok: false,
      error: {
        name: error instanceof TypeError ? 'TypeError' : error.name,
        code: error.code,
        message: error.message,
      },
    });
  }
}
