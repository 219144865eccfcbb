import { clean } from './clean.js';
import {
  type AgentTool,
  type CodeagentClient,
  type CompactionDecision,
  createClient,
  loadSession,
  type StreamResult,
  streamEvents,
  type Usage,
} from '@codeagent/agent-core';
import {
  type AskContext,
  type AskResult,
  describeGrantScope,
  describeUnknownRuleTool,
  findUnknownRuleTools,
  installPermissionGate,
  type PermissionConfig,
  type PermissionGate,
  type PermissionMode,
  type PermissionRules,
  isShellGrammarLoaded,
} from '@codeagent/permission-gate';
import { loadInstalledShellGrammar } from '@codeagent/permission-gate/node';
import { createBuiltinToolkit, type BuiltinToolkit } from '@codeagent/tools';
import {
  type ApprovalRendering,
  createTerminalRenderer,
  renderApproval,
  type TerminalRenderer,
  truncateToWidth,
  visibleWidth,
} from '@codeagent/terminal';
import { assertNever, type FileDiff, revealText, type ToolCallView } from '@codeagent/render-intent';
import type { ChosenModel } from './model.js';
import type { Key, KeyInput } from './keys.js';
import { formatElapsed, Spinner } from './spinner.js';
import { LiveOutput } from './live-output.js';
import { MarkdownStream } from './markdown.js';
import { TurnJournal } from './journal.js';
import type { TurnSink } from './sessions.js';
import { Checkpoints } from './undo.js';
import { StreamSanitizer } from './text-stream.js';
import { wrapParts } from './wrap.js';

/** Where the host writes. */
export interface HostIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number; rows?: number };
  stderr: NodeJS.WritableStream;
  env: NodeJS.ProcessEnv;
  keys: KeyInput;
}

/** How a host session is set up. */
export interface HostOptions {
  cwd: string;
  mode: PermissionMode;
  rules?: PermissionRules | undefined;
  /** Settings from the settings files (policy, rules, timeouts...); `mode` here is ignored (see `mode`). */
  permissions?: PermissionConfig | undefined;
  /** Paths added to the gate's protected configuration (the CLI's data dir: sessions, settings, trust list). */
  protectedPaths?: readonly string[] | undefined;
  json: boolean;
  color: boolean;
  chosen: ChosenModel;
  /** A saved session (`client.save()` output) to resume. */
  resume?: unknown;
  /** The system prompt (from `@codeagent/system-prompt`); agent-core appends the skills hint. */
  system?: string | undefined;
  /** Where the completed steps of the turn in flight are saved (the session store's sink), or none. */
  journal?: (() => TurnSink) | undefined;
  /** `io.stdout` is not shown to anyone (`-p` without `--verbose`): error lines go to `io.stderr` instead. */
  quiet?: boolean;
}

/** The text of a denied tool call's result (the permission gate's wording, CONTRACTS.md §4). */
const DENIAL_PREFIX = 'Permission denied for ';

/** Whether a tool result is the permission gate's denial. */
export function isDenial(event: { isError: boolean; value: unknown }): boolean {
  return event.isError && typeof event.value === 'string' && event.value.startsWith(DENIAL_PREFIX);
}

const dim = (on: boolean, s: string) => (on ? `\u001b[2m${s}\u001b[0m` : s);
const bold = (on: boolean, s: string) => (on ? `\u001b[1m${s}\u001b[0m` : s);
const red = (on: boolean, s: string) => (on ? `\u001b[31m${s}\u001b[0m` : s);
const yellow = (on: boolean, s: string) => (on ? `\u001b[33m${s}\u001b[0m` : s);

/** Exit status of a one-shot run for each stop reason. */
export function exitStatusFor(result: StreamResult): number {
  switch (result.stopReason) {
    case 'completed':
      return 0;
    case 'error':
      return 1;
    case 'interrupted':
      return 130;
    case 'truncated':
    case 'filtered':
    case 'incomplete_tool_use':
    case 'max_turns':
    case 'budget_exceeded':
      return 3;
    default:
      return assertNever(result.stopReason, 'stop reason');
  }
}

/**
 * One CLI session: an agent-core client with the built-in tools and a permission gate whose approvals are
 * answered by keystroke, rendering every event to the terminal (or as NDJSON).
 */
