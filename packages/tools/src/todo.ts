import { ToolError } from './errors.js';

/** State of a todo item. */
export type TodoStatus = 'pending' | 'in_progress' | 'completed';

/** One todo item as the model writes it. */
export interface TodoItem {
  /** What to do, imperative ("Run the tests"). */
  content: string;
  /** Current state. */
  status: TodoStatus;
  /** Present-continuous form shown while in progress ("Running the tests"). */
  activeForm?: string | undefined;
}

/** Arguments of the TodoWrite tool: the complete new list. */
export interface TodoWriteArgs {
  /** The whole list; it replaces the previous one. */
  todos: TodoItem[];
  /** Why the model calls the tool (ignored by the tool). */
  _intent?: string | undefined;
}

const MARK: Record<TodoStatus, string> = { pending: '[ ]', in_progress: '[~]', completed: '[x]' };

/** Renders a todo list as a plain-text checklist (`[x]` done, `[~]` in progress, `[ ]` pending). */
export function formatTodos(todos: readonly TodoItem[]): string {
  if (todos.length === 0) return '(no todos)';
  return todos
    .map((t) => `${MARK[t.status]} ${t.status === 'in_progress' && t.activeForm ? t.activeForm : t.content}`)
    .join('\n');
}

/** The session's todo list, replaced wholesale by each TodoWrite call. */
export class TodoList {
  #items: TodoItem[] = [];
  readonly #listeners = new Set<(todos: readonly TodoItem[]) => void>();

  /** The current items (a copy). */
  get items(): TodoItem[] {
    return this.#items.map((t) => ({ ...t }));
  }

  /** Calls `listener` after each update; returns an unsubscribe function. */
  subscribe(listener: (todos: readonly TodoItem[]) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Replaces the list and returns a one-line summary plus the checklist. */
  write(todos: readonly TodoItem[]): string {
    for (const [i, t] of todos.entries()) {
      if (typeof t.content !== 'string' || t.content.trim() === '') {
        throw new ToolError('invalid-input', `todos[${i}].content must be a non-empty string`);
      }
    }
    this.#items = todos.map((t) => ({ ...t }));
    for (const listener of this.#listeners) {
      try {
        listener(this.items);
      } catch {
        // A host listener must not break the tool.
      }
    }
    const count = (s: TodoStatus): number => todos.filter((t) => t.status === s).length;
    return `Todos updated: ${count('completed')} completed, ${count('in_progress')} in progress, ${count('pending')} pending\n${formatTodos(todos)}`;
  }
}
