#!/usr/bin/env node
// The TypeScript reference host: @codeagent/artifact-schema, render-intent, terminal, permission-gate, skills and
// adapter-acp's mapping and agent-core's stop reasons behind the kit's NDJSON protocol, so the same runner that tests a Python or R host tests the
// packages themselves over a real process boundary.
import { createInterface } from 'node:readline';
import {
  adaptToolResult,
  normalizeToolOutput,
  toolResult,
  toolResultArtifact,
  toolResultValue,
} from '@codeagent/artifact-schema';
import { escapeHtml, sanitizeTerminalText } from '@codeagent/artifact-schema/safety';
import { acpStopReason, toolCallNotice, toolResultNotices } from '@codeagent/adapter-acp';
import { mapStopReason } from '@codeagent/agent-core';
import { grantSessionOp, presentSessionOp } from '@codeagent/conformance';
import { createPermissionGate } from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import { parseSlashCommand, substituteArguments } from '@codeagent/skills';
import { createBuiltinPresenters, createToolPresenter, terminalFallbackText } from '@codeagent/render-intent';
import { renderArtifact, renderToolCall, renderToolResult } from '@codeagent/terminal';

// The terminal renderer under the renderer suite: coloured, 80 columns.
const renderTerminal = (result) => renderArtifact(result, { color: true, width: 80 });
// Permission decisions with the same bash grammar a real host loads.
await loadInstalledShellGrammar();
const evaluatePermission = (options, name, input) => {
  const { decision, capability, source } = createPermissionGate(options).evaluate(name, input);
  return { decision, capability, source };
};
// Render-intent: the presenter on tools described as data, and the built-in presenters as a host registers them.
const presentBuiltin = (cwd, tool, args, result) => {
  const builtins = createBuiltinPresenters({ cwd });
  const presenter = createToolPresenter((name) =>
    Object.hasOwn(builtins, name) ? builtins[name] : undefined,
  );
  return { call: presenter.call('call_1', tool, args), result: presenter.result('call_1', result) };
};
// Cards with colour off.
const renderTerminalView = (input) =>
  'call' in input
    ? renderToolCall(input.call, { color: false, width: 80 })
    : renderToolResult(input.result, input.data ?? {}, { color: false, width: 80 });
const ops = {
  renderTerminal,
  renderTerminalView,
  presentSession: presentSessionOp(createToolPresenter),
  terminalFallbackText,
  presentBuiltin,
  acpToolCall: (id, view, rawInput, ctx) => toolCallNotice(id, view, rawInput, ctx),
  acpToolResult: (id, call, view, isError, ctx) =>
    toolResultNotices(id, call ?? undefined, view, isError, ctx),
  acpStopReason,
  // JSON has no undefined: a null finish reason is "no finish part".
  mapStopReason: (facts) => mapStopReason({ ...facts, finishReason: facts.finishReason ?? undefined }),
  grantScope: (options, name, input) => createPermissionGate(options).grantScope(name, input),
  grantSession: grantSessionOp(createPermissionGate),
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
    write({ id: request.id, ok: true, result: (await fn(...request.args)) ?? null });
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
