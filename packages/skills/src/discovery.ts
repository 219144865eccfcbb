import type { BigIntStats } from 'node:fs';
import { lstatSync, statSync } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { normaliseText, splitFrontmatter } from './frontmatter.js';
import { type FileOutcome, type IndexEntry, loadIndex, saveIndex } from './persist.js';
import { type SkillFrontmatter, type SkillWarning, validateFrontmatter } from './validate.js';

/** Where a skills directory comes from, in precedence order (later wins). */
export type SkillSourceKind = 'user' | 'project' | 'host';

/** One directory searched for `<name>/SKILL.md` folders. */
export interface SkillSourceDir {
  /** Absolute path of the directory. */
  readonly dir: string;
  /** Which level the directory belongs to. */
  readonly kind: SkillSourceKind;
}

/** A discovered, valid skill (frontmatter plus where it was found); the body is loaded on demand. */
export interface SkillMeta extends SkillFrontmatter {
  /** Absolute path of the SKILL.md file (as reached, symlinks not resolved). */
  readonly path: string;
  /** Absolute path of the skill folder. */
  readonly folder: string;
  /** The skills directory the skill was found in. */
  readonly source: string;
  /** Level of that directory. */
  readonly sourceKind: SkillSourceKind;
}

/** Result of {@link listSkillsMeta}: winning skills sorted by name, and every warning in discovery order. */
export interface SkillList {
  /** Valid skills after precedence, sorted by name. */
  readonly skills: readonly SkillMeta[];
  /** Problems found; each names the file, the field when known, and the reason. */
  readonly warnings: readonly SkillWarning[];
}

/** Options shared by every function that discovers skills. */
export interface SkillDiscoveryOptions {
  /** Project directory; project-level skill directories are resolved under it. */
  readonly cwd: string;
  /** Extra directories from the host, searched last (highest precedence); relative paths resolve against `cwd`. */
  readonly dirs?: readonly string[];
  /** Home directory for the user-level directories ({@link USER_SKILL_DIRS}; default: `os.homedir()`). */
  readonly homeDir?: string;
  /**
   * Size cap for one SKILL.md in bytes (default {@link DEFAULT_MAX_SKILL_BYTES}; `Infinity` for none); larger files
   * are skipped with a warning. A negative or NaN value is a `RangeError`.
   */
  readonly maxFileBytes?: number;
  /** Cache to use (default: one shared per process). */
  readonly cache?: SkillCache;
}

/** Default size cap for one SKILL.md file: 256 KiB. */
export const DEFAULT_MAX_SKILL_BYTES = 256 * 1024;

/**
 * Project-level skill directories, lowest precedence first, searched in every directory from the repository root
 * down to `cwd` (a deeper directory wins over a shallower one).
 */
export const PROJECT_SKILL_DIRS: readonly string[] = [
  '.btw/skills',
  '.gemini/skills',
  '.agents/skills',
  '.claude/skills',
  '.codex/skills',
  '.codeagent/skills',
];

/** codeagent's own user-level skill directory under the home directory (the strongest user-level one). */
export const USER_SKILL_DIR = '.codeagent/skills';

/** User-level skill directories under the home directory, lowest precedence first (peers' folders, then ours). */
export const USER_SKILL_DIRS: readonly string[] = ['.claude/skills', '.agents/skills', USER_SKILL_DIR];

/**
 * The directories from the repository root down to `cwd`, outermost first. The root is the nearest ancestor
 * (or `cwd` itself) that holds a `.git` entry; outside a repository it is `cwd` alone, so skills are never picked up
 * from unrelated parent folders.
 */
function projectLevels(cwd: string): string[] {
  const start = resolve(cwd);
  const chain: string[] = [];
  for (let dir = start; ; ) {
    chain.push(dir);
    if (hasGitEntry(dir)) return chain.reverse();
    const parent = dirname(dir);
    if (parent === dir) return [start];
    dir = parent;
  }
}

