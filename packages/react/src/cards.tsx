import {
  assertNever,
  type ContentBlock,
  type FileDiff,
  isContentBlock,
  isFileDiff,
  isToolCallView,
  isToolResultView,
  TOOL_CALL_KINDS,
  type ToolCallKind,
  type ToolCallView,
  type ToolResultView as ResultViewIntent,
} from '@codeagent/render-intent';
import { toolResultArtifact } from '@codeagent/artifact-schema';
import type { ReactNode } from 'react';
import { type DiffHunk, diffHunks, locateLines } from './diff-model.js';
import { DiffView } from './diff-view.js';
import { KindIcon } from './icons.js';
import { ImageList } from './renderers/image.js';
import { TerminalOutput } from './terminal-output.js';
import { displayJson, inlineText, isDict, plainText, read, readString } from './text.js';
import { VisibleText } from './visible.js';

/** Where a tool call is in its life. */
export type ToolCallStatus = 'pending' | 'running' | 'done' | 'failed' | 'denied';

/** Props of {@link ToolCallCard}. */
export interface ToolCallCardProps {
  /** The call's render intent (from `onToolRequest`); untrusted strings inside. */
  view: ToolCallView;
  /** The result's render intent (from `onToolResult`), once it came. */
  result?: ResultViewIntent | undefined;
  /** Where the call is in its life. */
  status: ToolCallStatus;
  /** Terminal output streamed so far (terminal cards); the result's `output` wins once it came. */
  output?: string | undefined;
  /**
   * The artifact body (e.g. a `ToolResultView`), shown below the card's own content. It replaces a generic
   * result's content blocks (the same result, drawn richer); terminal output and applied hunks stay.
   */
  children?: ReactNode;
  /**
   * The tool result or tool-result event the result view came from. When its artifact is a v1 `diff` with
   * the whole old text, a diff card numbers the applied hunks with their real line numbers.
   */
  source?: unknown;
  /** Show every untrusted string with invisible characters and whitespace runs made visible (approvals). */
  reveal?: boolean | undefined;
}

const STATUS_LABEL: Readonly<Record<ToolCallStatus, string>> = {
  pending: 'Pending',
  running: 'Running',
  done: 'Done',
  failed: 'Failed',
  denied: 'Denied',
};

const isKind = (x: unknown): x is ToolCallKind =>
  typeof x === 'string' && (TOOL_CALL_KINDS as readonly string[]).includes(x);

function Text({ text, reveal, inline }: { text: unknown; reveal: boolean; inline?: boolean }): ReactNode {
  if (reveal) return <VisibleText text={text} />;
  return inline === true ? inlineText(text) : plainText(text);
}

function Locations({ locations, reveal }: { locations: unknown; reveal: boolean }): ReactNode {
  if (!Array.isArray(locations) || locations.length === 0) return null;
  const items = locations.filter((l) => typeof read(l, 'path') === 'string');
  if (items.length === 0) return null;
  return (
    <ul className="ca-locations">
      {items.map((loc, i) => {
        const line = read(loc, 'line');
        return (
          // biome-ignore lint/suspicious/noArrayIndexKey: locations may repeat
          <li key={i} className="ca-location">
            <Text text={read(loc, 'path')} reveal={reveal} inline />
            {typeof line === 'number' && Number.isSafeInteger(line) && line > 0 ? (
              <span className="ca-location-line">:{line}</span>
            ) : null}
          </li>
        );
      })}
    </ul>
  );
}

