import { assertNever, isRecord } from '@codeagent/artifact-schema/internal';
import {
  APICallError,
  type LanguageModelV3,
  type LanguageModelV3CallOptions,
  type LanguageModelV3Content,
  type LanguageModelV3FinishReason,
  type LanguageModelV3GenerateResult,
  type LanguageModelV3Prompt,
  type LanguageModelV3StreamPart,
  type LanguageModelV3StreamResult,
  type LanguageModelV3ToolResultOutput,
  type LanguageModelV3Usage,
} from '@ai-sdk/provider';
import { ProvidersError } from './errors.js';
import { type JsonValue, toJsonText } from './json.js';
import { describe } from './limits.js';

/** The unified finish reasons of the AI SDK's V3 model spec. */
export type ScriptFinishReason = LanguageModelV3FinishReason['unified'];

/** One piece of a scripted answer, streamed in order. */
export type ScriptPart =
  | {
      /** Assistant text, streamed as text-start / text-delta... / text-end. */
      readonly type: 'text';
      /** The text. */
      readonly text: string;
    }
  | {
      /** Model reasoning, streamed as reasoning-start / reasoning-delta... / reasoning-end. */
      readonly type: 'reasoning';
      /** The reasoning text. */
      readonly text: string;
    }
  | {
      /** A tool call, streamed as tool-input-start / -delta... / -end then tool-call. */
      readonly type: 'tool-call';
      /** Name of the tool to call. */
      readonly toolName: string;
      /** Tool arguments (serialised to the JSON string the spec wants). */
      readonly input?: JsonValue | undefined;
      /** Raw argument text used verbatim instead of `input` (e.g. malformed JSON, to test a host's repair path). */
      readonly rawInput?: string | undefined;
      /** Tool call id; defaults to `call_<step>_<part>` (0-based step and part indexes). */
      readonly toolCallId?: string | undefined;
    }
  | {
      /** An injected `error` stream part (the stream still goes on to its finish part). */
      readonly type: 'error';
      /** Message of the `Error` put in the part. */
      readonly message: string;
    };

/** Token counts a turn reports; omitted counts are estimated from text length (about 4 characters a token). */
export interface ScriptUsage {
  /** Prompt tokens. */
  readonly inputTokens?: number | undefined;
  /** Answer tokens (text plus reasoning). */
  readonly outputTokens?: number | undefined;
  /** Of the answer, reasoning tokens. */
  readonly reasoningTokens?: number | undefined;
  /** Of the prompt, tokens read from the provider's cache. */
  readonly cacheReadTokens?: number | undefined;
  /** Of the prompt, tokens written to the provider's cache. */
  readonly cacheWriteTokens?: number | undefined;
}

/** A request failure a turn injects (a bare string is the same as `{message}`). */
export interface ScriptThrow {
  /** The error message. */
  readonly message: string;
  /** HTTP status; when set the error is the AI SDK's `APICallError`, as real providers throw. */
  readonly statusCode?: number | undefined;
  /** Whether the AI SDK may retry it (default false: a retry would consume the next step). */
  readonly isRetryable?: boolean | undefined;
  /** Sent as a `retry-after-ms` response header, which the AI SDK's retry loop honours (needs `statusCode`). */
  readonly retryAfterMs?: number | undefined;
}

/** What the scripted model answers to one request. */
export interface ScriptTurn {
  /** The answer's parts, in stream order. */
  readonly parts?: readonly ScriptPart[] | undefined;
  /** Finish reason; default `tool-calls` when the turn calls a tool, `error` when it has an error part, else `stop`. */
  readonly finishReason?: ScriptFinishReason | LanguageModelV3FinishReason | undefined;
  /** Usage reported in the finish part. */
  readonly usage?: ScriptUsage | undefined;
  /** When set, the request itself fails: `doStream` / `doGenerate` reject with this error. */
  readonly throws?: string | ScriptThrow | undefined;
  /** Milliseconds to wait before each stream part (default: the model's `delayMs`, itself 0). */
  readonly delayMs?: number | undefined;
  /** Longest text / reasoning / tool-input delta, in characters (default: the model's `chunkSize`). */
  readonly chunkSize?: number | undefined;
}