export class CliHost {
  #client: CodeagentClient;
  #totals: SessionTotals = { inputTokens: 0, outputTokens: 0, cost: 0, priced: true, turns: 0 };
  /** Tools beyond the built-ins (MCP servers'), registered again when `/model` rebuilds the client. */
  readonly #extraTools: AgentTool<unknown>[] = [];
  private chosen: ChosenModel;
  readonly toolkit: BuiltinToolkit;
  /** File snapshots of each turn, for `/undo`. */
  readonly checkpoints: Checkpoints;
  /** The completed steps of the turn in flight, on disk. */
  private readonly journal = new TurnJournal();
  private readonly renderer: TerminalRenderer;
  private readonly spinner: Spinner;
  /** The tail of a running call's output under its card (a terminal only). */
  private readonly live: LiveOutput | null;
  private readonly color: boolean;
  private pendingCalls = new Map<string, PendingCall>();
  private readonly width: number;
  /** Id of the tool call whose card was printed last, so a result printed elsewhere gets a label. */
  private lastCallShown: string | null = null;
  /** Whether the last text written left its line open (the model's text goes on). */
  private lineOpen = false;
  /** The CLI's own lines waiting for a line start. */
  private readonly notes: string[] = [];
  /**
   * The prompt that owns the screen (an approval, or a server's question in the middle of a turn), or `null`. While
   * one does, every other output is queued in `held` and printed after its answer (the question stays last on
   * screen), the spinner and the live tail are not drawn, and keys go to the prompt only. `before` is
   * {@link lastCallShown} when it began (is the request card right above it?).
   */
  private screen: { held: string[]; before: string | null } | null = null;
  /** Prompts waiting for the screen, in order (one prompt at a time). */
  private readonly screenQueue: Array<() => void> = [];
  private abortController: AbortController | null = null;
  private lastInterruptAt = 0;
  /** Keys typed while a turn runs. */
  private typed = '';
  /** Set when a second Ctrl+C during a turn asks the whole program to exit. */
  exitRequested = false;
  /** The answer of the last turn: its text after the last tool call, sanitised (what `-p` prints). */
  lastAnswer = '';
  /** Tool calls the permission gate (or the user) denied in the last turn. */
  lastDenials = 0;

  constructor(
    private readonly io: HostIO,
    private readonly options: HostOptions,
  ) {
    this.color = options.color && !options.json;
    this.width = Math.max(40, Math.min(io.stdout.columns ?? 100, 160));
    this.renderer = createTerminalRenderer({ color: this.color, width: this.width });
    this.spinner = new Spinner(
      (t) => io.stdout.write(t),
      io.stdout.isTTY === true && !options.json,
      Date.now,
      this.color,
      () => io.stdout.columns ?? 80,
    );
    this.live =
      io.stdout.isTTY === true && !options.json
        ? new LiveOutput((t) => io.stdout.write(t), {
            color: this.color,
            columns: () => io.stdout.columns ?? 100,
            rows: () => io.stdout.rows ?? 24,
          })
        : null;
    this.toolkit = createBuiltinToolkit({
      cwd: options.cwd,
      // Read-path rules reach Read, Glob and Grep; a link cannot carry a write into protected configuration.
      readFilter: (p) => this.gate()?.readRestriction(p) == null,
      writeFilter: (p) => {
        const gate = this.gate();
        return gate === null || gate.mode === 'bypass' || !gate.isProtectedPath(p);
      },
    });
    this.checkpoints = new Checkpoints(this.toolkit.workspace);
    this.chosen = options.chosen;
    this.#client = this.build(options.resume, options.mode);
  }

  /** The agent-core client of this session (replaced, history kept, by {@link switchModel}). */
  get client(): CodeagentClient {
    return this.#client;
  }

  /** The model in use. */
  get model(): ChosenModel {
    return this.chosen;
  }

