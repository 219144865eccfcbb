import { stat } from 'node:fs/promises';
import { ToolError } from './errors.js';
import { languageFromPath, looksBinary, numberLines, splitLines, truncateLine } from './text.js';
import { openVerified, readVerified } from './open.js';
import type { Workspace } from './workspace.js';

/** Arguments of the Read tool. */
export interface ReadArgs {
  /** File to read, relative to the session cwd or absolute (inside a workspace root). */
  file_path: string;
  /** 1-based line to start at (0 counts as 1). */
  offset?: number | undefined;
  /** Maximum number of lines to return. */
  limit?: number | undefined;
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}

/** Limits of the Read tool. */
export interface ReadLimits extends ImageLimits {
  /** Files larger than this need `offset`/`limit` (default 256 KiB). */
  maxBytes?: number;
  /** Lines returned when no `limit` is given (default 2000). */
  defaultLimit?: number;
  /** Longer lines are cut with a marker (default 2000 characters). */
  maxLineLength?: number;
}

/** Limits of image reads. */
export interface ImageLimits {
  /** Images larger than this are refused (default 5 MiB). */
  maxImageBytes?: number;
}

/** What Read produced for an image: a one-line model value and the data for the `image` artifact. */
export interface ImageOutcome {
  /** What the model sees: the path, type and size (never the bytes). */
  value: string;
  /** Absolute path read. */
  path: string;
  /** Path shown to people. */
  displayPath: string;
  /** The image's MIME type, from its content. */
  mime: string;
  /** The file's bytes, base64. */
  b64: string;
  /** Size in bytes. */
  bytes: number;
}

/** MIME type of PNG, JPEG, GIF or WebP content from its first bytes (never from the file name), else undefined. */
export function imageMimeOf(head: Uint8Array): string | undefined {
  const at = (i: number) => head[i];
  const ascii = (from: number, text: string) => [...text].every((c, i) => at(from + i) === c.charCodeAt(0));
  if ([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a].every((b, i) => at(i) === b)) return 'image/png';
  if (at(0) === 0xff && at(1) === 0xd8 && at(2) === 0xff) return 'image/jpeg';
  if (ascii(0, 'GIF87a') || ascii(0, 'GIF89a')) return 'image/gif';
  if (ascii(0, 'RIFF') && ascii(8, 'WEBP')) return 'image/webp';
  return undefined;
}

/**
 * Reads an image file inside the workspace when its content is PNG, JPEG, GIF or WebP; answers `undefined` for
 * anything else (so Read goes on with text). Refuses images over the size limit with a clear error.
 */
export async function readImageFile(
  workspace: Workspace,
  args: ReadArgs,
  limits: ImageLimits = {},
): Promise<ImageOutcome | undefined> {
  const maxImageBytes = limits.maxImageBytes ?? 5 * 1024 * 1024;
  const resolved = await workspace.resolve(args.file_path);
  if (!resolved.exists) return undefined;
  const info = await stat(resolved.real);
  if (!info.isFile() || info.size === 0) return undefined;
  const mime = imageMimeOf(await readSample(resolved.real, info.size, resolved.display));
  if (mime === undefined) return undefined;
  if (info.size > maxImageBytes) {
    throw new ToolError(
      'file-too-large',
      `${resolved.display} is a ${formatBytes(info.size)} ${mime} image, over the ${formatBytes(maxImageBytes)} image limit`,
    );
  }
  const bytes = await readVerified(resolved.real, resolved.display);
  return {
    value: `[Image ${resolved.display}: ${mime}, ${formatBytes(bytes.length)}]`,
    path: resolved.absolute,
    displayPath: resolved.display,
    mime,
    b64: bytes.toString('base64'),
    bytes: bytes.length,
  };
}

/** What Read produced: the model value and the data for the `code` artifact. */
export interface ReadOutcome {
  /** `cat -n` style numbered lines plus a note when there is more. */
  value: string;
  /** Absolute path read. */
  path: string;
  /** Path shown to people. */
  displayPath: string;
  /** The raw text of the lines returned (long lines cut). */
  text: string;
  /** Highlighting language guessed from the extension. */
  lang: string;
  /** First line returned (1-based). */
  startLine: number;
  /** Last line returned (1-based; `startLine - 1` when none). */
  endLine: number;
  /** Total lines in the file when known (always for files under the size limit). */
  totalLines: number | undefined;
}

const SAMPLE_BYTES = 8192;

const formatBytes = (n: number): string =>
  n >= 1024 * 1024
    ? `${(n / 1024 / 1024).toFixed(1)} MB`
    : n >= 1024
      ? `${(n / 1024).toFixed(1)} KB`
      : `${n} bytes`;