function hasGitEntry(dir: string): boolean {
  try {
    // A `.git` directory, or a `.git` file (worktrees, submodules); lstat so a dangling link still counts.
    return lstatSync(join(dir, '.git'), { throwIfNoEntry: false }) !== undefined;
  } catch {
    return false;
  }
}

/** The file name of a skill inside its folder. */
export const SKILL_FILE = 'SKILL.md';

/** Lists the directories searched, lowest precedence first; a path given twice keeps its last (strongest) position. */
export function skillDirectories(
  options: Pick<SkillDiscoveryOptions, 'cwd' | 'dirs' | 'homeDir'>,
): SkillSourceDir[] {
  const cwd = resolve(options.cwd);
  const home = options.homeDir ?? homedir();
  const all: SkillSourceDir[] = [
    ...USER_SKILL_DIRS.map((d): SkillSourceDir => ({ dir: resolve(home, d), kind: 'user' })),
    ...projectLevels(cwd).flatMap((level) =>
      PROJECT_SKILL_DIRS.map((d): SkillSourceDir => ({ dir: resolve(level, d), kind: 'project' })),
    ),
    ...(options.dirs ?? []).map((d): SkillSourceDir => ({ dir: resolve(cwd, d), kind: 'host' })),
  ];
  const lastIndex = new Map<string, number>();
  all.forEach((s, i) => {
    lastIndex.set(s.dir, i);
  });
  return all.filter((s, i) => lastIndex.get(s.dir) === i);
}

/** A parsed SKILL.md as cached: frontmatter of a valid skill and/or warnings (bodies are not kept in memory). */
interface ParsedFile {
  readonly frontmatter?: SkillFrontmatter;
  readonly warnings: readonly SkillWarning[];
  /** The meta built from this file last time (re-used while the source dir and kind are the same). */
  meta?: SkillMeta;
}

interface DirEntry {
  readonly key: string;
  readonly folders: readonly string[];
}

interface FileEntry {
  readonly key: string;
  readonly cap: number;
  readonly parsed: ParsedFile;
}

/**
 * Cache of directory listings (keyed by the directory's inode + mtime) and parsed SKILL.md files
 * (keyed by path + inode + size + mtime + ctime, nanosecond stamps), so a warm listing costs one
 * stat per directory and per skill, and any change is seen on the next call.
 */
export class SkillCache {
  /** Creates an empty cache, optionally backed by a persistent index file. */
  constructor(options: SkillCacheOptions = {}) {
    const file = options.indexFile;
    if (file !== undefined && (typeof file !== 'string' || file === '')) {
      throw new TypeError('SkillCache indexFile must be a non-empty path');
    }
    states.set(this, {
      persisted: file === undefined ? undefined : { file, entries: undefined, dirty: false },
      dirs: new Map(),
      files: new Map(),
      listings: new Map(),
    });
  }

  /** Number of cached SKILL.md files. */
  get fileCount(): number {
    return stateOf(this).files.size;
  }

  /** Drops every cached entry. */
  clear(): void {
    const state = stateOf(this);
    state.dirs.clear();
    state.files.clear();
    state.listings.clear();
  }
}

/** Options of {@link SkillCache}. */
export interface SkillCacheOptions {
  /**
   * A file that keeps what was parsed across processes (keyed like the in-memory cache: path, inode, size, mtime and
   * ctime), so the first listing in a fresh process reads and parses only what changed. Written atomically after a
   * listing that parsed something; a missing or damaged file is ignored. Hosts put it in their data or cache dir.
   */
  readonly indexFile?: string;
}

interface Persisted {
  readonly file: string;
  entries: Map<string, IndexEntry> | undefined;
  dirty: boolean;
}

interface CacheState {
  readonly persisted: Persisted | undefined;
  readonly dirs: Map<string, DirEntry>;
  readonly files: Map<string, FileEntry>;
  /** The last full discovery per set of directories, so that loading one skill need not list them all again. */
  readonly listings: Map<string, Listing>;
}

interface Listing {
  /** Each searched directory's stat key, taken before it was listed (`none` when it did not exist). */
  readonly dirKeys: readonly string[];
  readonly skills: ReadonlyMap<string, SkillMeta>;
}