/** A tool result found in the prompt, as a script step function sees it. */
export interface ScriptToolResult {
  /** Id of the call this answers. */
  readonly toolCallId: string;
  /** Name of the tool. */
  readonly toolName: string;
  /** True for an error or denied result. */
  readonly isError: boolean;
  /** True when the host's permission gate refused the call (`execution-denied`, or a `Permission denied for` value). */
  readonly denied: boolean;
  /** The result's model-facing text (JSON outputs are stringified). */
  readonly text: string;
}

/** What a script step function receives: everything it may base its answer on. */
export interface ScriptContext {
  /** The full prompt of this request. */
  readonly prompt: LanguageModelV3Prompt;
  /** 0-based index of this request on this model. */
  readonly requestIndex: number;
  /** Results of the tool calls since the last assistant message (empty on a fresh user turn). */
  readonly toolResults: readonly ScriptToolResult[];
  /** Every tool result in the prompt, oldest first. */
  readonly allToolResults: readonly ScriptToolResult[];
  /** Text of the latest user message ('' if none). */
  readonly lastUserText: string;
  /** Names of the tools offered in this request. */
  readonly toolNames: readonly string[];
}

/** One step of a script: a turn, a plain text answer, or a pure function of the request that returns either. */
export type ScriptStep = ScriptTurn | string | ((context: ScriptContext) => ScriptTurn | string);

/** A script: steps consumed one per model request, in order. */
export type Script = readonly ScriptStep[];

/** Options of {@link scriptedModel}. */
export interface ScriptedModelOptions {
  /** Model id reported to the AI SDK (default `scripted`). */
  readonly modelId?: string | undefined;
  /** Provider id reported to the AI SDK (default `codeagent.scripted`). */
  readonly provider?: string | undefined;
  /** Answer once the script has run out (default: {@link SCRIPT_EXHAUSTED_TEXT}). */
  readonly exhaustedText?: string | undefined;
  /** Default milliseconds to wait before each stream part (default 0: no timers at all). */
  readonly delayMs?: number | undefined;
  /** Default longest delta in characters (default 24); text is split after whitespace first. */
  readonly chunkSize?: number | undefined;
  /** Ignore every `delayMs`, the turns' own included (tests and benchmarks of scripts written with delays). */
  readonly disableDelays?: boolean | undefined;
}

/** A deterministic `LanguageModelV3` that replays a script, with a little introspection for tests. */
export interface ScriptedModel extends LanguageModelV3 {
  /** Requests served so far (each consumed one step, or the exhausted answer). */
  readonly requestCount: number;
  /** Steps not yet consumed. */
  readonly remaining: number;
  /** Prompts received, oldest first. */
  readonly prompts: readonly LanguageModelV3Prompt[];
  /** Rewinds to the first step and forgets received prompts. */
  reset(): void;
}

/** The final text the scripted model answers once every step is consumed (it never throws for running out). */
export const SCRIPT_EXHAUSTED_TEXT = 'The script has no more turns, so I am stopping here.';

const FINISH_REASONS: ReadonlySet<string> = new Set<ScriptFinishReason>([
  'stop',
  'length',
  'content-filter',
  'tool-calls',
  'error',
  'other',
]);
const MAX_DELAY_MS = 60_000;
const DEFAULT_CHUNK_SIZE = 24;

interface PlannedTurn {
  readonly parts: readonly PlannedPart[];
  readonly finishReason: LanguageModelV3FinishReason;
  readonly usage: ScriptUsage;
  readonly throws:
    | {
        message: string;
        statusCode: number | undefined;
        isRetryable: boolean;
        retryAfterMs: number | undefined;
      }
    | undefined;
  readonly delayMs: number;
  readonly chunkSize: number;
}

type PlannedPart =
  | { readonly type: 'text' | 'reasoning'; readonly text: string }
  | {
      readonly type: 'tool-call';
      readonly toolName: string;
      readonly input: string;
      readonly toolCallId: string;
    }
  | { readonly type: 'error'; readonly message: string };

