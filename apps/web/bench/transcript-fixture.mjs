// The transcript the web host's bench and its scroll test open: one assistant message with `cards` tool parts, one
// of each kind in turn (code, terminal, diff, table, text), and a short text part every ten cards. Stored as the
// session's UI messages, exactly what a finished turn leaves in the store.
const artifact = (kind, payload) => ({
  schema: 'codeagent.tool-artifact',
  version: 1,
  kind,
  status: 'success',
  icon: null,
  title: null,
  payload,
});

/** One tool part of each kind in turn: code, terminal, diff, table, text. */
function toolPart(i) {
  const path = `src/module-${i}.ts`;
  const code = `export function f${i}(x: number): number {\n  return x * ${i} + 1;\n}\n`;
  const base = { type: 'dynamic-tool', toolCallId: `call-${i}`, state: 'output-available' };
  const meta = (call, result, art, value) => ({
    ...base,
    toolName: call.toolName,
    title: call.view.title,
    input: call.input,
    output: value,
    toolMetadata: { codeagent: { call: call.view, intent: null, result, artifact: art, isError: false } },
  });
  switch (i % 5) {
    case 0:
      return meta(
        {
          toolName: 'Read',
          input: { file_path: path },
          view: { card: 'generic', title: `Read ${path}`, kind: 'read', locations: [{ path, line: 1 }] },
        },
        { card: 'generic', content: [{ type: 'text', text: code }] },
        artifact('code', { text: code, lang: 'typescript', filename: path }),
        code,
      );
    case 1: {
      const output = `\u001b[32m✓\u001b[0m test ${i} passed\n\u001b[32m✓\u001b[0m test ${i + 1} passed\n`;
      return meta(
        {
          toolName: 'Bash',
          input: { command: `npm test -- ${i}` },
          view: { card: 'terminal', title: `npm test -- ${i}`, cwd: '/work' },
        },
        { card: 'terminal', output, exitCode: 0 },
        artifact('text', { text: output }),
        output,
      );
    }
    case 2: {
      const diffs = [{ path, oldText: `  return x * ${i};`, newText: `  return x * ${i} + 1;` }];
      return meta(
        {
          toolName: 'Edit',
          input: { file_path: path },
          view: { card: 'diff', title: `Edit ${path}`, diffs },
        },
        { card: 'diff', diffs },
        artifact('diff', { old: `  return x * ${i};\n`, new: `  return x * ${i} + 1;\n`, path }),
        `Edited ${path}`,
      );
    }
    case 3: {
      const df = Array.from({ length: 8 }, (_, r) => ({
        file: `src/m${r}.ts`,
        line: r + 1,
        text: `// TODO ${i}.${r}`,
      }));
      return meta(
        {
          toolName: 'Grep',
          input: { pattern: 'TODO' },
          view: { card: 'generic', title: `Grep TODO (${i})`, kind: 'search' },
        },
        { card: 'generic' },
        artifact('table', { df }),
        `${df.length} matches`,
      );
    }
    default:
      return meta(
        {
          toolName: 'TodoWrite',
          input: {},
          view: { card: 'generic', title: `Todo list ${i}`, kind: 'other' },
        },
        { card: 'generic', content: [{ type: 'text', text: `- [x] step ${i}\n- [ ] step ${i + 1}` }] },
        artifact('text', { text: `- [x] step ${i}\n- [ ] step ${i + 1}` }),
        `- [x] step ${i}`,
      );
  }
}

export function transcript(cards) {
  const parts = [];
  for (let i = 0; i < cards; i++) {
    if (i % 10 === 0)
      parts.push({
        type: 'text',
        text: `Working on batch **${i / 10}**: reading, testing, editing.`,
        state: 'done',
      });
    parts.push(toolPart(i));
  }
  return [
    { id: 'bench-user', role: 'user', parts: [{ type: 'text', text: 'Do the big refactor.' }] },
    {
      id: 'bench-assistant',
      role: 'assistant',
      parts,
      metadata: { stopReason: 'completed', finishReason: 'stop', usage: null, awaitingApproval: false },
    },
  ];
}
