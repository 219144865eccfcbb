/**
 * `@codeagent/adapter-ai-sdk-ui/client`: read the codeagent data back from a `UIMessage` tool part in the
 * browser (cards, artifact, status). Imports only the artifact and render-intent validators, never the loop.
 *
 * @packageDocumentation
 */
import {
  adaptToolResult,
  type ArtifactVersionOption,
  type ToolArtifact,
  toolResultArtifact,
} from '@codeagent/artifact-schema';
import {
  isToolCallView,
  isToolResultView,
  type ToolCallView,
  type ToolResultView,
} from '@codeagent/render-intent';
import {
  ALLOW_ALWAYS_REASON,
  type CodeagentMessageMetadata,
  type CodeagentToolMetadata,
  type CodeagentUsageMetadata,
  type DenialSource,
  TOOL_METADATA_KEY,
} from './metadata.js';
import { isRecord as isRec } from '@codeagent/artifact-schema/internal';

export {
  ALLOW_ALWAYS_REASON,
  type CodeagentMessageMetadata,
  type CodeagentToolMetadata,
  type CodeagentUsageMetadata,
  type DenialSource,
  TOOL_METADATA_KEY,
};

/** Where a tool call stands, in the words of a tool card (`ToolCallCard`'s `status`). */
export type ToolPartStatus = 'pending' | 'running' | 'done' | 'failed' | 'denied';

/** What {@link readToolPart} found on a tool part; every field validated, never trusted. */
export interface ToolPartInfo {
  /** Tool call id. */
  readonly toolCallId: string;
  /** Tool name. */
  readonly toolName: string;
  /** The AI SDK state of the part (`input-available`, `approval-requested`, `output-available`...). */
  readonly state: string;
  /** The card status for this state. */
  readonly status: ToolPartStatus;
  /** The call's card: the stored one when valid, else a generic card built from the name and input. */
  readonly call: ToolCallView;
  /** The result's card when present and valid, else `null`. */
  readonly result: ToolResultView | null;
  /** The result's artifact filtered to the versions asked for (adapted on this copy), else `null`. */
  readonly artifact: ToolArtifact | null;
  /** The portable text of the result (output or error text); `''` before a result. */
  readonly value: string;
  /** The approval id when the part waits for (or got) an approval, else `null`. */
  readonly approvalId: string | null;
  /** The model-written reason for the call, or `null`. */
  readonly intent: string | null;
  /** Who denied the call, when it was denied. */
  readonly denied: DenialSource | null;
  /**
   * While the call runs: the end of its output so far, raw (render it as terminal output: SGR kept, every other
   * escape removed, as `ToolCallCard`'s `output` does), from a preliminary output; `null` otherwise.
   */
  readonly liveOutput: string | null;
}

/** Options of {@link readToolPart}. */
export interface ReadToolPartOptions {
  /** Artifact versions the UI renders (default 1; `null` = any valid version). */
  readonly versions?: ArtifactVersionOption;
}

type Rec = Record<string, unknown>;
const DENIALS: readonly string[] = ['user', 'rule', 'timeout', 'unknown-approval', 'aborted'];

/** True when `part` is a tool part (`dynamic-tool` or `tool-<name>`) with a call id. */
export function isToolPart(part: unknown): boolean {
  return (
    isRec(part) &&
    typeof part.type === 'string' &&
    (part.type === 'dynamic-tool' || part.type.startsWith('tool-')) &&
    typeof part.toolCallId === 'string'
  );
}

/** The `toolMetadata.codeagent` object of a part, or `null` (not validated: use {@link readToolPart}). */
export function codeagentToolMetadata(part: unknown): Record<string, unknown> | null {
  if (!isRec(part) || !isRec(part.toolMetadata)) return null;
  const meta = part.toolMetadata[TOOL_METADATA_KEY];
  return isRec(meta) ? meta : null;
}

function statusOf(state: string, isError: boolean): ToolPartStatus {
  switch (state) {
    case 'input-streaming':
    case 'approval-requested':
      return 'pending';
    case 'input-available':
    case 'approval-responded':
      return 'running';
    case 'output-available':
      return isError ? 'failed' : 'done';
    case 'output-error':
      return 'failed';
    case 'output-denied':
      return 'denied';
    default:
      return 'pending';
  }
}

