import { constants } from 'node:fs';
import { lstat, mkdir, open, realpath, rename, stat, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import {
  mergePermissionConfigs,
  narrowPermissionConfig,
  type PermissionConfig,
  type PermissionMode,
  parsePermissionConfig,
} from '@codeagent/permission-gate';

/** Largest settings (or trust) file read, in bytes. */
export const MAX_SETTINGS_BYTES = 1024 * 1024;

const SETTINGS_NAMES = ['settings.json', 'settings.yaml', 'settings.yml'] as const;

/** A settings file that exists but cannot be used: the CLI refuses to start rather than drop its rules. */
export class SettingsFileError extends Error {
  override readonly name = 'SettingsFileError';
  constructor(
    readonly file: string,
    why: string,
  ) {
    super(`settings file ${file} ${why}; refusing to start (fix or remove it)`);
  }
}

function kindOf(info: {
  isDirectory(): boolean;
  isFIFO(): boolean;
  isSocket(): boolean;
  isCharacterDevice(): boolean;
}): string {
  if (info.isDirectory()) return 'a directory';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  return info.isCharacterDevice() ? 'a character device' : 'a block device';
}

/**
 * Reads a small regular file without ever blocking on it: `lstat` first (a FIFO, directory, socket or device is
 * refused; a symbolic link must lead to a regular file), a non-blocking open, and a bounded read. Returns
 * `undefined` when nothing exists at `file`; throws {@link SettingsFileError} for anything else that is wrong.
 */
export async function readBoundedFile(
  file: string,
  maxBytes = MAX_SETTINGS_BYTES,
): Promise<string | undefined> {
  let info: Awaited<ReturnType<typeof lstat>>;
  try {
    info = await lstat(file);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return undefined;
    throw new SettingsFileError(file, `cannot be read (${code ?? String(error)})`);
  }
  const link = info.isSymbolicLink();
  if (link) {
    try {
      info = await stat(file);
    } catch (error) {
      throw new SettingsFileError(
        file,
        `is a symbolic link to nothing readable (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
    }
  }
  if (!info.isFile()) {
    throw new SettingsFileError(file, `is ${link ? 'a link to ' : ''}${kindOf(info)}, not a regular file`);
  }
  if (info.size > maxBytes) {
    throw new SettingsFileError(
      file,
      `is ${info.size} bytes; settings files are limited to ${maxBytes} bytes`,
    );
  }
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    // O_NONBLOCK: if the file was swapped for a FIFO since lstat, opening it still returns at once.
    handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch (error) {
    throw new SettingsFileError(
      file,
      `cannot be opened (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile()) throw new SettingsFileError(file, `is ${kindOf(opened)}, not a regular file`);
    const buffer = Buffer.alloc(maxBytes + 1);
    let length = 0;
    while (length <= maxBytes) {
      const { bytesRead } = await handle.read(buffer, length, buffer.length - length, null);
      if (bytesRead === 0) break;
      length += bytesRead;
    }
    if (length > maxBytes) {
      throw new SettingsFileError(
        file,
        `is larger than ${maxBytes} bytes; settings files are limited to that`,
      );
    }
    try {
      return new TextDecoder('utf-8', { fatal: true }).decode(buffer.subarray(0, length));
    } catch {
      throw new SettingsFileError(file, 'is not UTF-8 text');
    }
  } finally {
    await handle.close();
  }
}

/** One settings file that was found and parsed. */
export interface SettingsLayer {
  /** Absolute path of the file. */
  readonly file: string;
  /** `user` (trusted: the user's data dir) or `project` (the workspace's `.codeagent/`). */
  readonly scope: 'user' | 'project';
  /** The parsed settings. */
  readonly config: PermissionConfig;
}

/** Reads and parses every settings file in `dir` (`settings.json`, `.yaml`, `.yml`); errors name the file. */
export async function readSettingsDir(dir: string, scope: 'user' | 'project'): Promise<SettingsLayer[]> {
  const layers: SettingsLayer[] = [];
  for (const name of SETTINGS_NAMES) {
    const file = join(dir, name);
    const text = await readBoundedFile(file);
    if (text === undefined) continue;
    try {
      const config = parsePermissionConfig(text, { format: name.endsWith('.json') ? 'json' : 'yaml' });
      layers.push({ file, scope, config });
    } catch (error) {
      throw new SettingsFileError(file, `is invalid:\n${(error as Error).message}`);
    }
  }
  return layers;
}

/** Where a rule in force came from, for `/permissions`. */
export interface RuleSource {
  readonly list: 'allow' | 'ask' | 'deny';
  readonly rule: string;
  readonly file: string;
}

/** The permission settings a session starts with. */
export interface ResolvedSettings {
  /** Merged settings in force (user, then project, narrowed unless the workspace is trusted). */
  readonly config: PermissionConfig;
  /** The mode: `--mode` when given, else the settings' mode, else `default`. */
  readonly mode: PermissionMode;
  /** Each rule with the file it came from. */
  readonly sources: readonly RuleSource[];
  /** Files read, in order. */
  readonly files: readonly string[];
  /** Entries of untrusted project settings that were ignored (empty when trusted or nothing widened). */
  readonly ignored: ReadonlyArray<{ readonly file: string; readonly entry: string }>;
  /** Whether the workspace is trusted. */
  readonly trusted: boolean;
}

/** Options of {@link resolveSettings}. */
export interface ResolveSettingsOptions {
  /** Workspace directory (absolute). */
  readonly cwd: string;
  /** The CLI's data dir: user settings and the trust list live here. */
  readonly dataDir: string;
  /** `--mode`, when given. */
  readonly modeFlag: PermissionMode | null;
  /** `--trust`: trust the workspace and remember it. */
  readonly trustFlag: boolean;
  /**
   * Asked once when untrusted project settings would widen permissions; `true` trusts the workspace (and it is
   * remembered). Without it (one-shot runs, no terminal) the project settings stay narrowed.
   */
  readonly askTrust?: (file: string, widening: readonly string[]) => Promise<boolean>;
}

/**
 * Loads user settings (`<dataDir>/settings.*`, trusted) and project settings (`<cwd>/.codeagent/settings.*`). A
 * project file may only narrow (deny/ask rules, stricter mode) unless the workspace is trusted: trust is
 * remembered per real workspace path in `<dataDir>/trusted-workspaces.json`.
 */
export async function resolveSettings(options: ResolveSettingsOptions): Promise<ResolvedSettings> {
  const userDir = resolve(options.dataDir);
  const projectDir = join(resolve(options.cwd), '.codeagent');
  const user = await readSettingsDir(userDir, 'user');
  // In the home directory the project dir is the user dir: read it once, as user settings.
  const project = (await samePath(userDir, projectDir)) ? [] : await readSettingsDir(projectDir, 'project');
  const userConfig = mergePermissionConfigs(...user.map((l) => l.config));
  const baseMode = options.modeFlag ?? userConfig.mode ?? 'default';
  const store = new TrustStore(options.dataDir);
  const key = await workspaceKey(options.cwd);
  let trusted = options.trustFlag || (project.length > 0 && (await store.has(key)));
  const narrowed = project.map((l) => ({ layer: l, ...narrowPermissionConfig(l.config, baseMode) }));
  const widening = narrowed.flatMap((n) => n.dropped.map((entry) => ({ file: n.layer.file, entry })));
  if (!trusted && widening.length > 0 && options.askTrust !== undefined) {
    trusted = await options.askTrust(
      [...new Set(widening.map((w) => w.file))].join(', '),
      widening.map((w) => w.entry),
    );
  }
  if (trusted && (options.trustFlag || widening.length > 0) && !(await store.has(key))) await store.add(key);
  const layers: SettingsLayer[] = [
    ...user,
    ...narrowed.map((n) => (trusted ? n.layer : { ...n.layer, config: n.config })),
  ];
  const config = mergePermissionConfigs(...layers.map((l) => l.config));
  const sources: RuleSource[] = layers.flatMap((l) =>
    (['deny', 'ask', 'allow'] as const).flatMap((list) =>
      (l.config.rules?.[list] ?? []).map((rule) => ({ list, rule, file: l.file })),
    ),
  );
  return {
    config,
    mode: options.modeFlag ?? config.mode ?? 'default',
    sources,
    files: layers.map((l) => l.file),
    ignored: trusted ? [] : widening,
    trusted,
  };
}

async function samePath(a: string, b: string): Promise<boolean> {
  if (resolve(a) === resolve(b)) return true;
  try {
    return (await realpath(a)) === (await realpath(b));
  } catch {
    return false;
  }
}

/** The key a workspace is trusted under: its real absolute path. */
export async function workspaceKey(cwd: string): Promise<string> {
  try {
    return await realpath(cwd);
  } catch {
    return resolve(cwd);
  }
}

/** Workspaces the user trusted, one real absolute path each, in `<dataDir>/trusted-workspaces.json`. */
export class TrustStore {
  readonly file: string;

  constructor(dataDir: string) {
    this.file = join(resolve(dataDir), 'trusted-workspaces.json');
  }

  /** The trusted paths; a missing file is an empty list, a damaged one an error naming it. */
  async list(): Promise<string[]> {
    const text = await readBoundedFile(this.file);
    if (text === undefined) return [];
    let data: unknown;
    try {
      data = JSON.parse(text);
    } catch {
      throw new SettingsFileError(this.file, 'is not valid JSON');
    }
    const list = (data as { workspaces?: unknown } | null)?.workspaces;
    if (!Array.isArray(list) || !list.every((x) => typeof x === 'string')) {
      throw new SettingsFileError(this.file, 'is not a trust list ({"version": 1, "workspaces": [paths]})');
    }
    return list;
  }

  /** Whether `key` (a {@link workspaceKey}) is trusted. */
  async has(key: string): Promise<boolean> {
    return (await this.list()).includes(key);
  }

  /** Remembers `key` as trusted (written atomically). */
  async add(key: string): Promise<void> {
    const list = await this.list();
    if (list.includes(key)) return;
    await mkdir(resolve(this.file, '..'), { recursive: true });
    const tmp = `${this.file}.${process.pid}.tmp`;
    await writeFile(tmp, `${JSON.stringify({ version: 1, workspaces: [...list, key] }, null, 2)}\n`, {
      mode: 0o600,
    });
    await rename(tmp, this.file);
  }
}
