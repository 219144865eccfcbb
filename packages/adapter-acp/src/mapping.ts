import type {
  ContentBlock as AcpContentBlock,
  PlanEntry,
  SessionUpdate,
  ToolCallContent,
  ToolCallLocation,
  ToolCallStatus,
  ToolKind,
} from '@agentclientprotocol/sdk';
import {
  assertNever,
  type ContentBlock,
  type FileDiff,
  type FileLocation,
  resolvePath,
  terminalFallbackText,
  type ToolCallView,
  type ToolResultView,
} from '@codeagent/render-intent';
import { remainingTerminalData } from './live.js';
import { plainText, terminalText, visibleTitle } from './text.js';

/** What the mapping needs to know about the session and the editor. */
export interface MappingContext {
  /** The session's working directory (absolute): relative model paths resolve against it. */
  readonly cwd: string;
  /** The editor advertised `_meta.terminal_output`: Bash output goes to its terminal widget. */
  readonly terminalOutput: boolean;
}

/** A `tool_call` update (the `sessionUpdate: "tool_call"` member of the ACP union). */
export type ToolCallNotice = Extract<SessionUpdate, { sessionUpdate: 'tool_call' }>;
/** A `tool_call_update` update. */
export type ToolCallUpdateNotice = Extract<SessionUpdate, { sessionUpdate: 'tool_call_update' }>;

function textContent(text: string): ToolCallContent {
  return { type: 'content', content: { type: 'text', text: plainText(text) } };
}

/** Wraps text in a code fence longer than any backtick run inside it (markdown-safe, as editors render it). */
export function fenced(text: string): string {
  let longest = 2;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const fence = '`'.repeat(longest + 1);
  return `${fence}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

function blockContent(block: ContentBlock): ToolCallContent {
  switch (block.type) {
    case 'text':
      return textContent(block.text);
    case 'image':
      return { type: 'content', content: { type: 'image', data: block.b64, mimeType: block.mime } };
    default:
      return assertNever(block, 'adapter-acp content block');
  }
}

function locations(list: readonly FileLocation[] | undefined, cwd: string): ToolCallLocation[] {
  return (list ?? []).map((l) => ({
    path: resolvePath(l.path, cwd),
    ...(l.line === undefined ? {} : { line: l.line }),
  }));
}

function diffContent(diffs: readonly FileDiff[], cwd: string): ToolCallContent[] {
  return diffs.map((d) => ({
    type: 'diff',
    path: resolvePath(d.path, cwd),
    oldText: d.oldText,
    newText: d.newText,
  }));
}

/** The fields a call view contributes to a `tool_call` (and to a permission request's `toolCall`). */
export interface ToolCallFields {
  /** Title, with every control shown visibly. */
  readonly title: string;
  /** ACP tool kind. */
  readonly kind: ToolKind;
  /** Call-time content. */
  readonly content: ToolCallContent[];
  /** Absolute file locations. */
  readonly locations: ToolCallLocation[];
  /** `_meta.terminal_info` for a terminal call when the editor shows terminals. */
  readonly meta?: { readonly terminal_info: { readonly terminal_id: string; readonly cwd: string } };
}

/** Maps a call's render-intent view to ACP fields (CONTRACTS.md §2 "ACP mapping"). */
export function toolCallFields(callId: string, view: ToolCallView, ctx: MappingContext): ToolCallFields {
  switch (view.card) {
    case 'generic':
      return {
        title: visibleTitle(view.title),
        kind: view.kind ?? 'other',
        content: (view.content ?? []).map(blockContent),
        locations: locations(view.locations, ctx.cwd),
      };
    case 'diff':
      return {
        title: visibleTitle(view.title),
        kind: 'edit',
        content: diffContent(view.diffs, ctx.cwd),
        locations:
          view.locations === undefined
            ? view.diffs.map((d) => ({ path: resolvePath(d.path, ctx.cwd) }))
            : locations(view.locations, ctx.cwd),
      };
    case 'terminal': {
      const description = view.description ? [textContent(view.description)] : [];
      const cwd = resolvePath(view.cwd ?? '.', ctx.cwd);
      if (!ctx.terminalOutput) {
        return { title: visibleTitle(view.title), kind: 'execute', content: description, locations: [] };
      }
      return {
        title: visibleTitle(view.title),
        kind: 'execute',
        content: [...description, { type: 'terminal', terminalId: callId }],
        locations: [],
        meta: { terminal_info: { terminal_id: callId, cwd } },
      };
    }
    default:
      return assertNever(view, 'adapter-acp call view');
  }
}

/** The `tool_call` update announcing a call (status `pending`: the permission gate has not decided yet). */
export function toolCallNotice(
  callId: string,
  view: ToolCallView,
  rawInput: unknown,
  ctx: MappingContext,
): ToolCallNotice {
  const f = toolCallFields(callId, view, ctx);
  return {
    sessionUpdate: 'tool_call',
    toolCallId: callId,
    title: f.title,
    kind: f.kind,
    status: 'pending',
    ...(f.content.length > 0 ? { content: f.content } : {}),
    ...(f.locations.length > 0 ? { locations: f.locations } : {}),
    rawInput,
    ...(f.meta ? { _meta: { ...f.meta } } : {}),
  };
}

/**
 * The updates that report a result: one `tool_call_update` with the final status and content, or, for a
 * terminal result shown in the editor's terminal, first one carrying only `_meta.terminal_output`, then the
 * final one with `_meta.terminal_exit` that resends the terminal content (as claude-agent-acp does). `streamed`:
 * the raw output already sent live as `terminal_output` updates; then only what the terminal lacks is sent (and no
 * `terminal_output` update at all when it has everything).
 */
export function toolResultNotices(
  callId: string,
  call: ToolCallView | undefined,
  view: ToolResultView,
  isError: boolean,
  ctx: MappingContext,
  streamed?: string,
): ToolCallUpdateNotice[] {
  const status: ToolCallStatus = isError ? 'failed' : 'completed';
  const base = { sessionUpdate: 'tool_call_update' as const, toolCallId: callId, status };
  // An update's title replaces the call's: keep what was called and add what came back ("Glob *.ts · 1 file").
  const title =
    view.title === undefined
      ? {}
      : {
          title: visibleTitle(
            call && call.title !== view.title ? `${call.title} · ${view.title}` : view.title,
          ),
        };
  switch (view.card) {
    case 'generic': {
      // File contents and error text are shown verbatim, in a fence, as claude-agent-acp does: an editor
      // renders content as markdown, which would reflow code and turn `#` lines into headings.
      const verbatim = isError || (call?.card === 'generic' && call.kind === 'read');
      const content = view.content?.map((b) =>
        verbatim && b.type === 'text' && !b.text.startsWith('```')
          ? blockContent({ type: 'text', text: fenced(b.text) })
          : blockContent(b),
      );
      return [{ ...base, ...title, ...(content === undefined ? {} : { content }) }];
    }
    case 'diff':
      return [{ ...base, ...title, content: diffContent(view.diffs, ctx.cwd) }];
    case 'terminal': {
      const output = view.output ?? '';
      const callTerminal = call?.card === 'terminal';
      if (ctx.terminalOutput && callTerminal) {
        const description = call.description ? [textContent(call.description)] : [];
        const data = remainingTerminalData(output, streamed);
        return [
          ...(streamed !== undefined && data === ''
            ? []
            : [
                {
                  sessionUpdate: 'tool_call_update' as const,
                  toolCallId: callId,
                  _meta: { terminal_output: { terminal_id: callId, data: terminalText(data) } },
                },
              ]),
          {
            ...base,
            ...title,
            content: [...description, { type: 'terminal', terminalId: callId }],
            _meta: {
              terminal_exit: {
                terminal_id: callId,
                exit_code: view.exitCode ?? null,
                signal: view.signal ?? null,
              },
            },
          },
        ];
      }
      return [
        {
          ...base,
          ...title,
          ...(output === '' ? {} : { content: [textContent(terminalFallbackText(output))] }),
        },
      ];
    }
    default:
      return assertNever(view, 'adapter-acp result view');
  }
}

