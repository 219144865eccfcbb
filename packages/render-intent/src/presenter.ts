import { safeJson } from './errors.js';
import { isContentBlock, isToolCallView, isToolResultView } from './match.js';
import type { StandardSchemaV1, StandardSchemaV1Result } from './standard-schema.js';
import { terminalFallbackText } from './terminal.js';
import type {
  ContentBlock,
  GenericCallView,
  GenericResultView,
  ToolCallView,
  ToolResultView,
} from './types.js';

/** What `presentResult` receives besides the args: the model-facing result, both as blocks and as text. */
export interface PresentResultInput {
  /** The model-facing content blocks. */
  content: ContentBlock[];
  /** The model-facing text: the text blocks joined by `\n`. */
  value: string;
  /** Whether the tool reported an error. */
  isError: boolean;
  /** The persisted presentation meta the tool attached (untrusted: narrow it before use). */
  meta?: unknown;
}

/**
 * How one tool presents itself. Both functions must be pure (no I/O, clock, randomness or session
 * state): they run live and again on session replay. Returning `undefined` asks for the generic card.
 */
export interface ToolPresentation<Args = unknown> {
  /** Maps validated args to a call view. */
  presentCall?(args: Args): ToolCallView | undefined;
  /** Maps validated args and the result to a result view. */
  presentResult?(args: Args, result: PresentResultInput): ToolResultView | undefined;
  /** A Standard Schema for the args; failing args get the generic card instead of the presenters. */
  inputSchema?: StandardSchemaV1<unknown, Args>;
}

/** Finds a tool's presentation by name; `undefined` for an unknown tool. */
export type ToolPresentationLookup = (name: string) => ToolPresentation | undefined;

/** What went wrong while presenting; the display still gets a (generic) card. */
export type PresenterIssueCode =
  | 'lookup-threw'
  | 'present-call-threw'
  | 'present-result-threw'
  | 'invalid-args'
  | 'schema-threw'
  | 'schema-async'
  | 'invalid-view'
  | 'unknown-call'
  | 'orphan-terminal-result';

/** A contained presenter failure, handed to `onError`. */
export interface PresenterIssue {
  /** Stable machine-readable code. */
  code: PresenterIssueCode;
  /** The call the issue belongs to. */
  callId: string;
  /** The tool name, when known. */
  toolName: string | undefined;
  /** Human-readable explanation. */
  message: string;
  /** The thrown value or offending data, when there is one. */
  cause?: unknown;
}

/** Options for {@link createToolPresenter}. */
export interface ToolPresenterOptions {
  /** Receives every contained failure (a throwing callback is ignored). */
  onError?: (issue: PresenterIssue) => void;
}

/** The model-facing result handed to {@link ToolPresenter.result}. */
export interface ToolResultInput {
  /** Content blocks, or plain text. */
  content: string | readonly ContentBlock[];
  /** Whether the tool reported an error. */
  isError: boolean;
  /** Persisted presentation meta (see each tool's docs). */
  meta?: unknown;
}

/** A per-session presenter: pairs calls and results by call id and never throws. */
export interface ToolPresenter {
  /** Presents a tool call and remembers it for its result. */
  call(callId: string, name: string, args: unknown): ToolCallView;
  /** Presents the result of a remembered call, then forgets the call. */
  result(callId: string, result: ToolResultInput): ToolResultView;
  /** Number of calls still waiting for their result. */
  readonly pending: number;
}

interface Remembered {
  name: string;
  args: unknown;
  entry: ToolPresentation | undefined;
  argsOk: boolean;
  card: ToolCallView['card'];
}

/** Turns untrusted result content into content blocks (strings become text, junk becomes JSON text). */
export function toContentBlocks(content: unknown): ContentBlock[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (content === undefined || content === null) return [];
  if (!Array.isArray(content)) return [{ type: 'text', text: safeJson(content, 100_000) }];
  return content.map((item): ContentBlock => {
    if (isContentBlock(item)) return item;
    if (typeof item === 'string') return { type: 'text', text: item };
    return { type: 'text', text: safeJson(item, 100_000) };
  });
}

/** Reads a result input that may come from a restored session (missing, or with throwing getters). */
function readResultInput(input: unknown): { content: unknown; isError: boolean; meta: unknown } {
  const read = (key: keyof ToolResultInput): unknown => {
    try {
      return typeof input === 'object' && input !== null
        ? (input as Record<string, unknown>)[key]
        : undefined;
    } catch {
      return undefined;
    }
  };
  return { content: read('content'), isError: read('isError') === true, meta: read('meta') };
}

const textOf = (blocks: readonly ContentBlock[]): string =>
  blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');

/** The generic card for a call nobody presents. */
function genericCall(name: string, args: unknown): GenericCallView {
  return { card: 'generic', title: name, kind: 'other', rawInput: args };
}

/**
 * Creates the per-session presenter that applies the resolution rules: generic fallback when a tool
 * has no presenter or returns `undefined`; a throwing presenter, args failing `inputSchema`, an
 * asynchronous schema, or a malformed view are contained (reported, generic card); a result with no
 * remembered call gets the raw content; a terminal result after a non-terminal call becomes generic
 * (fenced output); a generic result without `content` is filled with the raw content.
 */