function invalid(where: string, why: string): never {
  throw new ProvidersError('invalid-script', `${where}: ${why}`, { field: where });
}

function checkCount(value: unknown, where: string, { positive = false, max = Number.MAX_SAFE_INTEGER } = {}) {
  if (value === undefined) return undefined;
  if (
    typeof value !== 'number' ||
    !Number.isSafeInteger(value) ||
    value < (positive ? 1 : 0) ||
    value > max
  ) {
    invalid(
      where,
      `expected a ${positive ? 'positive' : 'non-negative'} whole number, got ${describe(value)}`,
    );
  }
  return value;
}

/** Rejects keys outside `allowed`, so a typo (`part` for `parts`) is an error instead of an empty turn. */
function checkKeys(value: Record<string, unknown>, allowed: readonly string[], where: string): void {
  for (const key of Object.keys(value)) {
    if (!allowed.includes(key)) {
      invalid(`${where}.${key}`, `unknown field ${describe(key)}; expected one of ${allowed.join(', ')}`);
    }
  }
}

const PART_KEYS: Readonly<Record<string, readonly string[]>> = {
  text: ['type', 'text'],
  reasoning: ['type', 'text'],
  error: ['type', 'message'],
  'tool-call': ['type', 'toolName', 'input', 'rawInput', 'toolCallId'],
};
const TURN_KEYS = ['parts', 'finishReason', 'usage', 'throws', 'delayMs', 'chunkSize'] as const;
const USAGE_KEYS = [
  'inputTokens',
  'outputTokens',
  'reasoningTokens',
  'cacheReadTokens',
  'cacheWriteTokens',
] as const;
const THROW_KEYS = ['message', 'statusCode', 'isRetryable', 'retryAfterMs'] as const;

function checkString(value: unknown, where: string): string {
  if (typeof value !== 'string') invalid(where, `expected a string, got ${describe(value)}`);
  return value;
}

function planPart(part: unknown, where: string, stepIndex: number, partIndex: number): PlannedPart {
  if (!isRecord(part)) invalid(where, `expected a part object, got ${describe(part)}`);
  const type = part.type;
  const keys = typeof type === 'string' && Object.hasOwn(PART_KEYS, type) ? PART_KEYS[type] : undefined;
  if (keys !== undefined) checkKeys(part, keys, where);
  switch (type) {
    case 'text':
    case 'reasoning':
      return { type, text: checkString(part.text, `${where}.text`) };
    case 'error':
      return { type, message: checkString(part.message, `${where}.message`) };
    case 'tool-call': {
      const toolName = checkString(part.toolName, `${where}.toolName`);
      if (toolName === '') invalid(`${where}.toolName`, 'must not be empty');
      const toolCallId =
        part.toolCallId === undefined
          ? `call_${stepIndex}_${partIndex}`
          : checkString(part.toolCallId, `${where}.toolCallId`);
      const input =
        part.rawInput !== undefined
          ? checkString(part.rawInput, `${where}.rawInput`)
          : toJsonText(part.input ?? {}, `${where}.input`);
      return { type, toolName, toolCallId, input };
    }
    default:
      return invalid(`${where}.type`, `unknown part type ${describe(type)}`);
  }
}

function planFinish(
  value: unknown,
  where: string,
  parts: readonly PlannedPart[],
): LanguageModelV3FinishReason {
  if (value === undefined) {
    const unified: ScriptFinishReason = parts.some((p) => p.type === 'tool-call')
      ? 'tool-calls'
      : parts.some((p) => p.type === 'error')
        ? 'error'
        : 'stop';
    return { unified, raw: unified };
  }
  if (typeof value === 'string') {
    if (!FINISH_REASONS.has(value)) invalid(where, `unknown finish reason ${describe(value)}`);
    return { unified: value as ScriptFinishReason, raw: value };
  }
  if (!isRecord(value) || typeof value.unified !== 'string' || !FINISH_REASONS.has(value.unified)) {
    return invalid(where, `expected a finish reason or {unified, raw}, got ${describe(value)}`);
  }
  if (value.raw !== undefined && typeof value.raw !== 'string') invalid(`${where}.raw`, 'expected a string');
  return { unified: value.unified as ScriptFinishReason, raw: value.raw as string | undefined };
}

