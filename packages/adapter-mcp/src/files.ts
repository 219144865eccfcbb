import { constants } from 'node:fs';
import { chmod, mkdir, open, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { McpAdapterError } from './errors.js';

/**
 * Reads a small JSON file of the user's own (approvals, tokens) fail-closed: non-blocking open (a FIFO put in its
 * place is refused at once), regular files only, at most `maxBytes`. `undefined` when it does not exist; any other
 * problem throws {@link McpAdapterError} `config-unreadable` naming the file and `what` it is.
 */
export async function readPrivateJson(file: string, what: string, maxBytes: number): Promise<unknown> {
  let text: string;
  try {
    const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK);
    try {
      const info = await handle.stat();
      if (!info.isFile()) throw new Error('not a regular file');
      if (info.size > maxBytes) throw new Error(`over ${maxBytes} bytes`);
      text = await handle.readFile('utf8');
    } finally {
      await handle.close();
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new McpAdapterError(
      'config-unreadable',
      `${what} ${file} cannot be read: ${(error as Error).message}`,
    );
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new McpAdapterError('config-unreadable', `${what} ${file} is not valid JSON`);
  }
}

/** Writes JSON atomically (a temporary file renamed over it) with mode 0600, its folder 0700 when created. */
export async function writePrivateJson(file: string, value: unknown): Promise<void> {
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${Date.now()}.${Math.random().toString(36).slice(2, 8)}.tmp`;
  await writeFile(tmp, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
  await chmod(tmp, 0o600);
  await rename(tmp, file);
}
