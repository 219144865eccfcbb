import { constants } from 'node:fs';
import { type FileHandle, open, readlink, stat } from 'node:fs/promises';
import { errnoCode, ToolError } from './errors.js';
import { READ_FLAGS } from './workspace.js';

/** Open flags for writing without truncating first: the file is checked, then truncated through the handle. */
const WRITE_NO_TRUNC = constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW;

/** What a verified write may do beyond the defaults. */
interface WriteCheckOptions {
  /**
   * Write through a file that has other hard links (default `false`: refused, because the change would also
   * appear under every other name, possibly outside the workspace). A host sets it from the user's approval.
   */
  readonly allowHardLinks?: boolean | undefined;
}

/** The path the kernel reports for an open descriptor (Linux `/proc/self/fd/N`), or `undefined` elsewhere. */
async function fdPath(handle: FileHandle): Promise<string | undefined> {
  if (process.platform !== 'linux') return undefined;
  try {
    return await readlink(`/proc/self/fd/${handle.fd}`);
  } catch {
    return undefined;
  }
}

/**
 * Checks that an open descriptor is the file the confinement check resolved: on Linux the kernel's path of the
 * descriptor must be `real` (a directory swapped for a symlink between the check and the open redirects the
 * open, and shows here), and everywhere the descriptor's device and inode must match `stat(real)` (a swap
 * after the open shows there). Throws `outside-workspace` on a mismatch.
 */
export async function verifyOpened(handle: FileHandle, real: string, display: string): Promise<void> {
  const opened = await fdPath(handle);
  if (opened !== undefined && opened !== real) {
    throw new ToolError(
      'outside-workspace',
      `${display} changed while it was being opened (it now leads to "${opened}"); refusing to use it`,
    );
  }
  const [fd, named] = await Promise.all([handle.stat(), stat(real).catch(() => undefined)]);
  if (named === undefined || fd.dev !== named.dev || fd.ino !== named.ino) {
    throw new ToolError(
      'outside-workspace',
      `${display} was replaced while it was being opened; refusing to use it`,
    );
  }
}

/** Opens `real` read-only (`O_NOFOLLOW`) and verifies the descriptor (see {@link verifyOpened}). */
export async function openVerified(real: string, display: string): Promise<FileHandle> {
  const handle = await open(real, READ_FLAGS);
  try {
    await verifyOpened(handle, real, display);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** Reads a whole file through a verified descriptor. */
export async function readVerified(real: string, display: string): Promise<Buffer> {
  const handle = await openVerified(real, display);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * Writes `content` to `real` (created when missing): opens without truncating, verifies the descriptor, refuses
 * a file with other hard links unless allowed, and only then truncates and writes through the descriptor.
 */
export async function writeVerified(
  real: string,
  display: string,
  content: string,
  options: WriteCheckOptions = {},
): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(real, WRITE_NO_TRUNC, 0o666);
  } catch (error) {
    if (errnoCode(error) === 'ELOOP') {
      throw new ToolError(
        'outside-workspace',
        `${display} is a symbolic link now; refusing to write through it`,
        {
          cause: error,
        },
      );
    }
    throw error;
  }
  try {
    await verifyOpened(handle, real, display);
    const info = await handle.stat();
    if (info.nlink > 1 && options.allowHardLinks !== true) {
      throw new ToolError(
        'hard-link',
        `${display} has ${info.nlink} hard links; writing would change every other name of it too (maybe outside the workspace), so it is refused unless the user allows writes through hard links`,
      );
    }
    await handle.truncate(0);
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}
