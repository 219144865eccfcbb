import { isRecord } from '@codeagent/artifact-schema/internal';
import {
  mkdirSync,
  openSync,
  closeSync,
  fstatSync,
  readSync,
  renameSync,
  writeFileSync,
  constants,
} from 'node:fs';
import { dirname } from 'node:path';

/**
 * What reading one SKILL.md produced, before validation against its folder: the expensive part (UTF-8 decoding
 * and YAML parsing) that the persistent index keeps, so that validation can run again on load.
 */
export type FileOutcome =
  | {
      readonly ok: false;
      readonly code:
        | 'not-utf8'
        | 'missing-frontmatter'
        | 'unterminated-frontmatter'
        | 'invalid-yaml'
        | 'too-large';
      readonly reason: string;
    }
  | {
      readonly ok: true;
      readonly data: unknown;
      readonly recovered: readonly string[];
      readonly emptyBody: boolean;
    };

/** One indexed file: the stat key and size cap it was read under, and its outcome. */
export interface IndexEntry {
  readonly key: string;
  readonly cap: number;
  readonly outcome: FileOutcome;
}

const FORMAT = 'codeagent.skills-index';
const VERSION = 1;
/** An index larger than this is ignored (it is a cache: a few thousand skills take well under 8 MiB). */
const MAX_INDEX_BYTES = 64 * 1024 * 1024;

const FAIL_CODES = new Set([
  'not-utf8',
  'missing-frontmatter',
  'unterminated-frontmatter',
  'invalid-yaml',
  'too-large',
]);

/** Narrows one stored entry; anything unexpected drops it (the file is then simply read again). */
function readEntry(v: unknown): IndexEntry | undefined {
  if (!isRecord(v) || typeof v.key !== 'string' || typeof v.cap !== 'number' || !isRecord(v.outcome))
    return undefined;
  const o = v.outcome;
  if (o.ok === false) {
    if (typeof o.code !== 'string' || !FAIL_CODES.has(o.code) || typeof o.reason !== 'string')
      return undefined;
    return { key: v.key, cap: v.cap, outcome: { ok: false, code: o.code as never, reason: o.reason } };
  }
  if (o.ok !== true || typeof o.emptyBody !== 'boolean' || !Array.isArray(o.recovered)) return undefined;
  if (!o.recovered.every((f): f is string => typeof f === 'string')) return undefined;
  return {
    key: v.key,
    cap: v.cap,
    outcome: { ok: true, data: o.data, recovered: o.recovered, emptyBody: o.emptyBody },
  };
}

/**
 * Loads an index file written by {@link saveIndex}. Never throws: a missing, unreadable, oversized, non-regular
 * (FIFO, device: opened non-blocking and refused) or malformed file gives an empty index.
 */
export function loadIndex(file: string): Map<string, IndexEntry> {
  const out = new Map<string, IndexEntry>();
  let fd: number | undefined;
  try {
    fd = openSync(file, constants.O_RDONLY | constants.O_NONBLOCK | (constants.O_NOFOLLOW ?? 0));
    const s = fstatSync(fd);
    if (!s.isFile() || s.size > MAX_INDEX_BYTES) return out;
    const bytes = Buffer.alloc(s.size);
    let read = 0;
    while (read < bytes.length) {
      const n = readSync(fd, bytes, read, bytes.length - read, read);
      if (n === 0) break;
      read += n;
    }
    const parsed: unknown = JSON.parse(bytes.subarray(0, read).toString('utf8'));
    if (
      !isRecord(parsed) ||
      parsed.format !== FORMAT ||
      parsed.version !== VERSION ||
      !isRecord(parsed.files)
    ) {
      return out;
    }
    for (const [path, value] of Object.entries(parsed.files)) {
      const entry = readEntry(value);
      if (entry) out.set(path, entry);
    }
  } catch {
    out.clear();
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
  return out;
}

/** Writes the index atomically (temporary file + rename). Failures are ignored: the index is only a cache. */
export function saveIndex(file: string, entries: ReadonlyMap<string, IndexEntry>): void {
  const tmp = `${file}.${process.pid}.${Date.now()}.tmp`;
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(
      tmp,
      JSON.stringify({ format: FORMAT, version: VERSION, files: Object.fromEntries(entries) }),
      {
        mode: 0o600,
      },
    );
    renameSync(tmp, file);
  } catch {
    // A read-only or full disk costs the next process a cold listing, nothing more.
  }
}
