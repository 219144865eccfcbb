import { cp, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Absolute path of the sample workspace shipped inside the package (read-only: copy it before use). */
export function demoWorkspacePath(): string {
  // Both src/ and dist/ sit one level below the package root, beside demo-workspace/.
  return fileURLToPath(new URL('../demo-workspace/', import.meta.url));
}

/** Options of {@link copyDemoWorkspace}. */
export interface CopyDemoWorkspaceOptions {
  /** Allow copying into a non-empty folder, overwriting same-named files (default false: throw). */
  readonly overwrite?: boolean | undefined;
}

/**
 * Copies the demo's sample workspace into `dest` (created if missing) and returns its absolute path;
 * refuses a non-empty `dest` unless `overwrite` is set, so it never clobbers a real project by mistake.
 */
export async function copyDemoWorkspace(
  dest: string,
  options: CopyDemoWorkspaceOptions = {},
): Promise<string> {
  if (typeof dest !== 'string' || dest.trim() === '') {
    throw new TypeError('copyDemoWorkspace: dest must be a non-empty path');
  }
  const target = path.resolve(dest);
  const existing = await stat(target).catch(() => undefined);
  if (existing !== undefined) {
    if (!existing.isDirectory())
      throw new Error(`copyDemoWorkspace: ${target} exists and is not a directory`);
    if (options.overwrite !== true && (await readdir(target)).length > 0) {
      throw new Error(`copyDemoWorkspace: ${target} is not empty (pass {overwrite: true} to copy anyway)`);
    }
  }
  await mkdir(target, { recursive: true });
  await cp(demoWorkspacePath(), target, { recursive: true, force: true, errorOnExist: false });
  return target;
}