  /**
   * A client in `mode`: the mode is given once, to the client, and lives in its gate from then on. With `gate`
   * (`/model`), that gate moves to the new client instead, with its mode, rules and "always" grants.
   */
  private build(resume: unknown, mode: PermissionMode, gate: PermissionGate | null = null): CodeagentClient {
    const chosen = this.chosen;
    const clientOptions = {
      model: chosen.resolved.model,
      cwd: this.options.cwd,
      tools: [...this.checkpoints.wrap(this.toolkit.tools), ...this.#extraTools],
      permissionMode: mode,
      contextWindow: chosen.contextWindow,
      maxOutputTokens: chosen.maxOutputTokens,
      skills: {},
      ...(chosen.pricing ? { pricing: chosen.pricing } : {}),
      ...(this.options.system === undefined ? {} : { system: this.options.system }),
    };
    const client = resume === undefined ? createClient(clientOptions) : loadSession(resume, clientOptions);
    if (gate !== null) {
      // The same gate moves to the new client: its mode, rules and "always" grants carry over.
      client.setPermissionGate(gate);
      return client;
    }
    const { mode: _ignored, ...settings } = this.options.permissions ?? {};
    // The client installed its gate in `mode`; this adds the settings and the ask callback, mode untouched.
    installPermissionGate(client, {
      ...settings,
      cwd: this.options.cwd,
      ...(this.options.rules ? { rules: this.options.rules } : {}),
      ...(this.options.protectedPaths ? { protectedPaths: this.options.protectedPaths } : {}),
      ask: (name, input, id, context) => this.ask(name, input, id, context),
    });
    return client;
  }

  /**
   * Registers a tool beyond the built-ins (an MCP server's) with the client and its gate; it stays across `/model`
   * switches. Throws while a turn runs or on a duplicate name (the client's rules).
   */
  registerTool<Args>(tool: AgentTool<Args>): void {
    this.#client.registerTool(tool);
    this.#extraTools.push(tool as unknown as AgentTool<unknown>);
  }

  /**
   * Runs a question to the user that may come in the middle of a turn (an MCP server's sign-in or form): the spinner
   * stops, and typed keys go to the question instead of the queue of the next prompt.
   */
  async question<T>(ask: () => Promise<T>): Promise<T> {
    const release = await this.takeScreen(undefined);
    try {
      return await ask();
    } finally {
      release();
    }
  }

  /**
   * Switches the model mid-session (`/model`): the conversation, the mode, the gate with its session grants, the
   * tools (running background jobs) and the undo checkpoints carry over.
   */
  switchModel(chosen: ChosenModel): void {
    const saved: unknown = JSON.parse(this.#client.save());
    const gate = this.gate();
    const mode = this.#client.permissionMode;
    this.chosen = chosen;
    this.#client = this.build(saved, mode, gate);
  }

  /** Tokens and cost of this session so far (`/cost`). */
  get totals(): Readonly<SessionTotals> {
    return this.#totals;
  }

  /** The installed permission gate, or `null`. */
  gate(): PermissionGate | null {
    return this.client?.getPermissionGate() ?? null;
  }

  /**
   * One warning per rule that names a tool this session does not have (it would match nothing), prefixed with
   * the file the rule came from; `sources` lists each rule with its list and file.
   */
  ruleWarnings(
    sources: ReadonlyArray<{ list: 'allow' | 'ask' | 'deny'; rule: string; file: string }>,
  ): string[] {
    const known = this.client.toolNames;
    const byFile = new Map<string, { allow: string[]; ask: string[]; deny: string[] }>();
    for (const s of sources) {
      let rules = byFile.get(s.file);
      if (rules === undefined) {
        rules = { allow: [], ask: [], deny: [] };
        byFile.set(s.file, rules);
      }
      rules[s.list].push(s.rule);
    }
    return [...byFile].flatMap(([file, rules]) =>
      findUnknownRuleTools(rules, known).map((u) => `${file}: ${describeUnknownRuleTool(u, known)}`),
    );
  }

  /** Changes the permission mode in place (`/mode`). */
  setMode(mode: PermissionMode): void {
    this.client.setPermissionMode(mode);
  }

  /**
   * Writes text to the terminal (callers sanitise what came from a tool or model). While an approval prompt is
   * pending the text is held and printed after the answer, so the question stays last on screen.
   */
  print(text: string): void {
    if (this.screen !== null) {
      this.screen.held.push(text);
      return;
    }
    this.printNow(text);
  }

  /** Writes at once, even while a prompt is pending (the prompt's own lines). */
  private printNow(text: string): void {
    this.spinner.clear();
    // A running call's tail is erased first; it is drawn again under whatever came, with its next output.
    this.live?.clear();
    this.io.stdout.write(text);
    if (text !== '') this.lineOpen = !text.endsWith('\n');
    if (!this.lineOpen && this.notes.length > 0) {
      const notes = this.notes.splice(0);
      this.io.stdout.write(notes.join(''));
    }
  }

  /** Prints a line of the CLI's own (`queued: ...`) at the next line start, never inside the model's text. */
  private note(line: string): void {
    if (this.lineOpen || this.screen !== null) this.notes.push(line);
    else this.printNow(line);
  }

  /**
   * Gives the screen to a prompt (an approval for call `id`, or a question) once no other prompt has it: every
   * other output is held (cards and results of parallel calls, text, live output), the spinner stops, keys go to
   * the prompt. Returns the release, which prints what was held, hands the screen to the next prompt waiting, and
   * otherwise draws the spinner again at once (a call that stays silent still shows what runs). The asked call's
   * card is above the prompt, so a held result of another call gets its `↳` label.
   */
  private async takeScreen(id: string | undefined): Promise<(progress?: boolean) => void> {
    while (this.screen !== null) await new Promise<void>((resolve) => this.screenQueue.push(resolve));
    this.spinner.clear();
    this.live?.clear();
    this.screen = { held: [], before: this.lastCallShown };
    this.lastCallShown = id ?? null;
    let released = false;
    return (progress = true) => {
      if (released) return;
      released = true;
      const held = this.screen?.held ?? [];
      this.screen = null;
      this.printNow(held.join(''));
      const next = this.screenQueue.shift();
      if (next !== undefined) next();
      else if (progress && this.abortController?.signal.aborted === false && !this.lineOpen)
        this.drawProgress();
    };
  }

  /** The running call's live tail (if any) and the spinner naming what runs, at once rather than at the next tick. */
  private drawProgress(): void {
    if (this.screen !== null) return;
    if (this.live?.call != null) {
      this.spinner.clear();
      this.live.draw();
    }
    this.spinner.tick();
  }

  /**
   * Whether the gate will ask about this call (so its card is drawn by the prompt, not now): an interactive
   * session, an `ask` decision, and no session grant of that tool that may cover it.
   */
  private willAsk(name: string, args: unknown): boolean {
    if (!this.io.keys.interactive || this.options.json) return false;
    const gate = this.gate();
    if (gate === null) return false;
    const input =
      typeof args === 'object' && args !== null && !Array.isArray(args) && '_intent' in args
        ? Object.fromEntries(Object.entries(args).filter(([k]) => k !== '_intent'))
        : args;
    const e = gate.evaluate(name, input);
    return e.decision === 'ask' && !(e.source.kind === 'mode' && gate.sessionGrants().includes(name));
  }

  /** Runs one turn, rendering events as they arrive; Ctrl+C aborts it. */
  async runTurn(input: string): Promise<StreamResult> {
    const controller = new AbortController();
    this.abortController = controller;
    const release = this.io.keys.capture((key) => this.onKey(key));
    const text = new StreamSanitizer();
    // Model text is Markdown: drawn as it streams on a terminal, passed through as written elsewhere.
    const md =
      this.io.stdout.isTTY === true && !this.options.json
        ? new MarkdownStream({ color: this.color, width: () => this.io.stdout.columns ?? 100 })
        : null;
    const prose = (s: string) => (md === null ? s : md.push(s));
    const endProse = () => (md === null ? '' : md.flush());
    let thinking = false;
    let atLineStart = true;
    let result: StreamResult | null = null;
    this.lastAnswer = '';
    this.lastDenials = 0;
    const note = this.checkpoints.takeNote();
    const prompt = note === null ? input : `${note}\n\n${input}`;
    this.checkpoints.begin(input);
    this.journal.begin(this.options.journal?.() ?? null, prompt);
    this.spinner.start();
    const endThinking = () => {
      if (thinking) {
        this.print(this.color ? '\u001b[0m\n' : '\n');
        thinking = false;
        atLineStart = true;
      }
    };
    const write = (s: string) => {
      if (s === '') return;
      this.print(s);
      atLineStart = s.endsWith('\n');
    };
    const newline = () => {
      if (!atLineStart) write('\n');
    };
    try {
      for await (const event of streamEvents(this.client, prompt, { signal: controller.signal })) {
        if (event.type === 'tool-result' && isDenial(event)) this.lastDenials += 1;
        this.journal.record(event);
        if (this.options.json) {
          this.io.stdout.write(`${JSON.stringify(event)}\n`);
          if (event.type === 'end') {
            result = event.result;
            this.count(event.result);
          }
          continue;
        }
        switch (event.type) {
          case 'delta': {
            endThinking();
            const safe = text.push(event.text);
            this.lastAnswer += safe;
            write(prose(safe));
            break;
          }
          case 'thinking':
            if (!thinking) {
              write(endProse());
              newline();
              write(this.color ? '\u001b[2;3m✻ ' : '✻ ');
              thinking = true;
            }
            write(clean(event.text));
            break;
          case 'tool-request': {
            endThinking();
            write(prose(text.flush()));
            write(endProse());
            this.lastAnswer = '';
            newline();
            const pending: PendingCall = { view: event.view, intent: event.intent, shown: null };
            this.pendingCalls.set(event.id, pending);
            this.spinner.setLabel(`running ${spinnerTitle(event.view.title)}`);
            // A diff card waits: the approval shows the change computed from the file, or the result shows it.
            if (event.view.card === 'diff') break;
            // The gate loads its Bash grammar before deciding; loaded here, the decision below is the real one.
            if (this.gate() !== null && !isShellGrammarLoaded())
              await loadInstalledShellGrammar().catch(() => undefined);
            // A call that will ask is drawn by its prompt, in call order, one at a time (parallel calls).
            if (this.willAsk(event.name, event.arguments)) break;
            // Call cards go through the approval path: whatever the model put in them is shown, never applied.
            pending.shown = this.approvalCard(pending.view, pending.intent, this.approvalLines(), 'fallback');
            this.lastCallShown = event.id;
            write(`${pending.shown.text}\n`);
            break;
          }
          case 'tool-result': {
            // The final card replaces the live tail.
            this.live?.end(event.id);
            const pending = this.pendingCalls.get(event.id);
            const call = pending?.view;
            this.pendingCalls.delete(event.id);
            const next = [...this.pendingCalls.values()].at(-1);
            this.spinner.setLabel(next ? `running ${spinnerTitle(next.view.title)}` : 'thinking');
            newline();
            if (pending?.preview === true && !event.isError) {
              // The approval showed the change computed from the file, and the tool held the file to it.
              if (this.lastCallShown !== event.id) write(this.resultLabel(call, event.name));
              this.lastCallShown = null;
              write(`${dim(this.color, '  ✓ applied as approved')}\n`);
              break;
            }
            if (call?.card === 'diff' && pending?.shown === null && pending.preview !== true) {
              // The deferred call card (no approval was asked), now above its result. Its diff comes from the
              // arguments alone, so it is shown only when the result applied exactly that (a new file); otherwise
              // the result's hunks (real line numbers, context) say it, and a failed call changed nothing.
              const same =
                !event.isError && event.view.card === 'diff' && sameDiffs(call.diffs, event.view.diffs);
              write(`${this.renderer.renderToolCall(same ? call : { ...call, diffs: [] })}\n`);
              this.lastCallShown = event.id;
            } else if (call !== undefined && pending?.shown === null && pending.preview !== true) {
              // A card left for a prompt that never came (a grant covered the call, or its precheck failed).
              write(`${this.approvalCard(call, pending.intent, this.approvalLines(), 'fallback').text}\n`);
              this.lastCallShown = event.id;
            }
            // Parallel calls: say which call this result answers.
            if (this.lastCallShown !== event.id) write(this.resultLabel(call, event.name));
            this.lastCallShown = null;
            if (
              call?.card === 'diff' &&
              event.view.card === 'diff' &&
              sameDiffs(call.diffs, event.view.diffs)
            ) {
              // The call's card already showed exactly this change (a new file, a whole-file write).
              write(`${dim(this.color, '  ✓ applied as shown')}\n`);
              break;
            }
            write(
              `${this.renderer.renderToolResult(event.view, {
                artifact: event.artifact,
                value: event.value,
              })}\n`,
            );
            break;
          }
          case 'error': {
            endThinking();
            newline();
            write(endProse());
            newline();
            const line = event.recovered
              ? `${yellow(this.color, '!')} ${clean(event.message)}\n`
              : `${red(this.color, '✗ error:')} ${clean(event.message)}\n`;
            if (this.options.quiet) this.io.stderr.write(line);
            else write(line);
            break;
          }
          case 'tool-output': {
            // A card left for a prompt that did not come (a grant covered the call) is drawn before its output.
            const pending = this.pendingCalls.get(event.id);
            if (pending !== undefined && pending.shown === null && pending.view.card !== 'diff') {
              newline();
              pending.shown = this.approvalCard(
                pending.view,
                pending.intent,
                this.approvalLines(),
                'fallback',
              );
              write(`${pending.shown.text}\n`);
              this.lastCallShown = event.id;
            }
            // Never into a pending approval prompt: the tail is kept and drawn once the prompt is answered.
            this.live?.push(event.id, event.text);
            if (this.live && this.screen === null && atLineStart) {
              this.spinner.clear();
              this.live.draw();
            }
            break;
          }
          case 'usage':
            break;
          case 'tick':
            if (this.screen === null && atLineStart) this.spinner.tick();
            break;
          case 'compaction':
            newline();
            write(`${dim(this.color, describeCompaction(event.decision))}\n`);
            break;
          case 'end': {
            endThinking();
            const tail = text.flush();
            this.lastAnswer += tail;
            write(prose(tail));
            write(endProse());
            newline();
            result = event.result;
            this.count(event.result);
            write(`${this.footer(event.result)}\n`);
            break;
          }
          default:
            assertNever(event, 'agent event');
        }
      }
    } finally {
      this.checkpoints.end();
      if (this.notes.length > 0) this.printNow(this.lineOpen ? '\n' : '');
      this.spinner.clear();
      const call = this.live?.call;
      if (call != null) this.live?.end(call);
      release();
      this.abortController = null;
    }
    if (result === null) throw new Error('the turn ended without an end event');
    return result;
  }

  /** Text typed during the last turn (queued for the next prompt), once. */
  takeTyped(): string {
    const typed = this.typed;
    this.typed = '';
    return typed;
  }

  private onKey(key: Key): void {
    // A prompt that owns the screen reads its own keys.
    if (this.screen !== null) return;
    if (key.name === 'escape') {
      // Esc interrupts the turn, as in Claude Code; it never exits.
      if (this.abortController && !this.abortController.signal.aborted) {
        this.abortController.abort();
        this.lastInterruptAt = Date.now();
        this.print(`\n${dim(this.color, '^[ interrupted (Esc) — Ctrl+C twice exits')}\n`);
      }
      return;
    }
    if (!key.ctrl && key.sequence !== undefined) {
      // Typing ahead: printable text and Enter are kept for the next prompt; Backspace edits it.
      if (key.name === 'return' || key.name === 'enter') {
        const line = this.typed.split('\r').at(-1) ?? '';
        if (line.trim() !== '') this.note(`${dim(this.color, `queued: ${clean(line).slice(0, 80)}`)}\n`);
        this.typed += '\r';
      } else if (key.name === 'backspace') this.typed = this.typed.slice(0, -1);
      else if (/^[^\u0000-\u001f\u007f]+$/u.test(key.sequence) && key.sequence.length <= 4096)
        this.typed += key.sequence;
      return;
    }
    if (key.ctrl && key.name === 'c') {
      const now = Date.now();
      if (this.abortController && !this.abortController.signal.aborted) {
        this.abortController.abort();
        this.lastInterruptAt = now;
        this.print(`\n${dim(this.color, '^C interrupted — press Ctrl+C again to exit')}\n`);
      } else if (now - this.lastInterruptAt < 5_000) {
        this.exitRequested = true;
      }
    }
  }

  /** The `↳ title` line that says which call a result answers (parallel calls, approvals in between). */
  private resultLabel(call: ToolCallView | undefined, name: string): string {
    const label =
      clean(call ? call.title : name)
        .split('\n')[0]
        ?.slice(0, 100) ?? '';
    return `${dim(this.color, `↳ ${label}`)}\n`;
  }

  /** Most lines of an approval card before the rest is folded behind `v`: the screen minus the prompt. */
  private approvalLines(): number {
    const rows = this.io.stdout.rows;
    return typeof rows === 'number' && rows > 0 ? Math.max(6, rows - 4) : 40;
  }

  /** A call card through the approval path (no model escape applied, whitespace visible, wrapped). */
  private approvalCard(
    view: ToolCallView,
    intent: string | null,
    maxLines = this.approvalLines(),
    rawInput: 'always' | 'fallback' = 'always',
  ): ApprovalRendering {
    return renderApproval(view, { color: this.color, width: this.width, intent, maxLines, rawInput });
  }

  /**
   * Asks the user at the keyboard; without a terminal the answer is no (fail closed). A Write or Edit shows the
   * change computed from the file now (the call is then held to it); a card longer than the screen says how much
   * is hidden, and `v` shows all of it.
   */
  private async ask(
    name: string,
    input: unknown,
    id: string | undefined,
    context: AskContext | undefined,
  ): Promise<AskResult> {
    const safeName = clean(name);
    if (!this.io.keys.interactive || this.options.json) {
      this.io.stderr.write(
        `approval needed for ${safeName} (${id ?? 'no call id'}) but there is no terminal to ask: denied\n`,
      );
      return false;
    }
    // From here until the answer, other output waits: the question stays last on screen.
    const release = await this.takeScreen(id);
    let answer: AskResult = false;
    try {
      answer = await this.askHeld(name, input, id, context);
      return answer;
    } finally {
      // An allowed call shows what runs at once (the spinner names it); a denied one runs nothing.
      release(answer !== false);
    }
  }

  private async askHeld(
    name: string,
    input: unknown,
    id: string | undefined,
    context: AskContext | undefined,
  ): Promise<AskResult> {
    const safeName = clean(name);
    const pending = id === undefined ? undefined : this.pendingCalls.get(id);
    const preview = await this.toolkit.preview(name, input, id);
    // Interrupted while the preview was read: there is no prompt to show any more.
    if (this.abortController?.signal.aborted) return false;
    if (preview !== undefined && !preview.ok) {
      // The precheck passed a moment ago, so the file changed meanwhile: nothing to approve.
      this.printNow(`${red(this.color, '✗')} ${clean(preview.message)}\n`);
      return false;
    }
    const view: ToolCallView = preview?.ok
      ? preview.view
      : (pending?.view ?? { card: 'generic', title: name, rawInput: input });
    const intent = pending?.intent ?? null;
    let card = pending?.shown ?? null;
    this.spinner.clear();
    const full = this.approvalCard(view, intent);
    // The request card is reused when it is right above and already shows everything the approval would.
    if (preview?.ok || card === null || this.screen?.before !== id || card.text !== full.text) {
      card = full;
      this.printNow(`${card.text}\n`);
    }
    if (pending) {
      pending.shown = card;
      if (preview?.ok) pending.preview = true;
    }
    const folded = card.hiddenLines > 0;
    const scope = context?.grantScope ?? null;
    const question = approvalQuestion(view, safeName);
    // The question, then its options; a line too long for the terminal breaks between options, never inside one.
    const prompt = (more: boolean) =>
      `${wrapParts(
        [
          bold(this.color, question),
          `${bold(this.color, '[y]')} once`,
          ...(scope === null
            ? []
            : [`${bold(this.color, '[a]')} always: ${clean(describeGrantScope(name, scope))}`]),
          `${bold(this.color, '[n]')} deny`,
          ...(more ? [`${bold(this.color, '[v]')} view all ${card?.totalLines ?? 0} lines`] : []),
        ],
        (this.io.stdout.columns ?? 100) - 2,
        '',
        '  ',
      ).join('\n')}  `;
    if (context !== undefined && context.source.kind !== 'mode') {
      // Say why this asks when it is not just the mode: a protected path or an ask rule asks every time.
      this.printNow(`${dim(this.color, clean(context.reason))}\n`);
    }
    this.printNow(prompt(folded));
    return new Promise<AskResult>((resolve) => {
      let settled = false;
      let expanded = false;
      const release = this.io.keys.capture((key) => {
        if (settled) return;
        const name = (key.name ?? key.sequence ?? '').toLowerCase();
        let answer: AskResult | undefined;
        let label = '';
        if (name === 'v' && folded && !expanded) {
          expanded = true;
          this.printNow(
            `\n${this.approvalCard(view, intent, Number.POSITIVE_INFINITY).text}\n${prompt(false)}`,
          );
          return;
        }
        if (name === 'y') {
          answer = true;
          label = 'allowed once';
        } else if (name === 'a' && scope !== null) {
          answer = { allow: true, scope: 'session' };
          label = `allowed for this session: ${clean(describeGrantScope(safeName, scope))}`;
        } else if (name === 'n' || name === 'escape' || (key.ctrl && key.name === 'c')) {
          answer = false;
          label = 'denied';
        }
        if (answer === undefined) return;
        settled = true;
        release();
        // The answer goes after the options, or under them when it would not fit beside them.
        const shown =
          prompt(folded && !expanded)
            .split('\n')
            .at(-1) ?? '';
        const fits = visibleWidth(shown) + visibleWidth(label) <= (this.io.stdout.columns ?? 100);
        this.printNow(`${fits ? '' : '\n'}${label}\n`);
        resolve(answer);
        if (key.ctrl && key.name === 'c') this.abortController?.abort();
      });
      this.abortController?.signal.addEventListener(
        'abort',
        () => {
          if (settled) return;
          settled = true;
          release();
          this.printNow('cancelled\n');
          resolve(false);
        },
        { once: true },
      );
    });
  }

  /** The footer under each turn: usage, context warning and stop reason. */
  footer(result: StreamResult): string {
    const parts: string[] = [];
    const usage: Usage | null = result.usage;
    if (usage) {
      const pct = Math.round(usage.warningState.percentLeft);
      const guessed = this.chosen.windowSource === 'default';
      let context = `${formatTokens(usage.nTokens)} / ${formatTokens(usage.modelLimit)}${guessed ? '?' : ''} tokens (${pct}% left)`;
      if (guessed) {
        // The window is a guess (unknown model): say so instead of alarming.
        if (usage.warningState.aboveWarning) context = `${context} — window unknown, set --context-window`;
      } else if (usage.warningState.atBlocking) context = red(this.color, `${context} — context full`);
      else if (usage.warningState.aboveError) context = red(this.color, `${context} — compact soon`);
      else if (usage.warningState.aboveWarning)
        context = yellow(this.color, `${context} — context filling up`);
      parts.push(context);
      // An interrupted request reports no usage: say nothing rather than "0 tokens, $0".
      const counted = usage.inputTokens > 0 || usage.outputTokens > 0 || result.stopReason !== 'interrupted';
      if (counted)
        parts.push(`in ${formatTokens(usage.inputTokens)} · out ${formatTokens(usage.outputTokens)}`);
      if (counted && usage.costLast !== null) {
        parts.push(
          `${formatCost(usage.costLast)}${this.#totals.turns > 1 ? ` (session ${formatCost(this.#totals.cost)})` : ''}`,
        );
      }
    }
    parts.push(`${result.stopReason}${result.finishReason ? ` (${clean(result.finishReason)})` : ''}`);
    parts.push(formatElapsed(this.spinner.elapsed()));
    return wrapParts([`── ${parts[0] ?? ''}`, ...parts.slice(1)], this.io.stdout.columns ?? 100, '   ')
      .map((line) => dim(this.color, line))
      .join('\n');
  }

  private count(result: StreamResult): void {
    const usage = result.usage;
    this.#totals.turns += 1;
    if (usage === null) return;
    this.#totals.inputTokens += usage.inputTokens;
    this.#totals.outputTokens += usage.outputTokens;
    if (usage.costLast === null) this.#totals.priced = false;
    else this.#totals.cost += usage.costLast;
  }

  /** The turn is saved whole: its journal is no longer needed (call after saving the session). */
  turnSaved(): void {
    this.journal.end();
  }

  /** Kills background jobs; call when the session ends. */
  async dispose(): Promise<void> {
    await this.toolkit.dispose();
  }
}

/** A call between its request and its result, with what the terminal showed of it. */
interface PendingCall {
  view: ToolCallView;
  intent: string | null;
  /** The approval-path card printed for the request (`null` while a diff card waits). */
  shown: ApprovalRendering | null;
  /** Whether the approval showed a preview computed from the file. */
  preview?: boolean;
}

/** Tokens and cost of a session. */
export interface SessionTotals {
  inputTokens: number;
  outputTokens: number;
  /** Dollars, summed over priced turns. */
  cost: number;
  /** False once a turn had no price (an unknown model): the cost is then a lower bound. */
  priced: boolean;
  turns: number;
}

/** Dollars with enough digits for small turns: $0.0042, $1.23. */
export function formatCost(dollars: number): string {
  return dollars < 1 ? `$${dollars.toFixed(4)}` : `$${dollars.toFixed(2)}`;
}

/** Shortens token counts: 1234 -> 1.2k. */
export function formatTokens(n: number): string {
  if (n < 1000) return String(n);
  if (n < 1_000_000) return `${(n / 1000).toFixed(1)}k`;
  return `${(n / 1_000_000).toFixed(2)}M`;
}

/** One line describing a compaction decision and what it dropped. */
export function describeCompaction(decision: CompactionDecision): string {
  return `compaction: ${decision.action} (${clean(decision.reason)}) ${decision.beforeTokens} -> ${decision.afterTokens} tokens, dropped ${decision.dropped.length} item(s)`;
}

/**
 * The question of an approval prompt, naming what the card above shows: `Run npm test?` for a command,
 * `Allow Stop job-2?` / `Allow Write src/a.ts?` for other cards (the title, else the tool name). Invisible
 * characters and space runs are shown as in the card; a long title is cut to 60 columns with `…`.
 */
export function approvalQuestion(view: ToolCallView, toolName: string): string {
  const title = typeof view.title === 'string' ? view.title.trim() : '';
  const shown = clean(revealText(title === '' ? toolName : title, { newlines: 'mark' }));
  const lines = shown.split('\n');
  const first = lines.length > 1 ? `${lines[0] ?? ''} …` : shown;
  const short = truncateToWidth(first, 60, { ellipsis: '…' });
  const raw = view.card === 'generic' ? view.rawInput : undefined;
  const background =
    typeof raw === 'object' &&
    raw !== null &&
    (raw as { run_in_background?: unknown }).run_in_background === true;
  // A command (a terminal card, or a background job whose title is its command) is run, not "allowed".
  const command =
    view.card === 'terminal' ||
    (view.card === 'generic' &&
      view.kind === 'execute' &&
      typeof raw === 'object' &&
      raw !== null &&
      (raw as { command?: unknown }).command === view.title);
  if (!command || title === '') return `Allow ${short}?`;
  return background ? `Run ${short} in the background?` : `Run ${short}?`;
}

/** A card title for the spinner line: sanitised, first line, at most 60 characters. */
function spinnerTitle(title: string): string {
  // Revealed as the card and the question show it: a model's escape in a title is text, never a style.
  const line = clean(revealText(title)).split('\n')[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** Whether two diff lists show the same change. */
function sameDiffs(a: readonly FileDiff[], b: readonly FileDiff[]): boolean {
  return (
    a.length === b.length &&
    a.every((d, i) => d.path === b[i]?.path && d.oldText === b[i]?.oldText && d.newText === b[i]?.newText)
  );
}