/** The terminal fallback of render-intent (`terminalFallbackText`): drawn as terminal output again. */
const CONSOLE_FENCE = /^(`{3,})console\n([\s\S]*)\n\1$/;

function Content({ content, reveal }: { content: unknown; reveal: boolean }): ReactNode {
  if (!Array.isArray(content)) return null;
  const blocks = content.filter(isContentBlock) as ContentBlock[];
  if (blocks.length === 0) return null;
  return (
    <div className="ca-card-content">
      {blocks.map((block, i) => {
        const fenced = block.type === 'text' && !reveal ? CONSOLE_FENCE.exec(block.text) : null;
        if (fenced !== null) {
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
          return <TerminalOutput key={i} output={fenced[2] ?? ''} />;
        }
        return block.type === 'text' ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
          <pre key={i} className="ca-card-text">
            <Text text={block.text} reveal={reveal} />
          </pre>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: blocks are positional
          <ImageList key={i} images={[block]} alt="tool content" />
        );
      })}
    </div>
  );
}

/** The full old text of a file from a result's v1 diff artifact, keyed by its path (or `''`). */
function sourceText(source: unknown): { path: string | undefined; old: string } | undefined {
  if (source === undefined) return undefined;
  const artifact = toolResultArtifact(source);
  if (artifact === null || artifact.kind !== 'diff' || !isDict(artifact.payload)) return undefined;
  const old = readString(artifact.payload, 'old');
  return old === undefined ? undefined : { path: readString(artifact.payload, 'path'), old };
}

const pathMatches = (diffPath: string, artifactPath: string | undefined): boolean =>
  artifactPath === undefined ||
  diffPath === artifactPath ||
  diffPath.endsWith(`/${artifactPath}`) ||
  artifactPath.endsWith(`/${diffPath}`);

interface FileHunks {
  path: string;
  isNew: boolean;
  hunks: DiffHunk[];
}

/**
 * Turns file diffs into drawable hunks. Hunks of one path are applied hunks in file order: with the file's old
 * text they are located there (real line numbers, the new side shifted by earlier hunks); a new file starts at
 * line 1; otherwise the positions are unknown and no numbers are shown.
 */
function fileHunks(diffs: readonly FileDiff[], source: unknown): FileHunks[] {
  const before = sourceText(source);
  const out: FileHunks[] = [];
  const cursor = new Map<string, { from: number; shift: number }>();
  for (const d of diffs) {
    const path = inlineText(d.path);
    const isNew = d.oldText === null;
    const oldText = d.oldText ?? '';
    let oldStart: number | null = null;
    let newStart: number | null = null;
    const state = cursor.get(path) ?? { from: 0, shift: 0 };
    if (isNew && (before === undefined || before.old === '')) {
      oldStart = 1;
      newStart = 1;
    } else if (before !== undefined && pathMatches(d.path, before.path)) {
      const at = locateLines(before.old, oldText, state.from);
      if (at !== undefined) {
        oldStart = at.line;
        newStart = at.line + state.shift;
        state.from = at.end;
      }
    }
    const hunks = diffHunks(oldText, d.newText, { context: Number.POSITIVE_INFINITY, oldStart, newStart });
    const lines = (text: string): number =>
      text === '' ? 0 : text.split('\n').length - (text.endsWith('\n') ? 1 : 0);
    state.shift += lines(d.newText) - lines(oldText);
    cursor.set(path, state);
    const last = out[out.length - 1];
    // Consecutive hunks of one file are drawn as one diff.
    if (last !== undefined && last.path === path && !isNew && !last.isNew) last.hunks.push(...hunks);
    else out.push({ path, isNew, hunks });
  }
  return out;
}

// Drawable hunks per diffs array and source (a transcript draws the same card each time its row mounts).
const drawn = new WeakMap<readonly unknown[], { source: unknown; files: FileHunks[] }>();

function Diffs({ diffs, source }: { diffs: unknown; source: unknown }): ReactNode {
  if (!Array.isArray(diffs)) return null;
  let files = drawn.get(diffs);
  if (files === undefined || files.source !== source) {
    const valid = diffs.filter(isFileDiff) as FileDiff[];
    files = { source, files: valid.length === 0 ? [] : fileHunks(valid, source) };
    drawn.set(diffs, files);
  }
  if (files.files.length === 0) return null;
  return (
    <div className="ca-card-diffs">
      {files.files.map((file, i) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: one path may have several hunks
        <DiffView key={i} path={file.path} hunks={file.hunks} isNew={file.isNew} />
      ))}
    </div>
  );
}

function ExitPill({ result }: { result: ResultViewIntent | undefined }): ReactNode {
  if (result?.card !== 'terminal') return null;
  const signal = read(result, 'signal');
  const code = read(result, 'exitCode');
  if (typeof signal === 'string' && signal !== '') {
    const name = inlineText(signal);
    return (
      <span className="ca-exit ca-exit-signal" title={name}>
        {name}
      </span>
    );
  }
  if (typeof code === 'number' && Number.isSafeInteger(code)) {
    return <span className={code === 0 ? 'ca-exit ca-exit-ok' : 'ca-exit ca-exit-fail'}>exit {code}</span>;
  }
  return null;
}

function CallBody({
  view,
  reveal,
  hideDiffs,
}: {
  view: ToolCallView;
  reveal: boolean;
  hideDiffs: boolean;
}): ReactNode {
  switch (view.card) {
    case 'generic':
      return (
        <>
          <Locations locations={view.locations} reveal={reveal} />
          <Content content={view.content} reveal={reveal} />
          {view.rawInput === undefined ? null : (
            <details className="ca-raw-input" open={reveal}>
              <summary>Input</summary>
              <pre>
                <Text text={displayJson(view.rawInput)} reveal={reveal} />
              </pre>
            </details>
          )}
        </>
      );
    case 'terminal':
      return (
        <>
          {view.description === undefined ? null : (
            <p className="ca-terminal-description">
              <Text text={view.description} reveal={reveal} />
            </p>
          )}
          {/* The header shows the command on one line; the exact text is repeated when that line is not all of it. */}
          {reveal || /[\n\t]|\s{2}/.test(view.title) || view.title.length > 80 ? (
            <pre className="ca-terminal-command">
              <span className="ca-terminal-prompt" aria-hidden="true">
                ${' '}
              </span>
              <Text text={view.title} reveal={reveal} />
            </pre>
          ) : null}
          {view.cwd === undefined ? null : (
            <p className="ca-terminal-cwd">
              in <Text text={view.cwd} reveal={reveal} inline />
            </p>
          )}
        </>
      );
    case 'diff':
      return (
        <>
          {/* Each diff already names its file: list only locations that add something (another file, a line). */}
          <Locations locations={extraLocations(view.locations, view.diffs)} reveal={reveal} />
          {hideDiffs ? null : <Diffs diffs={view.diffs} source={undefined} />}
          {reveal ? <RevealDiffs diffs={view.diffs} /> : null}
        </>
      );
    default:
      return assertNever(view, 'ToolCallCard');
  }
}

/** For an approval: the exact new text of each change, nothing hidden. */
function RevealDiffs({ diffs }: { diffs: unknown }): ReactNode {
  if (!Array.isArray(diffs)) return null;
  const valid = diffs.filter(isFileDiff) as FileDiff[];
  return valid.map((d, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: one path may have several hunks
    <details key={i} className="ca-reveal-diff" open>
      <summary>
        Exact text for <VisibleText text={d.path} />
      </summary>
      <pre>
        <VisibleText text={d.newText} />
      </pre>
    </details>
  ));
}

/** Locations of a diff card other than the bare paths its diffs already show. */
function extraLocations(locations: unknown, diffs: unknown): unknown {
  if (!Array.isArray(locations) || !Array.isArray(diffs)) return locations;
  const shown = new Set(diffs.map((d) => read(d, 'path')));
  return locations.filter((loc) => read(loc, 'line') !== undefined || !shown.has(read(loc, 'path')));
}

function ResultBody({
  result,
  output,
  source,
  call,
  hasBody,
}: {
  result: ResultViewIntent | undefined;
  output: string | undefined;
  source: unknown;
  hasBody: boolean;
  call: ToolCallView;
}): ReactNode {
  if (result === undefined) {
    return call.card === 'terminal' && output !== undefined && output !== '' ? (
      <TerminalOutput output={output} />
    ) : null;
  }
  switch (result.card) {
    case 'generic':
      // The artifact body (children), when given, is the richer view of the same result.
      return hasBody ? null : <Content content={result.content} reveal={false} />;
    case 'terminal': {
      const text = typeof result.output === 'string' ? result.output : (output ?? '');
      return text === '' ? null : <TerminalOutput output={text} />;
    }
    case 'diff':
      return <Diffs diffs={result.diffs} source={source} />;
    default:
      return assertNever(result, 'ToolCallCard result');
  }
}

/**
 * A tool call card for a render-intent view: generic (title, kind icon, locations, raw input collapsed),
 * terminal (command, cwd, streamed output with SGR colours, exit pill) or diff (hunks with line numbers; the
 * applied hunks replace the call-time diff once the result came). Every string in the views is untrusted and
 * shown as text.
 */
export function ToolCallCard(props: ToolCallCardProps): ReactNode {
  const { view, result } = checkedViews(props.view, props.result);
  return <Card {...props} view={view} result={result} />;
}

const safely = (check: () => boolean): boolean => {
  try {
    return check();
  } catch {
    return false;
  }
};

/**
 * Views restored from storage or sent by a third party may be malformed: a bad call view becomes a generic
 * card with the raw view as its input, a bad result view is ignored (the artifact body still shows).
 */
function checkedViews(
  view: unknown,
  result: unknown,
): { view: ToolCallView; result: ResultViewIntent | undefined } {
  const goodView: ToolCallView = safely(() => isToolCallView(view))
    ? (view as ToolCallView)
    : { card: 'generic', title: readString(view, 'title') ?? 'Tool call', kind: 'other', rawInput: view };
  const goodResult =
    result === undefined || !safely(() => isToolResultView(result))
      ? undefined
      : (result as ResultViewIntent);
  return { view: goodView, result: goodResult };
}

function Card({
  view,
  result,
  status,
  output,
  children,
  source,
  reveal = false,
}: ToolCallCardProps): ReactNode {
  const kind: ToolCallKind =
    view.card === 'generic'
      ? isKind(view.kind)
        ? view.kind
        : 'other'
      : view.card === 'terminal'
        ? 'execute'
        : 'edit';
  const title =
    result !== undefined && typeof result.title === 'string' && result.title !== ''
      ? result.title
      : view.title;
  const appliedDiff = result?.card === 'diff' && Array.isArray(result.diffs) && result.diffs.length > 0;
  return (
    <section
      className="ca-card"
      data-card={view.card}
      data-status={status}
      aria-label={`${STATUS_LABEL[status]}: ${inlineText(title)}`}
    >
      <header className="ca-card-header">
        <KindIcon kind={kind} />
        <span className="ca-card-title">
          {reveal ? (
            <VisibleText text={title} />
          ) : view.card === 'terminal' ? (
            <code>{inlineText(title)}</code>
          ) : (
            inlineText(title)
          )}
        </span>
        <ExitPill result={result} />
        <span className={`ca-status ca-status-${status}`}>{STATUS_LABEL[status]}</span>
      </header>
      <div className="ca-card-body">
        <CallBody view={view} reveal={reveal} hideDiffs={appliedDiff} />
        <ResultBody
          result={result}
          output={output}
          source={source}
          call={view}
          hasBody={children !== undefined && children !== null && children !== false}
        />
        {children === undefined || children === null ? null : (
          <div className="ca-card-artifact">{children}</div>
        )}
      </div>
    </section>
  );
}
