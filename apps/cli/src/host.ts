import { clean } from './clean.js';
import {
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
} from '@codeagent/permission-gate';
import { createBuiltinToolkit, type BuiltinToolkit } from '@codeagent/tools';
import { createTerminalRenderer, type TerminalRenderer } from '@codeagent/terminal';
import type { FileDiff, ToolCallView } from '@codeagent/render-intent';
import type { ChosenModel } from './model.js';
import type { Key, KeyInput } from './keys.js';
import { formatElapsed, Spinner } from './spinner.js';
import { StreamSanitizer } from './text-stream.js';

/** Where the host writes. */
export interface HostIO {
  stdout: NodeJS.WritableStream & { isTTY?: boolean; columns?: number };
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
    default: {
      const never: never = result.stopReason;
      throw new Error(`unreachable stop reason ${String(never)}`);
    }
  }
}

/**
 * One CLI session: an agent-core client with the built-in tools and a permission gate whose approvals are
 * answered by keystroke, rendering every event to the terminal (or as NDJSON).
 */
export class CliHost {
  readonly client: CodeagentClient;
  readonly toolkit: BuiltinToolkit;
  private readonly renderer: TerminalRenderer;
  private readonly spinner: Spinner;
  private readonly color: boolean;
  private pendingCalls = new Map<string, ToolCallView>();
  /** Id of the tool call whose card was printed last, so a result printed elsewhere gets a label. */
  private lastCallShown: string | null = null;
  private approvalActive = false;
  private abortController: AbortController | null = null;
  private lastInterruptAt = 0;
  /** Set when a second Ctrl+C during a turn asks the whole program to exit. */
  exitRequested = false;

  constructor(
    private readonly io: HostIO,
    private readonly options: HostOptions,
  ) {
    this.color = options.color && !options.json;
    this.renderer = createTerminalRenderer({
      color: this.color,
      width: Math.max(40, Math.min(io.stdout.columns ?? 100, 160)),
    });
    this.spinner = new Spinner((t) => io.stdout.write(t), io.stdout.isTTY === true && !options.json);
    this.toolkit = createBuiltinToolkit({
      cwd: options.cwd,
      // Read-path rules reach Read, Glob and Grep; a link cannot carry a write into protected configuration.
      readFilter: (p) => this.gate()?.readRestriction(p) == null,
      writeFilter: (p) => {
        const gate = this.gate();
        return gate === null || gate.mode === 'bypass' || !gate.isProtectedPath(p);
      },
    });
    const clientOptions = {
      model: options.chosen.resolved.model,
      cwd: options.cwd,
      tools: this.toolkit.tools,
      permissionMode: options.mode,
      contextWindow: options.chosen.resolved.contextWindow,
      maxOutputTokens: options.chosen.resolved.maxOutputTokens,
      skills: {},
    };
    this.client =
      options.resume === undefined ? createClient(clientOptions) : loadSession(options.resume, clientOptions);
    const { mode: _ignored, ...settings } = options.permissions ?? {};
    installPermissionGate(this.client, {
      ...settings,
      mode: options.mode,
      cwd: options.cwd,
      ...(options.rules ? { rules: options.rules } : {}),
      ...(options.protectedPaths ? { protectedPaths: options.protectedPaths } : {}),
      ask: (name, input, id, context) => this.ask(name, input, id, context),
    });
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
    installPermissionGate(this.client, { mode });
    this.client.setPermissionMode(mode);
  }

  /** Writes text to the terminal, sanitised: nothing from a tool or model reaches it unfiltered. */
  print(text: string): void {
    this.spinner.clear();
    this.io.stdout.write(text);
  }