async function readSample(file: string, size: number, display: string): Promise<Buffer> {
  const handle = await openVerified(file, display);
  try {
    const buf = Buffer.alloc(Math.min(SAMPLE_BYTES, size));
    const { bytesRead } = await handle.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

/**
 * Reads lines `start .. start+count-1` of a large file in 64 KiB chunks, keeping at most
 * `maxLineLength + 1` characters of any line, so memory stays bounded even for a huge single-line file.
 */
async function streamLines(
  file: string,
  start: number,
  count: number,
  maxLineLength: number,
  signal: AbortSignal | undefined,
  display: string,
): Promise<{ lines: string[]; more: boolean }> {
  const handle = await openVerified(file, display);
  const stream = handle.createReadStream({ encoding: 'utf8', highWaterMark: 64 * 1024 });
  const keep = maxLineLength + 1;
  const lines: string[] = [];
  let n = 1;
  let cur = '';
  let curLen = 0;
  let more = false;
  const wanted = (): boolean => n >= start && lines.length < count;
  let endsWithCr = false;
  const take = (piece: string): void => {
    if (!wanted() || piece === '') return;
    if (cur.length < keep) cur += piece.slice(0, keep - cur.length);
    curLen += piece.length;
    endsWithCr = piece.endsWith('\r');
  };
  const finish = (terminated: boolean): void => {
    if (wanted()) {
      let line = cur;
      let full = curLen;
      if (n === 1 && line.startsWith('\uFEFF')) {
        line = line.slice(1);
        full -= 1;
      }
      if (terminated && endsWithCr) {
        full -= 1;
        if (line.length > full) line = line.slice(0, full);
      }
      lines.push(truncateLine(line, maxLineLength, full));
    }
    n += 1;
    cur = '';
    curLen = 0;
    endsWithCr = false;
  };
  try {
    outer: for await (const chunk of stream as AsyncIterable<string>) {
      throwIfAborted(signal);
      let from = 0;
      for (;;) {
        if (n >= start && lines.length >= count && from < chunk.length) {
          more = true;
          break outer;
        }
        const nl = chunk.indexOf('\n', from);
        if (nl === -1) {
          take(chunk.slice(from));
          break;
        }
        take(chunk.slice(from, nl));
        finish(true);
        from = nl + 1;
      }
    }
    if (!more && curLen > 0) {
      if (wanted()) finish(false);
      else if (n >= start) more = true;
    }
  } finally {
    stream.destroy();
  }
  return { lines, more };
}

/** Throws the `aborted` {@link ToolError} once `signal` fired. */
function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ToolError('aborted', 'Read interrupted: the call was aborted');
}

/**
 * Reads a text file inside the workspace, with binary, size and line-length guards; `signal` stops a long read
 * (a huge file read through `offset`/`limit`) between chunks.
 */
export async function readTextFile(
  workspace: Workspace,
  args: ReadArgs,
  limits: ReadLimits = {},
  signal?: AbortSignal,
): Promise<ReadOutcome> {
  throwIfAborted(signal);
  const maxBytes = limits.maxBytes ?? 256 * 1024;
  const defaultLimit = limits.defaultLimit ?? 2000;
  const maxLineLength = limits.maxLineLength ?? 2000;
  const resolved = await workspace.resolve(args.file_path);
  if (!resolved.exists) throw new ToolError('not-found', `File not found: ${resolved.display}`);
  const info = await stat(resolved.real);
  if (info.isDirectory()) {
    throw new ToolError('is-directory', `${resolved.display} is a directory; use Glob to list its files`);
  }
  if (!info.isFile()) throw new ToolError('not-a-file', `${resolved.display} is not a regular file`);
  const sample = await readSample(resolved.real, info.size, resolved.display);
  if (looksBinary(sample)) {
    throw new ToolError(
      'binary-file',
      `${resolved.display} looks like a binary file (${formatBytes(info.size)}); Read only shows text`,
    );
  }
  const start = Math.max(1, Math.floor(args.offset ?? 1));
  const count = Math.max(1, Math.floor(args.limit ?? defaultLimit));
  const ranged = args.offset !== undefined || args.limit !== undefined;
  let selected: string[];
  let more: boolean;
  let totalLines: number | undefined;
  if (info.size > maxBytes) {
    if (!ranged) {
      throw new ToolError(
        'file-too-large',
        `${resolved.display} is ${formatBytes(info.size)}, over the ${formatBytes(maxBytes)} Read limit; pass offset and limit to read part of it, or use Grep`,
      );
    }
    ({ lines: selected, more } = await streamLines(
      resolved.real,
      start,
      count,
      maxLineLength,
      signal,
      resolved.display,
    ));
  } else {
    const all = splitLines(
      (await readVerified(resolved.real, resolved.display)).toString('utf8').replace(/^\uFEFF/, ''),
    );
    totalLines = all.length;
    selected = all.slice(start - 1, start - 1 + count).map((l) => truncateLine(l, maxLineLength));
    more = start - 1 + count < all.length;
  }
  const lines = selected;
  const endLine = start + lines.length - 1;
  let value: string;
  if (lines.length > 0) {
    value = numberLines(lines, start);
    if (more) {
      const of = totalLines === undefined ? '' : ` of ${totalLines}`;
      value += `\n\n[Showing lines ${start}-${endLine}${of}; pass offset=${endLine + 1} to read more]`;
    }
  } else if (totalLines === 0) {
    value = `[${resolved.display} is empty]`;
  } else {
    const of = totalLines === undefined ? '' : `; the file has ${totalLines} lines`;
    value = `[offset ${start} is past the end of ${resolved.display}${of}]`;
  }
  return {
    value,
    path: resolved.absolute,
    displayPath: resolved.display,
    text: lines.join('\n'),
    lang: languageFromPath(resolved.absolute),
    startLine: start,
    endLine,
    totalLines,
  };
}
