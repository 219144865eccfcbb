import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient } from '@codeagent/agent-core';
import { installPermissionGate, type PermissionMode } from '@codeagent/permission-gate';
import { DEMO_PERMISSIONS, demoModel } from '@codeagent/providers';
import { copyDemoWorkspace } from '@codeagent/providers/node';
import { createBuiltinToolkit } from '@codeagent/tools';
import { readUIMessageStream, type UIMessage } from 'ai';
import {
  type AgentUIChat,
  type AgentUIChatOptions,
  type AgentUIMessage,
  createAgentUIChat,
} from '../src/index.ts';

/** A chat on the scripted demo model in a temporary copy of the demo workspace, gate in `mode`. */
export async function demoChat(
  mode: PermissionMode = 'default',
  extra: Partial<AgentUIChatOptions> = {},
): Promise<{ chat: AgentUIChat; cwd: string; stored: AgentUIMessage[][]; dispose: () => Promise<void> }> {
  const root = await mkdtemp(join(tmpdir(), 'adapter-ai-sdk-ui-'));
  const cwd = await copyDemoWorkspace(join(root, 'ws'));
  const toolkit = createBuiltinToolkit({ cwd });
  const client = createClient({ model: demoModel(), cwd, tools: toolkit.tools, permissionMode: mode });
  const stored: AgentUIMessage[][] = [];
  const chat = createAgentUIChat({
    client,
    onChange: (messages) => stored.push([...messages]),
    // A wide batching window keeps the rounds of the tour the same on a loaded machine.
    parkSettleMs: 250,
    ...extra,
  });
  installPermissionGate(client, {
    mode,
    cwd,
    rules: { deny: [...DEMO_PERMISSIONS.rules.deny] },
    ask: chat.ask,
  });
  return {
    chat,
    cwd,
    stored,
    dispose: async () => {
      chat.abort();
      await chat.idle();
      await toolkit.dispose();
      await rm(root, { recursive: true, force: true });
    },
  };
}

/** Reads a response with the AI SDK's own reader, continuing `message` when given; returns the final message. */
export async function readBack(
  stream: ReadableStream<unknown>,
  message?: UIMessage,
): Promise<{ message: UIMessage; chunks: Array<{ type: string } & Record<string, unknown>> }> {
  const chunks: Array<{ type: string } & Record<string, unknown>> = [];
  const recorded = (stream as ReadableStream<{ type: string } & Record<string, unknown>>).pipeThrough(
    new TransformStream({
      transform(chunk, controller) {
        chunks.push(chunk);
        controller.enqueue(chunk);
      },
    }),
  );
  let last: UIMessage | undefined;
  for await (const snapshot of readUIMessageStream({
    stream: recorded as never,
    ...(message ? { message: structuredClone(message) } : {}),
    terminateOnError: false,
  })) {
    last = snapshot;
  }
  if (!last) throw new Error('the stream produced no message');
  return { message: last, chunks };
}

/** A user message as `useChat` sends it. */
export function userMessage(text: string, id = `u-${Math.random().toString(36).slice(2)}`): UIMessage {
  return { id, role: 'user', parts: [{ type: 'text', text }] };
}

/** Tool parts of a message. */
export function toolParts(message: UIMessage): Array<Record<string, unknown>> {
  return message.parts.filter((p) => p.type === 'dynamic-tool') as unknown as Array<Record<string, unknown>>;
}

/** Answers every `approval-requested` part of `message` the way `addToolApprovalResponse` does. */
export function answer(
  message: UIMessage,
  decide: (toolName: string, input: unknown) => { approved: boolean; reason?: string },
): UIMessage {
  const copy = structuredClone(message);
  for (const part of copy.parts as unknown as Array<Record<string, unknown>>) {
    if (part.type !== 'dynamic-tool' || part.state !== 'approval-requested') continue;
    const d = decide(part.toolName as string, part.input);
    part.state = 'approval-responded';
    part.approval = {
      id: (part.approval as { id: string }).id,
      approved: d.approved,
      ...(d.reason ? { reason: d.reason } : {}),
    };
  }
  return copy;
}