function planUsage(value: unknown, where: string): ScriptUsage {
  if (value === undefined) return {};
  if (!isRecord(value)) invalid(where, `expected a usage object, got ${describe(value)}`);
  checkKeys(value, USAGE_KEYS, where);
  return {
    inputTokens: checkCount(value.inputTokens, `${where}.inputTokens`),
    outputTokens: checkCount(value.outputTokens, `${where}.outputTokens`),
    reasoningTokens: checkCount(value.reasoningTokens, `${where}.reasoningTokens`),
    cacheReadTokens: checkCount(value.cacheReadTokens, `${where}.cacheReadTokens`),
    cacheWriteTokens: checkCount(value.cacheWriteTokens, `${where}.cacheWriteTokens`),
  };
}

function planThrow(value: unknown, where: string): PlannedTurn['throws'] {
  if (value === undefined) return undefined;
  if (typeof value === 'string') {
    return { message: value, statusCode: undefined, isRetryable: false, retryAfterMs: undefined };
  }
  if (!isRecord(value))
    invalid(where, `expected a message or {message, statusCode?, isRetryable?}, got ${describe(value)}`);
  checkKeys(value, THROW_KEYS, where);
  const statusCode = checkCount(value.statusCode, `${where}.statusCode`, { positive: true, max: 599 });
  if (value.isRetryable !== undefined && typeof value.isRetryable !== 'boolean') {
    invalid(`${where}.isRetryable`, `expected a boolean, got ${describe(value.isRetryable)}`);
  }
  return {
    message: checkString(value.message, `${where}.message`),
    statusCode,
    isRetryable: value.isRetryable === true,
    retryAfterMs: checkCount(value.retryAfterMs, `${where}.retryAfterMs`, { max: MAX_DELAY_MS }),
  };
}

/** Validates one step's result and turns it into a fully resolved plan; throws `invalid-script` on bad data. */
function planTurn(
  step: unknown,
  where: string,
  stepIndex: number,
  defaults: { delayMs: number; chunkSize: number },
): PlannedTurn {
  if (typeof step === 'string') step = { parts: [{ type: 'text', text: step }] };
  if (!isRecord(step))
    invalid(where, `expected a turn object, a string or a function, got ${describe(step)}`);
  checkKeys(step, TURN_KEYS, where);
  const rawParts = step.parts ?? [];
  if (!Array.isArray(rawParts)) invalid(`${where}.parts`, `expected an array, got ${describe(rawParts)}`);
  const parts = rawParts.map((part: unknown, i) => planPart(part, `${where}.parts[${i}]`, stepIndex, i));
  const ids = new Set<string>();
  for (const part of parts) {
    if (part.type !== 'tool-call') continue;
    if (ids.has(part.toolCallId))
      invalid(`${where}.parts`, `duplicate toolCallId ${describe(part.toolCallId)}`);
    ids.add(part.toolCallId);
  }
  return {
    parts,
    finishReason: planFinish(step.finishReason, `${where}.finishReason`, parts),
    usage: planUsage(step.usage, `${where}.usage`),
    throws: planThrow(step.throws, `${where}.throws`),
    delayMs: checkCount(step.delayMs, `${where}.delayMs`, { max: MAX_DELAY_MS }) ?? defaults.delayMs,
    chunkSize: checkCount(step.chunkSize, `${where}.chunkSize`, { positive: true }) ?? defaults.chunkSize,
  };
}

/** Splits text after whitespace, then cuts long words into pieces of at most `size` code points. */
export function chunkText(text: string, size: number): string[] {
  const chunks: string[] = [];
  for (const word of text.split(/(?<=\s)/u)) {
    if (word === '') continue;
    const points = Array.from(word);
    for (let i = 0; i < points.length; i += size) chunks.push(points.slice(i, i + size).join(''));
  }
  return chunks;
}

function estimateTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

function promptChars(prompt: LanguageModelV3Prompt): number {
  let chars = 0;
  for (const message of prompt) {
    if (typeof message.content === 'string') {
      chars += message.content.length;
      continue;
    }
    for (const part of message.content) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          chars += part.text.length;
          break;
        case 'tool-call':
          chars += safeJsonLength(part.input);
          break;
        case 'tool-result':
          chars += outputText(part.output).length;
          break;
        default:
          chars += 16;
      }
    }
  }
  return chars;
}

function safeJsonLength(value: unknown): number {
  try {
    return (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).length;
  } catch {
    return 0;
  }
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? '';
  } catch {
    return '';
  }
}

function outputText(output: LanguageModelV3ToolResultOutput): string {
  switch (output.type) {
    case 'text':
    case 'error-text':
      return output.value;
    case 'json':
    case 'error-json':
      return safeJson(output.value);
    case 'execution-denied':
      return output.reason ?? 'Execution denied';
    case 'content':
      return output.value.map((item) => (item.type === 'text' ? item.text : `[${item.type}]`)).join('\n');
    default:
      return safeJson(output);
  }
}

const DENIAL = /\bPermission denied for\b/u;

/** Reads the tool results of a prompt, oldest first, as script step functions see them. */
export function promptToolResults(prompt: LanguageModelV3Prompt): ScriptToolResult[] {
  const results: ScriptToolResult[] = [];
  for (const message of prompt) {
    if (message.role !== 'tool' && message.role !== 'assistant') continue;
    for (const part of message.content) {
      if (part.type !== 'tool-result') continue;
      const text = outputText(part.output);
      const kind = part.output.type;
      const denied = kind === 'execution-denied' || DENIAL.test(text);
      results.push({
        toolCallId: part.toolCallId,
        toolName: part.toolName,
        isError: denied || kind === 'error-text' || kind === 'error-json',
        denied,
        text,
      });
    }
  }
  return results;
}

function buildContext(options: LanguageModelV3CallOptions, requestIndex: number): ScriptContext {
  const prompt = options.prompt;
  let lastAssistant = -1;
  let lastUserText = '';
  prompt.forEach((message, i) => {
    if (message.role === 'assistant') lastAssistant = i;
    if (message.role === 'user') {
      lastUserText = message.content
        .map((part) => (part.type === 'text' ? part.text : ''))
        .filter((text) => text !== '')
        .join('\n');
    }
  });
  return {
    prompt,
    requestIndex,
    toolResults: promptToolResults(prompt.slice(lastAssistant + 1)),
    allToolResults: promptToolResults(prompt),
    lastUserText,
    toolNames: (options.tools ?? []).map((tool) => tool.name),
  };
}

function usageOf(turn: PlannedTurn, prompt: LanguageModelV3Prompt): LanguageModelV3Usage {
  let textChars = 0;
  let reasoningChars = 0;
  for (const part of turn.parts) {
    if (part.type === 'text') textChars += part.text.length;
    else if (part.type === 'reasoning') reasoningChars += part.text.length;
    else if (part.type === 'tool-call') textChars += part.input.length;
  }
  const u = turn.usage;
  const input = u.inputTokens ?? estimateTokens(promptChars(prompt));
  const cacheRead = Math.min(u.cacheReadTokens ?? 0, input);
  const cacheWrite = u.cacheWriteTokens ?? 0;
  const reasoning = u.reasoningTokens ?? estimateTokens(reasoningChars);
  const output = u.outputTokens ?? estimateTokens(textChars) + reasoning;
  return {
    inputTokens: { total: input, noCache: input - cacheRead, cacheRead, cacheWrite },
    outputTokens: { total: output, text: Math.max(0, output - reasoning), reasoning },
  };
}

