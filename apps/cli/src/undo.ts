import { mkdir, readFile, stat, unlink, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { AgentTool } from '@codeagent/agent-core';
import type { Workspace } from '@codeagent/tools';

/** The file tools whose changes a checkpoint can undo. */
const FILE_TOOLS = new Set(['Write', 'Edit']);

/** Files larger than this are not snapshotted (the undo says so). */
const MAX_SNAPSHOT_BYTES = 20 * 1024 * 1024;

/** A file as it was before the turn first changed it: its bytes, or null when it did not exist. */
interface Snapshot {
  readonly display: string;
  readonly before: Buffer | null;
}

/** One turn's checkpoint: the files it changed, each as it was before the turn. */
interface Checkpoint {
  readonly label: string;
  readonly files: Map<string, Snapshot>;
  /** Files the turn changed that could not be snapshotted (too large, unreadable). */
  readonly skipped: string[];
}

/** What `/undo` did. */
export interface UndoResult {
  /** The prompt of the turn undone. */
  readonly label: string;
  /** Files written back to their earlier content. */
  readonly restored: readonly string[];
  /** Files the turn created, now removed. */
  readonly removed: readonly string[];
  /** Files that could not be restored, with the reason. */
  readonly failed: readonly string[];
}

/**
 * Checkpoints of the file changes each turn makes through Write and Edit, like Claude Code's checkpoints and aider's
 * `/undo`: before a turn's first change to a file its bytes are kept in memory; `/undo` writes them back (and removes
 * files the turn created). Git is never touched. Shell commands are not tracked.
 */
export class Checkpoints {
  readonly #stack: Checkpoint[] = [];
  #current: Checkpoint | null = null;
  /** A note for the model about the last undo, prepended to the next prompt. */
  #note: string | null = null;

  constructor(private readonly workspace: Workspace) {}

  /** Starts the checkpoint of a new turn. */
  begin(label: string): void {
    this.#current = { label, files: new Map(), skipped: [] };
  }

  /** Ends the turn: a checkpoint that changed files goes on the undo stack. */
  end(): void {
    const current = this.#current;
    this.#current = null;
    if (current !== null && (current.files.size > 0 || current.skipped.length > 0)) this.#stack.push(current);
  }

  /** Turns that can be undone. */
  get depth(): number {
    return this.#stack.length;
  }

  /** The note for the model about an undo, once (then cleared). */
  takeNote(): string | null {
    const note = this.#note;
    this.#note = null;
    return note;
  }

  /** Wraps Write and Edit so each snapshots its file before changing it; other tools pass through. */
  wrap(tools: readonly AgentTool[]): AgentTool[] {
    return tools.map((tool) => {
      if (!FILE_TOOLS.has(tool.name)) return tool;
      const execute = tool.execute.bind(tool);
      return {
        ...tool,
        execute: async (args: unknown, ctx: Parameters<AgentTool['execute']>[1]) => {
          await this.snapshot(args);
          return execute(args, ctx);
        },
      } as AgentTool;
    });
  }

  private async snapshot(args: unknown): Promise<void> {
    const current = this.#current;
    if (current === null) return;
    const file =
      typeof args === 'object' && args !== null ? (args as { file_path?: unknown }).file_path : undefined;
    if (typeof file !== 'string') return;
    let real: string;
    let display: string;
    try {
      const resolved = await this.workspace.resolve(file);
      real = resolved.real;
      display = resolved.display;
    } catch {
      return; // the tool refuses this path too
    }
    if (current.files.has(real)) return; // the first snapshot of the turn is the one to restore
    const info = await stat(real).catch(() => null);
    if (info === null) {
      current.files.set(real, { display, before: null });
      return;
    }
    if (!info.isFile() || info.size > MAX_SNAPSHOT_BYTES) {
      current.skipped.push(display);
      return;
    }
    try {
      current.files.set(real, { display, before: await readFile(real) });
    } catch {
      current.skipped.push(display);
    }
  }

  /** Restores the files of the last turn that changed any; null when there is nothing to undo. */
  async undo(): Promise<UndoResult | null> {
    const checkpoint = this.#stack.pop();
    if (checkpoint === undefined) return null;
    const restored: string[] = [];
    const removed: string[] = [];
    const failed = checkpoint.skipped.map((display) => `${display} (too large or unreadable to snapshot)`);
    for (const [real, snap] of [...checkpoint.files].reverse()) {
      try {
        if (snap.before === null) {
          const exists = await stat(real).catch(() => null);
          if (exists !== null) {
            await unlink(real);
            removed.push(snap.display);
          }
        } else {
          await mkdir(dirname(real), { recursive: true });
          await writeFile(real, snap.before);
          restored.push(snap.display);
        }
      } catch (error) {
        failed.push(`${snap.display} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
      }
    }
    const files = [...restored, ...removed];
    if (files.length > 0) {
      this.#note =
        `[The user ran /undo: your file changes from the turn "${checkpoint.label.slice(0, 80)}" were reverted. ` +
        `These files are back as they were before that turn: ${files.join(', ')}. Re-read them before editing.]`;
    }
    return { label: checkpoint.label, restored, removed, failed };
  }
}