/**
 * Reads a tool part of a `UIMessage` written by this adapter (or anyone else: everything is validated): the call
 * and result cards, the artifact and the card status. Returns `null` for a part that is not a tool part.
 * Stored artifacts of an older shape are upgraded on this display copy only.
 */
export function readToolPart(part: unknown, options: ReadToolPartOptions = {}): ToolPartInfo | null {
  if (!isToolPart(part)) return null;
  const p = part as Rec;
  const toolName =
    typeof p.toolName === 'string' ? p.toolName : String(p.type).replace(/^tool-/, '') || 'tool';
  // A preliminary output is live output of a running call, not its result.
  const preliminary = p.state === 'output-available' && p.preliminary === true;
  const state = preliminary ? 'input-available' : typeof p.state === 'string' ? p.state : 'input-available';
  const meta = codeagentToolMetadata(part);
  const call = isToolCallView(meta?.call)
    ? meta.call
    : ({ card: 'generic', title: toolName, kind: 'other', rawInput: p.input } satisfies ToolCallView);
  const result = isToolResultView(meta?.result) ? meta.result : null;
  const value =
    state === 'output-error' && typeof p.errorText === 'string'
      ? p.errorText
      : state === 'output-available'
        ? typeof p.output === 'string'
          ? p.output
          : p.output === undefined
            ? ''
            : safeStringify(p.output)
        : '';
  const rawArtifact = meta?.artifact;
  const artifact =
    rawArtifact === undefined || rawArtifact === null
      ? null
      : toolResultArtifact(
          // Old shapes are upgraded here, on the display copy; the stored part is left as it was.
          adaptToolResult({ value, extra: { codeagent: { artifact: rawArtifact } } }),
          { version: options.versions === undefined ? 1 : options.versions },
        );
  const isError = meta?.isError === true || state === 'output-error';
  const approval = isRec(p.approval) && typeof p.approval.id === 'string' ? p.approval.id : null;
  const denied =
    state === 'output-denied'
      ? typeof meta?.denied === 'string' && DENIALS.includes(meta.denied)
        ? (meta.denied as DenialSource)
        : 'user'
      : typeof meta?.denied === 'string' && DENIALS.includes(meta.denied)
        ? (meta.denied as DenialSource)
        : null;
  return {
    toolCallId: p.toolCallId as string,
    toolName,
    state,
    status: denied !== null ? 'denied' : statusOf(state, isError),
    call,
    result,
    artifact,
    value,
    approvalId: approval,
    intent: typeof meta?.intent === 'string' ? meta.intent : null,
    denied,
    liveOutput: preliminary && typeof meta?.live === 'string' ? meta.live : null,
  };
}

function safeStringify(x: unknown): string {
  try {
    return JSON.stringify(x) ?? String(x);
  } catch {
    return String(x);
  }
}

/** The adapter's message metadata of a `UIMessage`, validated field by field (`{}` when absent). */
export function readMessageMetadata(message: unknown): CodeagentMessageMetadata {
  if (!isRec(message) || !isRec(message.metadata)) return {};
  const m = message.metadata;
  const out: {
    stopReason?: string;
    finishReason?: string | null;
    usage?: CodeagentUsageMetadata | null;
    awaitingApproval?: boolean;
  } = {};
  if (typeof m.stopReason === 'string') out.stopReason = m.stopReason;
  if (typeof m.finishReason === 'string' || m.finishReason === null) out.finishReason = m.finishReason;
  if (typeof m.awaitingApproval === 'boolean') out.awaitingApproval = m.awaitingApproval;
  if (m.usage === null) out.usage = null;
  else if (isRec(m.usage)) {
    const u = m.usage;
    const num = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) ? x : 0);
    out.usage = {
      nTokens: num(u.nTokens),
      modelLimit: num(u.modelLimit),
      percentLeft: num(u.percentLeft),
      inputTokens: num(u.inputTokens),
      outputTokens: num(u.outputTokens),
      costLast: typeof u.costLast === 'number' && Number.isFinite(u.costLast) ? u.costLast : null,
    };
  }
  return out;
}