/** Expands a planned turn into the exact V3 stream parts it produces (without the finish part's timing). */
function streamParts(
  turn: PlannedTurn,
  requestIndex: number,
  modelId: string,
  prompt: LanguageModelV3Prompt,
) {
  const out: LanguageModelV3StreamPart[] = [
    { type: 'stream-start', warnings: [] },
    { type: 'response-metadata', id: `scripted-${requestIndex}`, modelId },
  ];
  turn.parts.forEach((part, i) => {
    switch (part.type) {
      case 'text':
      case 'reasoning': {
        const id = `${part.type === 'text' ? 'txt' : 'rsn'}-${requestIndex}-${i}`;
        out.push({ type: `${part.type}-start`, id });
        for (const delta of chunkText(part.text, turn.chunkSize))
          out.push({ type: `${part.type}-delta`, id, delta });
        out.push({ type: `${part.type}-end`, id });
        break;
      }
      case 'tool-call': {
        const id = part.toolCallId;
        out.push({ type: 'tool-input-start', id, toolName: part.toolName });
        for (const delta of chunkText(part.input, turn.chunkSize))
          out.push({ type: 'tool-input-delta', id, delta });
        out.push({ type: 'tool-input-end', id });
        out.push({ type: 'tool-call', toolCallId: id, toolName: part.toolName, input: part.input });
        break;
      }
      case 'error':
        out.push({ type: 'error', error: new Error(part.message) });
        break;
      default:
        assertNever(part, 'scripted part');
    }
  });
  out.push({ type: 'finish', finishReason: turn.finishReason, usage: usageOf(turn, prompt) });
  return out;
}

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('The operation was aborted.', 'AbortError');
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortReason(signal));
    const onAbort = () => {
      clearTimeout(timer);
      reject(abortReason(signal as AbortSignal));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

class ScriptedLanguageModel implements ScriptedModel {
  readonly specificationVersion = 'v3';
  readonly provider: string;
  readonly modelId: string;
  readonly supportedUrls: Record<string, RegExp[]> = {};
  readonly #steps: readonly (PlannedTurn | ((context: ScriptContext) => ScriptTurn | string))[];
  readonly #defaults: { delayMs: number; chunkSize: number };
  readonly #exhaustedText: string;
  readonly #disableDelays: boolean;
  #cursor = 0;
  #prompts: LanguageModelV3Prompt[] = [];

  constructor(script: unknown, options: ScriptedModelOptions) {
    if (!Array.isArray(script)) invalid('script', `expected an array of steps, got ${describe(script)}`);
    if (!isRecord(options)) invalid('options', `expected an object, got ${describe(options)}`);
    this.modelId =
      options.modelId === undefined ? 'scripted' : checkString(options.modelId, 'options.modelId');
    this.provider =
      options.provider === undefined
        ? 'codeagent.scripted'
        : checkString(options.provider, 'options.provider');
    this.#exhaustedText =
      options.exhaustedText === undefined
        ? SCRIPT_EXHAUSTED_TEXT
        : checkString(options.exhaustedText, 'options.exhaustedText');
    if (options.disableDelays !== undefined && typeof options.disableDelays !== 'boolean') {
      invalid('options.disableDelays', `expected a boolean, got ${describe(options.disableDelays)}`);
    }
    this.#disableDelays = options.disableDelays === true;
    this.#defaults = {
      delayMs: checkCount(options.delayMs, 'options.delayMs', { max: MAX_DELAY_MS }) ?? 0,
      chunkSize: checkCount(options.chunkSize, 'options.chunkSize', { positive: true }) ?? DEFAULT_CHUNK_SIZE,
    };
    // Static steps are validated now, so a bad script fails at construction, not mid-conversation.
    this.#steps = script.map((step: unknown, i) =>
      typeof step === 'function'
        ? (step as (context: ScriptContext) => ScriptTurn | string)
        : planTurn(step, `script[${i}]`, i, this.#defaults),
    );
  }

  get requestCount(): number {
    return this.#prompts.length;
  }

  get remaining(): number {
    return Math.max(0, this.#steps.length - this.#cursor);
  }

  get prompts(): readonly LanguageModelV3Prompt[] {
    return this.#prompts;
  }

  reset(): void {
    this.#cursor = 0;
    this.#prompts = [];
  }

  /** Consumes the next step synchronously (so concurrent requests get distinct steps) and resolves it. */
  #next(options: LanguageModelV3CallOptions): { turn: PlannedTurn; requestIndex: number } {
    const requestIndex = this.#prompts.length;
    this.#prompts.push(options.prompt);
    const index = this.#cursor;
    if (index >= this.#steps.length) {
      return {
        requestIndex,
        turn: planTurn(this.#exhaustedText, 'exhaustedText', requestIndex, this.#defaults),
      };
    }
    this.#cursor += 1;
    const step = this.#steps[index] as PlannedTurn | ((context: ScriptContext) => ScriptTurn | string);
    if (typeof step !== 'function') return { turn: step, requestIndex };
    const answer = step(buildContext(options, requestIndex));
    return { turn: planTurn(answer, `script[${index}](context)`, index, this.#defaults), requestIndex };
  }

  #failure(spec: NonNullable<PlannedTurn['throws']>): Error {
    if (spec.statusCode === undefined) return new Error(spec.message);
    return new APICallError({
      message: spec.message,
      url: `scripted://${this.modelId}`,
      requestBodyValues: {},
      statusCode: spec.statusCode,
      isRetryable: spec.isRetryable,
      ...(spec.retryAfterMs === undefined
        ? {}
        : { responseHeaders: { 'retry-after-ms': String(spec.retryAfterMs) } }),
    });
  }

  async doGenerate(options: LanguageModelV3CallOptions): Promise<LanguageModelV3GenerateResult> {
    if (options.abortSignal?.aborted) throw abortReason(options.abortSignal);
    const { turn, requestIndex } = this.#next(options);
    if (turn.throws !== undefined) throw this.#failure(turn.throws);
    const content: LanguageModelV3Content[] = [];
    for (const part of turn.parts) {
      switch (part.type) {
        case 'text':
        case 'reasoning':
          content.push({ type: part.type, text: part.text });
          break;
        case 'tool-call':
          content.push({
            type: 'tool-call',
            toolCallId: part.toolCallId,
            toolName: part.toolName,
            input: part.input,
          });
          break;
        case 'error':
          throw new Error(part.message);
        default:
          assertNever(part, 'scripted part');
      }
    }
    return {
      content,
      finishReason: turn.finishReason,
      usage: usageOf(turn, options.prompt),
      response: { id: `scripted-${requestIndex}`, modelId: this.modelId },
      warnings: [],
    };
  }

  async doStream(options: LanguageModelV3CallOptions): Promise<LanguageModelV3StreamResult> {
    const signal = options.abortSignal;
    if (signal?.aborted) throw abortReason(signal);
    const { turn, requestIndex } = this.#next(options);
    if (turn.throws !== undefined) throw this.#failure(turn.throws);
    const parts = streamParts(turn, requestIndex, this.modelId, options.prompt);
    const delayMs = this.#disableDelays ? 0 : turn.delayMs;
    let index = 0;
    const stream = new ReadableStream<LanguageModelV3StreamPart>({
      // Without delays every part is queued at once (cheapest for the consumer); with delays one per pull.
      start: (controller) => {
        if (delayMs > 0) return;
        for (const part of parts) controller.enqueue(part);
        controller.close();
      },
      pull: async (controller) => {
        const part = parts[index];
        if (part === undefined) return;
        index += 1;
        await sleep(delayMs, signal);
        controller.enqueue(part);
        if (index === parts.length) controller.close();
      },
    });
    return { stream, request: { body: { script: requestIndex } } };
  }
}

/**
 * Creates a deterministic `LanguageModelV3` that answers each request with the next step of `script`
 * (a step function sees the prompt, so it can react to a tool result or a denial); once the script is
 * exhausted it answers `exhaustedText` instead of throwing. Throws `ProvidersError` (`invalid-script`)
 * for a malformed script.
 */
export function scriptedModel(script: Script, options: ScriptedModelOptions = {}): ScriptedModel {
  return new ScriptedLanguageModel(script, options);
}