// Cache internals live outside the class so they are not part of its public surface.
const states = new WeakMap<SkillCache, CacheState>();

function stateOf(cache: SkillCache): CacheState {
  const state = states.get(cache);
  if (!state) throw new TypeError('not a SkillCache');
  return state;
}

function getDir(cache: SkillCache, dir: string, key: string): readonly string[] | undefined {
  const hit = stateOf(cache).dirs.get(dir);
  return hit && hit.key === key ? hit.folders : undefined;
}

function setDir(cache: SkillCache, dir: string, key: string, folders: readonly string[]): void {
  const { dirs, files } = stateOf(cache);
  const previous = dirs.get(dir);
  if (previous) {
    const kept = new Set(folders);
    for (const f of previous.folders) if (!kept.has(f)) files.delete(join(dir, f, SKILL_FILE));
  }
  dirs.set(dir, { key, folders });
}

function getFile(cache: SkillCache, path: string, key: string, cap: number): ParsedFile | undefined {
  const hit = stateOf(cache).files.get(path);
  return hit && hit.key === key && hit.cap === cap ? hit.parsed : undefined;
}

function setFile(cache: SkillCache, path: string, key: string, cap: number, parsed: ParsedFile): void {
  stateOf(cache).files.set(path, { key, cap, parsed });
}

function dropDir(cache: SkillCache, dir: string): void {
  const { dirs, files } = stateOf(cache);
  const previous = dirs.get(dir);
  if (!previous) return;
  for (const f of previous.folders) files.delete(join(dir, f, SKILL_FILE));
  dirs.delete(dir);
}

const sharedCache = new SkillCache();

function resolveCap(maxFileBytes: number | undefined): number {
  if (maxFileBytes === undefined) return DEFAULT_MAX_SKILL_BYTES;
  if (maxFileBytes === Number.POSITIVE_INFINITY) return Number.MAX_SAFE_INTEGER;
  if (typeof maxFileBytes !== 'number' || !Number.isFinite(maxFileBytes) || maxFileBytes < 0) {
    throw new RangeError(`maxFileBytes must be a non-negative number of bytes, got ${String(maxFileBytes)}`);
  }
  return Math.floor(maxFileBytes);
}

function statKey(s: BigIntStats): string {
  return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
}

function errCode(error: unknown): string {
  return typeof error === 'object' && error !== null && 'code' in error ? String(error.code) : 'UNKNOWN';
}

function errMessage(error: unknown): string {
  const code = errCode(error);
  if (code === 'ELOOP') return 'symlink loop (ELOOP)';
  if (code === 'EACCES' || code === 'EPERM') return `permission denied (${code})`;
  return error instanceof Error ? error.message : String(error);
}

async function mapLimit<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** Decodes and splits a SKILL.md: the expensive, folder-independent part that the persistent index keeps. */
function analyseBytes(bytes: Uint8Array): FileOutcome {
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, code: 'not-utf8', reason: 'file is not valid UTF-8' };
  }
  const split = splitFrontmatter(normaliseText(text));
  if (!split.ok) return { ok: false, code: split.code, reason: split.reason };
  return { ok: true, data: split.data, recovered: split.recovered, emptyBody: split.body.trim() === '' };
}

/** Validates an outcome against its file and folder into the cached form (cheap: no YAML). */
function toParsed(outcome: FileOutcome, path: string, folderName: string): ParsedFile {
  if (!outcome.ok)
    return { warnings: [{ file: path, code: outcome.code, reason: outcome.reason, skipped: true }] };
  const recovered: SkillWarning[] = outcome.recovered.map((field) => ({
    file: path,
    field,
    code: 'recovered-yaml',
    reason: `"${field}" is not valid YAML as written; read as the text it was meant to be`,
    skipped: false,
  }));
  const validation = validateFrontmatter(outcome.data, path, folderName);
  if (!validation.ok) return { warnings: [...recovered, ...validation.warnings] };
  const warnings = [...recovered, ...validation.warnings];
  if (outcome.emptyBody) {
    warnings.push({
      file: path,
      code: 'empty-body',
      reason: 'the skill has no body after its frontmatter',
      skipped: false,
    });
  }
  return { frontmatter: validation.value, warnings };
}