  /** Runs one turn, rendering events as they arrive; Ctrl+C aborts it. */
  async runTurn(input: string): Promise<StreamResult> {
    const controller = new AbortController();
    this.abortController = controller;
    const release = this.io.keys.capture((key) => this.onKey(key));
    const text = new StreamSanitizer();
    let thinking = false;
    let atLineStart = true;
    let result: StreamResult | null = null;
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
      for await (const event of streamEvents(this.client, input, { signal: controller.signal })) {
        if (this.options.json) {
          this.io.stdout.write(`${JSON.stringify(event)}\n`);
          if (event.type === 'end') result = event.result;
          continue;
        }
        switch (event.type) {
          case 'delta':
            endThinking();
            write(text.push(event.text));
            break;
          case 'thinking':
            if (!thinking) {
              newline();
              write(this.color ? '\u001b[2;3m✻ ' : '✻ ');
              thinking = true;
            }
            write(clean(event.text));
            break;
          case 'tool-request':
            endThinking();
            write(text.flush());
            newline();
            this.pendingCalls.set(event.id, event.view);
            this.lastCallShown = event.id;
            write(`${this.renderer.renderToolCall(event.view)}\n`);
            break;
          case 'tool-result': {
            const call = this.pendingCalls.get(event.id);
            this.pendingCalls.delete(event.id);
            newline();
            if (this.lastCallShown !== event.id) {
              // Parallel calls: say which call this result answers.
              const label = call ? call.title : event.name;
              write(`${dim(this.color, `↳ ${clean(label).split('\n')[0]?.slice(0, 100) ?? ''}`)}\n`);
            }
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
          case 'error':
            endThinking();
            newline();
            write(
              event.recovered
                ? `${yellow(this.color, '!')} ${clean(event.message)}\n`
                : `${red(this.color, '✗ error:')} ${clean(event.message)}\n`,
            );
            break;
          case 'usage':
            break;
          case 'tick':
            if (!this.approvalActive && atLineStart) this.spinner.tick();
            break;
          case 'compaction':
            newline();
            write(`${dim(this.color, describeCompaction(event.decision))}\n`);
            break;
          case 'end':
            endThinking();
            write(text.flush());
            newline();
            result = event.result;
            write(`${this.footer(event.result)}\n`);
            break;
          default: {
            const never: never = event;
            throw new Error(`unreachable event ${JSON.stringify(never)}`);
          }
        }
      }
    } finally {
      this.spinner.clear();
      release();
      this.abortController = null;
    }
    if (result === null) throw new Error('the turn ended without an end event');
    return result;
  }

  private onKey(key: Key): void {
    if (key.ctrl && key.name === 'c') {
      if (this.approvalActive) return; // the approval prompt handles its own Ctrl+C
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

  /** Asks the user at the keyboard; without a terminal the answer is no (fail closed). */
  private ask(
    name: string,
    _input: unknown,
    id: string | undefined,
    context: AskContext | undefined,
  ): Promise<AskResult> {
    const safeName = clean(name);
    if (!this.io.keys.interactive || this.options.json) {
      this.io.stderr.write(
        `approval needed for ${safeName} (${id ?? 'no call id'}) but there is no terminal to ask: denied\n`,
      );
      return Promise.resolve(false);
    }
    this.spinner.clear();
    this.approvalActive = true;
    const scope = context?.grantScope ?? null;
    if (context !== undefined && context.source.kind !== 'mode') {
      // Say why this asks when it is not just the mode: a protected path or an ask rule asks every time.
      this.print(`${dim(this.color, clean(context.reason))}\n`);
    }
    const always =
      scope === null ? '' : `${bold(this.color, '[a]')} always: ${clean(describeGrantScope(name, scope))}  `;
    this.print(
      `${bold(this.color, `Allow ${safeName}?`)}  ${bold(this.color, '[y]')} once  ${always}${bold(this.color, '[n]')} deny  `,
    );
    return new Promise<AskResult>((resolve) => {
      let settled = false;
      const release = this.io.keys.capture((key) => {
        if (settled) return;
        const name = (key.name ?? key.sequence ?? '').toLowerCase();
        let answer: AskResult | undefined;
        let label = '';
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
        this.approvalActive = false;
        this.print(`${label}\n`);
        resolve(answer);
        if (key.ctrl && key.name === 'c') this.abortController?.abort();
      });
      this.abortController?.signal.addEventListener(
        'abort',
        () => {
          if (settled) return;
          settled = true;
          release();
          this.approvalActive = false;
          this.print('cancelled\n');
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
      let context = `${formatTokens(usage.nTokens)} / ${formatTokens(usage.modelLimit)} tokens (${pct}% left)`;
      if (usage.warningState.atBlocking) context = red(this.color, `${context} — context full`);
      else if (usage.warningState.aboveError) context = red(this.color, `${context} — compact soon`);
      else if (usage.warningState.aboveWarning)
        context = yellow(this.color, `${context} — context filling up`);
      parts.push(context);
      parts.push(`in ${formatTokens(usage.inputTokens)} · out ${formatTokens(usage.outputTokens)}`);
      if (usage.costLast !== null && usage.costLast > 0) parts.push(`$${usage.costLast.toFixed(4)}`);
    }
    parts.push(`${result.stopReason}${result.finishReason ? ` (${clean(result.finishReason)})` : ''}`);
    parts.push(formatElapsed(this.spinner.elapsed()));
    return dim(this.color, `── ${parts.join(' · ')}`);
  }

  /** Kills background jobs; call when the session ends. */
  async dispose(): Promise<void> {
    await this.toolkit.dispose();
  }
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

/** Whether two diff lists show the same change. */
function sameDiffs(a: readonly FileDiff[], b: readonly FileDiff[]): boolean {
  return (
    a.length === b.length &&
    a.every((d, i) => d.path === b[i]?.path && d.oldText === b[i]?.oldText && d.newText === b[i]?.newText)
  );
}