/**
 * A live update of a running call: in the editor's terminal, `_meta.terminal_output` with the new text (appended);
 * otherwise a content update with the call's own content and the output's tail (content replaces, so the tail is
 * resent). The first update of a call also says `in_progress`.
 */
export function liveOutputNotice(
  callId: string,
  call: ToolCallView,
  text: string,
  first: boolean,
  ctx: MappingContext,
): ToolCallUpdateNotice {
  const status = first ? { status: 'in_progress' as const } : {};
  if (ctx.terminalOutput && call.card === 'terminal') {
    return {
      sessionUpdate: 'tool_call_update',
      toolCallId: callId,
      ...status,
      _meta: { terminal_output: { terminal_id: callId, data: terminalText(text) } },
    };
  }
  const own = toolCallFields(callId, call, ctx).content.filter((c) => c.type !== 'terminal');
  return {
    sessionUpdate: 'tool_call_update',
    toolCallId: callId,
    ...status,
    content: [...own, textContent(terminalFallbackText(text))],
  };
}

const PLAN_STATUSES = new Set(['pending', 'in_progress', 'completed']);

/**
 * The `plan` entries of a TodoWrite call (`todos: [{content, status}]`), or `null` when the arguments are not
 * a todo list (then the call is shown as an ordinary tool call).
 */
export function planEntries(args: unknown): PlanEntry[] | null {
  if (typeof args !== 'object' || args === null) return null;
  const todos = (args as { todos?: unknown }).todos;
  if (!Array.isArray(todos)) return null;
  const entries: PlanEntry[] = [];
  for (const todo of todos) {
    if (typeof todo !== 'object' || todo === null) return null;
    const { content, status } = todo as { content?: unknown; status?: unknown };
    if (typeof content !== 'string' || typeof status !== 'string' || !PLAN_STATUSES.has(status)) return null;
    entries.push({
      content: plainText(content),
      status: status as PlanEntry['status'],
      priority: 'medium',
    });
  }
  return entries;
}

/** An ACP text content block of untrusted prose (model text, thinking). */
export function textBlock(text: string): AcpContentBlock {
  return { type: 'text', text: plainText(text) };
}