/** The persisted outcome of `path` when it was read under the same stat key and cap; loads the index once. */
function persistedOutcome(
  cache: SkillCache,
  path: string,
  key: string,
  cap: number,
): FileOutcome | undefined {
  const persisted = stateOf(cache).persisted;
  if (!persisted) return undefined;
  persisted.entries ??= loadIndex(persisted.file);
  const entry = persisted.entries.get(path);
  return entry && entry.key === key && entry.cap === cap ? entry.outcome : undefined;
}

function persistOutcome(
  cache: SkillCache,
  path: string,
  key: string,
  cap: number,
  outcome: FileOutcome,
): void {
  const persisted = stateOf(cache).persisted;
  if (!persisted) return;
  persisted.entries ??= loadIndex(persisted.file);
  // Re-inserted so the Map's order is "least recently parsed first" when the index is trimmed.
  persisted.entries.delete(path);
  persisted.entries.set(path, { key, cap, outcome });
  persisted.dirty = true;
}

/** Most files an index keeps; past it the least recently parsed are dropped (deleted skills age out this way). */
const MAX_INDEX_ENTRIES = 20_000;

/**
 * Writes the index when this listing parsed something new. Entries of other projects' skills are kept (the index is
 * shared by every project a host opens); the oldest go past {@link MAX_INDEX_ENTRIES}.
 */
function flushIndex(cache: SkillCache): void {
  const persisted = stateOf(cache).persisted;
  if (!persisted?.dirty || !persisted.entries) return;
  for (const path of persisted.entries.keys()) {
    if (persisted.entries.size <= MAX_INDEX_ENTRIES) break;
    persisted.entries.delete(path);
  }
  saveIndex(persisted.file, persisted.entries);
  persisted.dirty = false;
}

/** Reads the body of a SKILL.md (text after the frontmatter) or says why it cannot. */
export async function readSkillBody(
  path: string,
  cap: number,
): Promise<{ ok: true; body: string } | { ok: false; reason: string }> {
  let bytes: Uint8Array;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return { ok: false, reason: errMessage(error) };
  }
  if (bytes.byteLength > cap) {
    return {
      ok: false,
      reason: `file is ${bytes.byteLength} bytes, over the ${cap}-byte cap (maxFileBytes)`,
    };
  }
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, reason: 'file is not valid UTF-8' };
  }
  const split = splitFrontmatter(normaliseText(text));
  return split.ok ? { ok: true, body: split.body } : { ok: false, reason: split.reason };
}

type Probe =
  | { kind: 'none' }
  | { kind: 'done'; parsed: ParsedFile }
  | { kind: 'read'; path: string; folderName: string; key: string; size: bigint };

/**
 * Stats one `<folder>/SKILL.md` synchronously (metadata only, microseconds) and answers from the cache when
 * the stat key still matches; otherwise says the file must be read.
 */
function probeSkillFile(path: string, folderName: string, cap: number, cache: SkillCache): Probe {
  let s: BigIntStats | undefined;
  try {
    s = statSync(path, { bigint: true, throwIfNoEntry: false });
  } catch (error) {
    const code = errCode(error);
    // A symlink to a plain file reaches ENOTDIR: not a skill folder, silently ignored.
    if (code === 'ENOTDIR') return { kind: 'none' };
    return {
      kind: 'done',
      parsed: {
        warnings: [{ file: path, code: 'unreadable', reason: errMessage(error), skipped: true }],
      },
    };
  }
  // A folder without SKILL.md is not a skill: silently ignored.
  if (s === undefined) return { kind: 'none' };
  if (!s.isFile()) {
    return {
      kind: 'done',
      parsed: {
        warnings: [
          { file: path, code: 'unreadable', reason: 'SKILL.md is not a regular file', skipped: true },
        ],
      },
    };
  }
  const key = statKey(s);
  const hit = getFile(cache, path, key, cap);
  if (hit) return { kind: 'done', parsed: hit };
  const stored = persistedOutcome(cache, path, key, cap);
  if (stored) {
    const parsed = toParsed(stored, path, folderName);
    setFile(cache, path, key, cap, parsed);
    return { kind: 'done', parsed };
  }
  return { kind: 'read', path, folderName, key, size: s.size };
}