export function createToolPresenter(
  lookup: ToolPresentationLookup,
  options: ToolPresenterOptions = {},
): ToolPresenter {
  const calls = new Map<string, Remembered>();
  const report = (issue: PresenterIssue): void => {
    try {
      options.onError?.(issue);
    } catch {
      // Reporting must never break display.
    }
  };

  const validate = (
    callId: string,
    name: string,
    schema: StandardSchemaV1<unknown, unknown>,
    args: unknown,
  ): { ok: true; value: unknown } | { ok: false } => {
    let outcome: StandardSchemaV1Result<unknown> | Promise<StandardSchemaV1Result<unknown>>;
    try {
      outcome = schema['~standard'].validate(args);
    } catch (cause) {
      report({
        code: 'schema-threw',
        callId,
        toolName: name,
        message: `inputSchema of ${name} threw`,
        cause,
      });
      return { ok: false };
    }
    if (typeof (outcome as { then?: unknown }).then === 'function') {
      Promise.resolve(outcome).catch(() => undefined);
      report({
        code: 'schema-async',
        callId,
        toolName: name,
        message: `inputSchema of ${name} cannot validate synchronously; showing the generic card`,
      });
      return { ok: false };
    }
    const sync = outcome as StandardSchemaV1Result<unknown>;
    if (sync.issues) {
      const first = sync.issues[0]?.message ?? 'invalid';
      report({
        code: 'invalid-args',
        callId,
        toolName: name,
        message: `args of ${name} fail its inputSchema: ${first}`,
        cause: sync.issues,
      });
      return { ok: false };
    }
    return { ok: true, value: sync.value };
  };

  /** Runs a tool's presenter, containing a throw or a malformed view (reported, then `undefined`). */
  const contained = <V>(
    which: 'presentCall' | 'presentResult',
    callId: string,
    name: string,
    run: () => unknown,
    isView: (x: unknown) => x is V,
  ): V | undefined => {
    try {
      const out = run();
      if (out === undefined || isView(out)) return out;
      report({
        code: 'invalid-view',
        callId,
        toolName: name,
        message: `${which} of ${name} returned a malformed view`,
        cause: out,
      });
    } catch (cause) {
      report({
        code: which === 'presentCall' ? 'present-call-threw' : 'present-result-threw',
        callId,
        toolName: name,
        message: `${which} of ${name} threw`,
        cause,
      });
    }
    return undefined;
  };

  const presentCall = (callId: string, name: string, args: unknown): ToolCallView => {
    let entry: ToolPresentation | undefined;
    try {
      entry = lookup(name);
    } catch (cause) {
      report({ code: 'lookup-threw', callId, toolName: name, message: `lookup(${name}) threw`, cause });
    }
    let presented = args;
    let argsOk = entry !== undefined;
    if (entry?.inputSchema) {
      const checked = validate(callId, name, entry.inputSchema, args);
      argsOk = checked.ok;
      if (checked.ok) presented = checked.value;
    }
    const fn = argsOk ? entry?.presentCall : undefined;
    const view: ToolCallView =
      (fn && contained('presentCall', callId, name, () => fn(presented), isToolCallView)) ??
      genericCall(name, args);
    calls.set(callId, { name, args: presented, entry, argsOk, card: view.card });
    return view;
  };

  const presentResultView = (callId: string, input: ToolResultInput): ToolResultView => {
    const { content, isError, meta } = readResultInput(input);
    const raw = toContentBlocks(content);
    const remembered = calls.get(callId);
    if (!remembered) {
      report({
        code: 'unknown-call',
        callId,
        toolName: undefined,
        message: `result for unknown call ${callId}`,
      });
      return { card: 'generic', content: raw };
    }
    calls.delete(callId);
    const { name, entry } = remembered;
    let view: ToolResultView | undefined;
    const fn = remembered.argsOk ? entry?.presentResult : undefined;
    if (fn) {
      const given: PresentResultInput = {
        content: raw,
        value: textOf(raw),
        isError,
        ...(meta === undefined ? {} : { meta }),
      };
      view = contained('presentResult', callId, name, () => fn(remembered.args, given), isToolResultView);
    }
    if (view === undefined) return { card: 'generic', content: raw };
    if (view.card === 'terminal' && remembered.card !== 'terminal') {
      report({
        code: 'orphan-terminal-result',
        callId,
        toolName: name,
        message: `terminal result of ${name} after a ${remembered.card} call`,
      });
      const fallback: GenericResultView = {
        card: 'generic',
        content:
          view.output === undefined ? raw : [{ type: 'text', text: terminalFallbackText(view.output) }],
      };
      if (view.title !== undefined) fallback.title = view.title;
      return fallback;
    }
    if (view.card === 'generic' && view.content === undefined) return { ...view, content: raw };
    return view;
  };

  // Safety net: hostile objects (throwing getters, proxies) in lookup entries must not escape either.
  const call = (callId: string, name: string, args: unknown): ToolCallView => {
    try {
      return presentCall(callId, name, args);
    } catch (cause) {
      report({
        code: 'present-call-threw',
        callId,
        toolName: name,
        message: `presenting ${name} threw`,
        cause,
      });
      calls.set(callId, { name, args, entry: undefined, argsOk: false, card: 'generic' });
      return genericCall(name, args);
    }
  };
  const result = (callId: string, input: ToolResultInput): ToolResultView => {
    try {
      return presentResultView(callId, input);
    } catch (cause) {
      calls.delete(callId);
      report({
        code: 'present-result-threw',
        callId,
        toolName: undefined,
        message: 'presenting a result threw',
        cause,
      });
      return { card: 'generic', content: toContentBlocks(readResultInput(input).content) };
    }
  };

  return {
    call,
    result,
    get pending() {
      return calls.size;
    },
  };
}
