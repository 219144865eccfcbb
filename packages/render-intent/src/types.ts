/**
 * What a tool call is about, as a UI groups it (icons, filters). Closed: the ACP kinds a tool may claim.
 */
export type ToolCallKind = 'read' | 'edit' | 'delete' | 'move' | 'search' | 'execute' | 'fetch' | 'other';

/** A file position a UI may follow along; `line` is 1-based. */
export interface FileLocation {
  /** File path (absolute when it comes from the built-in presenters with a session cwd). */
  path: string;
  /** 1-based line number, when the tool knows one. */
  line?: number;
}

/** One file change to draw: `oldText: null` means a new file (or a hunk with no old lines). */
export interface FileDiff {
  /** The file the change applies to. */
  path: string;
  /** The text before the change, or `null` when there was none. */
  oldText: string | null;
  /** The text after the change. */
  newText: string;
}

/** A plain text content block. */
export interface TextContentBlock {
  /** Block tag. */
  type: 'text';
  /** Raw text; renderers escape it at render time. */
  text: string;
}

/** An inline image content block, base64-encoded. */
export interface ImageContentBlock {
  /** Block tag. */
  type: 'image';
  /** The image MIME type, e.g. `image/png`. */
  mime: string;
  /** Base64 image bytes. */
  b64: string;
}

/** The model-vocabulary content a generic card shows. */
export type ContentBlock = TextContentBlock | ImageContentBlock;

/** A call drawn as a generic card: title, optional kind, raw input, content and locations. */
export interface GenericCallView {
  /** Variant tag. */
  card: 'generic';
  /** One-line title shown on the card. */
  title: string;
  /** What the call is about; bridges default it to `other`. */
  kind?: ToolCallKind;
  /** The raw tool input, for UIs that show it. */
  rawInput?: unknown;
  /** Content shown in the card body. */
  content?: ContentBlock[];
  /** Files a UI may follow along. */
  locations?: FileLocation[];
}

/** A call drawn as a terminal card (display only: a UI never runs anything because of it). */
export interface TerminalCallView {
  /** Variant tag. */
  card: 'terminal';
  /** The command line, shown as the title. */
  title: string;
  /** A human description shown above the terminal. */
  description?: string;
  /** The working directory the command runs in. */
  cwd?: string;
}

/** A call drawn as a diff card (inline change / new-file preview). */
export interface DiffCallView {
  /** Variant tag. */
  card: 'diff';
  /** One-line title shown on the card. */
  title: string;
  /** The intended changes, derived from the call's arguments only. */
  diffs: FileDiff[];
  /** Files a UI may follow along. */
  locations?: FileLocation[];
}

/** How a UI draws a tool call: a closed union tagged by `card`. */
export type ToolCallView = GenericCallView | TerminalCallView | DiffCallView;

/** A result drawn as a generic card. */
export interface GenericResultView {
  /** Variant tag. */
  card: 'generic';
  /** A replacement title, when the result changes it. */
  title?: string;
  /** Content shown in the card body. */
  content?: ContentBlock[];
}

/** A result drawn as terminal output with its exit status. */
export interface TerminalResultView {
  /** Variant tag. */
  card: 'terminal';
  /** A replacement title, when the result changes it. */
  title?: string;
  /** The command's output. */
  output?: string;
  /** The exit code, when the process exited. */
  exitCode?: number;
  /** The signal name, when the process was killed. */
  signal?: string;
}

/** A result drawn as the hunks actually applied, replacing the call-time diff. */
export interface DiffResultView {
  /** Variant tag. */
  card: 'diff';
  /** A replacement title, when the result changes it. */
  title?: string;
  /** The applied changes (one entry per hunk, with context lines). */
  diffs: FileDiff[];
}

/** How a UI draws a tool result: a closed union tagged by `card`. */
export type ToolResultView = GenericResultView | TerminalResultView | DiffResultView;

/** The tag shared by both unions. */
export type Card = ToolCallView['card'];

/** The three card tags, in a stable order. */
export const CARDS: readonly Card[] = Object.freeze(['generic', 'terminal', 'diff'] as const);

/** The eight call kinds, in a stable order. */
export const TOOL_CALL_KINDS: readonly ToolCallKind[] = Object.freeze([
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'fetch',
  'other',
] as const);