function tooLarge(path: string, size: bigint | number, cap: number): ParsedFile {
  return {
    warnings: [
      {
        file: path,
        code: 'too-large',
        reason: `file is ${size} bytes, over the ${cap}-byte cap (maxFileBytes)`,
        skipped: true,
      },
    ],
  };
}

async function readSkillFile(
  probe: Extract<Probe, { kind: 'read' }>,
  cap: number,
  cache: SkillCache,
): Promise<ParsedFile> {
  const { path, folderName, key } = probe;
  let parsed: ParsedFile;
  if (probe.size > BigInt(cap)) {
    parsed = tooLarge(path, probe.size, cap);
  } else {
    try {
      const bytes = await readFile(path);
      if (bytes.byteLength > cap) parsed = tooLarge(path, bytes.byteLength, cap);
      else {
        const outcome = analyseBytes(bytes);
        persistOutcome(cache, path, key, cap, outcome);
        parsed = toParsed(outcome, path, folderName);
      }
    } catch (error) {
      return {
        warnings: [{ file: path, code: 'unreadable', reason: errMessage(error), skipped: true }],
      };
    }
  }
  setFile(cache, path, key, cap, parsed);
  return parsed;
}

/** Probes every folder (sync stats in slices, yielding to the event loop between them), then reads the misses. */
async function loadFolders(
  dir: string,
  folders: readonly string[],
  cap: number,
  cache: SkillCache,
): Promise<(ParsedFile | null)[]> {
  const out: (ParsedFile | null)[] = new Array(folders.length).fill(null);
  const misses: { index: number; probe: Extract<Probe, { kind: 'read' }> }[] = [];
  for (let i = 0; i < folders.length; i++) {
    if (i > 0 && i % STAT_SLICE === 0) await yieldToEventLoop();
    const folder = folders[i] as string;
    const probe = probeSkillFile(join(dir, folder, SKILL_FILE), folder, cap, cache);
    if (probe.kind === 'done') out[i] = probe.parsed;
    else if (probe.kind === 'read') misses.push({ index: i, probe });
  }
  await mapLimit(misses, READ_CONCURRENCY, async (m) => {
    out[m.index] = await readSkillFile(m.probe, cap, cache);
  });
  return out;
}

const STAT_SLICE = 512;
const READ_CONCURRENCY = 32;

function yieldToEventLoop(): Promise<void> {
  return new Promise((resolveYield) => setImmediate(resolveYield));
}

async function listFolders(
  dir: string,
  cache: SkillCache,
  warnings: SkillWarning[],
): Promise<readonly string[]> {
  let s: BigIntStats;
  try {
    s = await stat(dir, { bigint: true });
  } catch (error) {
    dropDir(cache, dir);
    const code = errCode(error);
    if (code !== 'ENOENT' && code !== 'ENOTDIR') {
      warnings.push({ file: dir, code: 'unreadable', reason: errMessage(error), skipped: true });
    }
    return [];
  }
  if (!s.isDirectory()) return [];
  const key = `${s.ino}:${s.mtimeNs}:${s.ctimeNs}`;
  const hit = getDir(cache, dir, key);
  if (hit) return hit;
  try {
    const entries = await readdir(dir, { withFileTypes: true });
    const folders = entries
      .filter((e) => !e.name.startsWith('.') && (e.isDirectory() || e.isSymbolicLink()))
      .map((e) => e.name)
      .sort();
    setDir(cache, dir, key, folders);
    return folders;
  } catch (error) {
    warnings.push({ file: dir, code: 'unreadable', reason: errMessage(error), skipped: true });
    return [];
  }
}

