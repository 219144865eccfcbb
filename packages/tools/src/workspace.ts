import { constants, realpathSync, statSync } from 'node:fs';
import { lstat, realpath } from 'node:fs/promises';
import path from 'node:path';
import { errnoCode, ToolError } from './errors.js';

/** Options of {@link Workspace}: the session cwd plus any extra roots the host allows. */
export interface WorkspaceOptions {
  /** Session working directory: relative paths resolve against it, and it is always a root. */
  cwd: string;
  /** Extra directories the file tools may touch, besides `cwd`. */
  roots?: readonly string[] | undefined;
}

/**
 * Open flags for reading a resolved path: `O_NOFOLLOW` refuses a symlink swapped in for the file after the
 * confinement check (the final component; see ADR 0060 for the rest of the race).
 */
export const READ_FLAGS = constants.O_RDONLY | constants.O_NOFOLLOW;

/** Open flags for writing a resolved path (create or truncate), with the same `O_NOFOLLOW` guard. */
export const WRITE_FLAGS = constants.O_WRONLY | constants.O_CREAT | constants.O_TRUNC | constants.O_NOFOLLOW;

/** A model-supplied path after confinement: where it points, lexically and for real. */
export interface ResolvedPath {
  /** The path as the model wrote it. */
  input: string;
  /** Absolute lexical path (resolved against cwd, `..` collapsed, symlinks not followed). */
  absolute: string;
  /** Absolute path with every existing symlink resolved; the path the tool actually opens. */
  real: string;
  /** Path to show people: cwd-relative when inside cwd, else absolute. */
  display: string;
  /** Whether the path exists (a dangling symlink is refused before this is set). */
  exists: boolean;
}

/** The model's path as quoted in a message: long inputs are shortened so the reason stays visible. */
const quoted = (input: string): string =>
  JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);

const isWithin = (root: string, candidate: string): boolean => {
  const rel = path.relative(root, candidate);
  return rel === '' || (!path.isAbsolute(rel) && rel !== '..' && !rel.startsWith(`..${path.sep}`));
};

/**
 * The workspace roots the file tools are confined to. Every path is checked twice: lexically
 * (so `..` and absolute paths outside are refused) and after `realpath` (so a symlink that leads
 * outside is refused, also when the file does not exist yet and only its parent is a link).
 */
export class Workspace {
  /** The session cwd as given (absolute). */
  readonly cwd: string;
  readonly #roots: Array<{ lexical: string; real: string }> = [];
  readonly #locks = new Map<string, Promise<void>>();

  /** Creates a workspace; `cwd` and every root must be existing directories. */
  constructor(options: WorkspaceOptions) {
    if (typeof options.cwd !== 'string' || options.cwd === '') {
      throw new ToolError('invalid-input', 'Workspace cwd must be a non-empty path');
    }
    this.cwd = path.resolve(options.cwd);
    this.addRoot(this.cwd);
    for (const root of options.roots ?? []) this.addRoot(root);
  }

  /** Adds a directory the tools may touch (resolved against cwd); idempotent. */
  addRoot(dir: string): void {
    const lexical = path.resolve(this.cwd, dir);
    let real: string;
    try {
      real = realpathSync(lexical);
    } catch (error) {
      throw new ToolError('not-found', `Workspace root does not exist: ${lexical}`, { cause: error });
    }
    if (!statSync(real).isDirectory()) {
      throw new ToolError('not-a-directory', `Workspace root is not a directory: ${lexical}`);
    }
    if (!this.#roots.some((r) => r.real === real)) this.#roots.push({ lexical, real });
  }

  /** The roots (real paths) in the order they were added; the first is the cwd. */
  get roots(): readonly string[] {
    return this.#roots.map((r) => r.real);
  }

  /**
   * Runs `fn` while holding the lock of one file (by real path): the tools of one model step may run
   * concurrently, and two Edits of the same file must not both read the old text and lose one change.
   */
  async withFileLock<T>(real: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#locks.get(real) ?? Promise.resolve();
    let release!: () => void;
    const current = new Promise<void>((resolve) => {
      release = resolve;
    });
    const tail = previous.then(() => current);
    this.#locks.set(real, tail);
    await previous;
    try {
      return await fn();
    } finally {
      release();
      if (this.#locks.get(real) === tail) this.#locks.delete(real);
    }
  }

  /** The real path of the root that contains `real`, or `undefined` when none does. */
  rootOf(real: string): string | undefined {
    let best: string | undefined;
    for (const r of this.#roots) {
      if (isWithin(r.real, real) && (best === undefined || r.real.length > best.length)) best = r.real;
    }
    return best;
  }

  /** Path to show people for an absolute path: cwd-relative when inside cwd, else absolute. */
  display(absolute: string): string {
    for (const base of [this.cwd, this.#roots[0]?.real ?? this.cwd]) {
      if (isWithin(base, absolute)) {
        const rel = path.relative(base, absolute);
        return rel === '' ? '.' : rel.split(path.sep).join('/');
      }
    }
    return absolute;
  }

  #rootList(): string {
    return this.#roots.map((r) => r.lexical).join(', ');
  }

  /**
   * Resolves and confines a model-supplied path. Throws a {@link ToolError} with code
   * `outside-workspace` for `..` escapes, absolute paths outside every root and symlinks
   * (existing or dangling, at any level) whose target is outside.
   */
  async resolve(input: string, label = 'file_path'): Promise<ResolvedPath> {
    if (typeof input !== 'string' || input.trim() === '') {
      throw new ToolError('invalid-input', `${label} must be a non-empty path`);
    }
    if (input.includes('\0')) throw new ToolError('invalid-input', `${label} contains a NUL byte`);
    const absolute = path.resolve(this.cwd, input);
    const lexicallyInside = this.#roots.some(
      (r) => isWithin(r.lexical, absolute) || isWithin(r.real, absolute),
    );
    if (!lexicallyInside) {
      throw new ToolError(
        'outside-workspace',
        `Path ${quoted(input)} is outside the workspace roots (${this.#rootList()}); ask the host to add a root to use it`,
      );
    }
    // Find the nearest existing ancestor (lstat: a dangling link counts as existing).
    let existing = absolute;
    const rest: string[] = [];
    for (;;) {
      try {
        await lstat(existing);
        break;
      } catch (error) {
        const code = errnoCode(error);
        if (code !== 'ENOENT' && code !== 'ENOTDIR') {
          throw new ToolError('io-error', `Cannot access ${quoted(input)}: ${code ?? 'error'}`, {
            cause: error,
          });
        }
        const parent = path.dirname(existing);
        if (parent === existing) break;
        rest.unshift(path.basename(existing));
        existing = parent;
      }
    }
    let realExisting: string;
    try {
      realExisting = await realpath(existing);
    } catch (error) {
      throw new ToolError(
        'outside-workspace',
        `Path ${quoted(input)} goes through a dangling symbolic link (${this.display(existing)}); refusing to follow it`,
        { cause: error },
      );
    }
    const real = path.join(realExisting, ...rest);
    if (this.rootOf(real) === undefined) {
      throw new ToolError(
        'outside-workspace',
        `Path ${quoted(input)} resolves through a symbolic link to "${real}", outside the workspace roots (${this.#rootList()})`,
      );
    }
    return { input, absolute, real, display: this.display(absolute), exists: rest.length === 0 };
  }
}
