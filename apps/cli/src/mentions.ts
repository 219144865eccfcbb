import { open } from 'node:fs/promises';
import type { Workspace } from '@codeagent/tools';

/** Largest file an `@path` mention attaches. */
const MAX_ATTACH_BYTES = 256 * 1024;

/** What `@path` mentions attached (or could not). */
export interface Attachments {
  /** The prompt with each attached file appended in a delimited block. */
  readonly prompt: string;
  /** One line per mention: `attached src/a.ts (1.2 kB)` or why not. */
  readonly notes: readonly string[];
}

const MENTION = /(^|\s)@((?:[^\s"'`]|\\ )+)/gu;

/**
 * Attaches the files named by `@path` mentions (inside the workspace, regular text files up to 256 KiB) to the
 * prompt; a mention that is not such a file is left as typed and noted.
 */
export async function attachMentions(input: string, workspace: Workspace): Promise<Attachments> {
  const notes: string[] = [];
  const blocks: string[] = [];
  const seen = new Set<string>();
  for (const match of input.matchAll(MENTION)) {
    const raw = (match[2] ?? '').replace(/[),.;:!?]+$/u, '').replace(/\\ /gu, ' ');
    if (raw === '' || seen.has(raw)) continue;
    seen.add(raw);
    let resolved: Awaited<ReturnType<Workspace['resolve']>>;
    try {
      resolved = await workspace.resolve(raw);
    } catch {
      notes.push(`@${raw}: outside the workspace, not attached`);
      continue;
    }
    if (!resolved.exists) continue; // an @handle, not a file
    let handle: Awaited<ReturnType<typeof open>> | undefined;
    try {
      handle = await open(resolved.real, 'r');
      const info = await handle.stat();
      if (!info.isFile()) {
        notes.push(`@${resolved.display}: not a file, not attached`);
        continue;
      }
      if (info.size > MAX_ATTACH_BYTES) {
        notes.push(
          `@${resolved.display}: ${Math.round(info.size / 1024)} kB is over 256 kB, not attached (ask the model to Read it)`,
        );
        continue;
      }
      const bytes = Buffer.alloc(info.size);
      await handle.read(bytes, 0, info.size, 0);
      if (bytes.includes(0)) {
        notes.push(`@${resolved.display}: binary, not attached`);
        continue;
      }
      const text = bytes.toString('utf8');
      blocks.push(
        `<attached_file path="${resolved.display.replace(/"/gu, '&quot;')}">\n${text.replace(/<\/attached_file/giu, '<\\/attached_file')}\n</attached_file>`,
      );
      notes.push(`attached ${resolved.display} (${sizeText(info.size)})`);
    } catch (error) {
      notes.push(`@${resolved.display}: unreadable (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
    } finally {
      await handle?.close();
    }
  }
  return { prompt: blocks.length === 0 ? input : `${input}\n\n${blocks.join('\n\n')}`, notes };
}

/** A file size for a note: `11 B`, `1.2 kB`. */
function sizeText(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : `${(bytes / 1024).toFixed(1)} kB`;
}