/** Discovers skills with precedence applied; internal form of {@link listSkillsMeta}. */
export async function discoverSkills(
  options: SkillDiscoveryOptions,
): Promise<{ skills: Map<string, SkillMeta>; warnings: SkillWarning[]; cap: number }> {
  const cache = options.cache ?? sharedCache;
  const cap = resolveCap(options.maxFileBytes);
  const warnings: SkillWarning[] = [];
  const skills = new Map<string, SkillMeta>();
  const sources = skillDirectories(options);
  const dirKeys: string[] = [];
  for (const source of sources) {
    dirKeys.push(dirStatKey(source.dir));
    const folders = await listFolders(source.dir, cache, warnings);
    const parsed = await loadFolders(source.dir, folders, cap, cache);
    const inThisDir = new Map<string, string>();
    parsed.forEach((p, i) => {
      if (!p) return;
      for (const w of p.warnings) warnings.push(w);
      if (!p.frontmatter) return;
      let meta = p.meta;
      if (meta === undefined || meta.source !== source.dir || meta.sourceKind !== source.kind) {
        const folder = join(source.dir, folders[i] as string);
        const path = join(folder, SKILL_FILE);
        meta = Object.freeze({ ...p.frontmatter, path, folder, source: source.dir, sourceKind: source.kind });
        p.meta = meta;
      }
      const path = meta.path;
      const earlier = inThisDir.get(p.frontmatter.name);
      if (earlier !== undefined) {
        warnings.push({
          file: earlier,
          field: 'name',
          code: 'duplicate-name',
          reason: `another skill in the same directory is also named "${p.frontmatter.name}" (${path}); the later folder wins`,
          skipped: true,
        });
      }
      inThisDir.set(p.frontmatter.name, path);
      skills.set(p.frontmatter.name, meta);
    });
  }
  stateOf(cache).listings.set(listingKey(sources, cap), { dirKeys, skills });
  flushIndex(cache);
  return { skills, warnings, cap };
}

function listingKey(sources: readonly SkillSourceDir[], cap: number): string {
  return JSON.stringify([cap, ...sources.map((s) => `${s.kind}:${s.dir}`)]);
}

/** A directory's identity for the listing memo: inode + mtime + ctime (what `listFolders` keys on), or `none`. */
function dirStatKey(dir: string): string {
  try {
    const s = statSync(dir, { bigint: true, throwIfNoEntry: false });
    return s?.isDirectory() ? `${s.ino}:${s.mtimeNs}:${s.ctimeNs}` : 'none';
  } catch {
    return 'unreadable';
  }
}

/**
 * The winning skill `name` from the last full discovery of the same directories, when no directory changed since
 * (no folder added, removed or renamed) and the skill's own file is unchanged: one stat per directory plus one.
 * `undefined` means "list again". An in-place edit of *another* skill's file (renaming it to shadow `name`) is seen
 * by the next full listing, not here.
 */
export function findListedSkill(
  name: string,
  options: SkillDiscoveryOptions,
): { skill: SkillMeta; cap: number } | undefined {
  const cache = options.cache ?? sharedCache;
  const cap = resolveCap(options.maxFileBytes);
  const sources = skillDirectories(options);
  const state = stateOf(cache);
  const listing = state.listings.get(listingKey(sources, cap));
  if (!listing) return undefined;
  for (let i = 0; i < sources.length; i++) {
    if (dirStatKey((sources[i] as SkillSourceDir).dir) !== listing.dirKeys[i]) return undefined;
  }
  const skill = listing.skills.get(name);
  if (!skill) return undefined;
  let key: string | undefined;
  try {
    const s = statSync(skill.path, { bigint: true, throwIfNoEntry: false });
    key = s?.isFile() ? statKey(s) : undefined;
  } catch {
    key = undefined;
  }
  const cached = state.files.get(skill.path);
  return key !== undefined && cached?.key === key && cached.parsed.meta === skill
    ? { skill, cap }
    : undefined;
}

/** Lists valid skills from every skill directory (later directories override earlier ones by name) with warnings. */
export async function listSkillsMeta(options: SkillDiscoveryOptions): Promise<SkillList> {
  const { skills, warnings } = await discoverSkills(options);
  const metas = [...skills.values()].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  return { skills: metas, warnings };
}
