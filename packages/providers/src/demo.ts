import { assertNever } from '@codeagent/artifact-schema/internal';
import {
  type Script,
  type ScriptContext,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptPart,
  type ScriptToolResult,
  type ScriptTurn,
  scriptedModel,
} from './scripted.js';

/** The permission setup the demo expects from its host: everything allowed except `rm`, which the rules deny. */
export const DEMO_PERMISSIONS: Readonly<{
  permissionMode: 'bypass';
  rules: Readonly<{ deny: readonly string[] }>;
}> = Object.freeze({
  permissionMode: 'bypass',
  rules: Object.freeze({ deny: Object.freeze(['Bash(rm *)']) }),
});

/** The command the demo runs to trigger a denial (matched by `Bash(rm *)` in {@link DEMO_PERMISSIONS}). */
export const DEMO_DENIED_COMMAND = 'rm -rf build';

/** What the demo answers once it has finished and the user says more. */
export const DEMO_EXHAUSTED_TEXT =
  'The demo tour is over. Configure a real model (see the providers README) to keep chatting.';

const GREET_OLD = "  return 'Hello, ' + name + '!';";
// biome-ignore lint/suspicious/noTemplateCurlyInString: TypeScript source text for the demo's Edit call.
const GREET_NEW = '  return `Hello, ${name}!`;';

const FAREWELL = `/** Says goodbye to someone. */
export function farewell(name: string): string {
  return \`Goodbye, \${name}. See you soon!\`;
}
`;

/** Call ids of the two background jobs, so later steps find their results whatever the order. */
const BUILD_CALL_ID = 'call_demo_build';
const WATCH_CALL_ID = 'call_demo_watch';

const COLOURED_LISTING =
  "ls src && cat package.json && printf '\\033[1;32mPASS\\033[0m greet  \\033[1;33mWARN\\033[0m 2 TODOs left\\n'";

function usage(step: number) {
  // Plausible, growing numbers: the prompt grows each step and most of it is served from cache.
  const input = 2_400 + step * 650;
  return { inputTokens: input, cacheReadTokens: step === 0 ? 0 : input - 700, outputTokens: 90 + step * 7 };
}

function call(toolName: string, input: Record<string, unknown>, intent: string, toolCallId?: string) {
  return {
    type: 'tool-call' as const,
    toolName,
    input: { ...input, _intent: intent },
    ...(toolCallId === undefined ? {} : { toolCallId }),
  };
}

/** Call ids of the steps whose outcome a later text reports, so no text claims what did not happen. */
const IDS = Object.freeze({
  glob: 'call_demo_glob',
  readGreet: 'call_demo_read_greet',
  readLogo: 'call_demo_read_logo',
  grep: 'call_demo_grep',
  edit: 'call_demo_edit',
  write: 'call_demo_write',
  listing: 'call_demo_listing',
  changelog: 'call_demo_changelog',
  todos: 'call_demo_todos',
  jobOutput: 'call_demo_job_output',
  jobKill: 'call_demo_job_kill',
  remove: 'call_demo_remove',
});

/** What became of one call: its result, read from the prompt. */
type Outcome = 'ok' | 'denied' | 'failed' | 'missing';

function outcomeOf(context: ScriptContext, toolCallId: string): Outcome {
  const result = context.allToolResults.find((r) => r.toolCallId === toolCallId);
  if (result === undefined) return 'missing';
  if (result.denied) return 'denied';
  return result.isError ? 'failed' : 'ok';
}

/** Why a call did not do its work, as a short clause ("was denied by the permission gate"). */
function notDone(outcome: Exclude<Outcome, 'ok'>): string {
  switch (outcome) {
    case 'denied':
      return 'was denied by the permission gate';
    case 'failed':
      return 'failed';
    case 'missing':
      return 'got no result';
    default:
      return assertNever(outcome, 'outcome');
  }
}

/** A sentence about one call: `done` when it worked, else what happened to it. */
function report(context: ScriptContext, toolCallId: string, done: string, what: string): string {
  const outcome = outcomeOf(context, toolCallId);
  return outcome === 'ok' ? done : `${what} ${notDone(outcome)}`;
}

/** Finds a job id in a background Bash result, whatever shape the host's tool gives it (only its start is read). */
export function findJobId(result: string): string | undefined {
  // The id comes first in any sane message; the cap also keeps the patterns linear on huge outputs.
  const text = typeof result === 'string' ? result.slice(0, 2_000) : '';
  try {
    const parsed: unknown = JSON.parse(text);
    if (typeof parsed === 'object' && parsed !== null) {
      const record = parsed as Record<string, unknown>;
      for (const key of ['job_id', 'jobId', 'id']) {
        const value = record[key];
        if (typeof value === 'string' && value !== '') return value;
        if (typeof value === 'number') return String(value);
      }
    }
  } catch {
    // Not JSON: fall through to the text patterns.
  }
  const patterns = [
    // "job_id: x1", "ID: job-42": an id label followed by a token with a digit.
    /\b(?:job[_ -]?)?id\b\W{0,4}([\w.-]*\d[\w.-]*)/iu,
    // "bg_7", "job-3": a prefixed token with a digit (so "job_output" is not taken for an id).
    /\b((?:job|bg|bash|shell)[_-][\w.-]*\d[\w.-]*)/iu,
    // "job 12".
    /\bjob\W{1,3}(\d[\w.-]*)/iu,
  ];
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return match[1];
  }
  return undefined;
}

function result(context: ScriptContext, toolCallId: string): ScriptToolResult | undefined {
  return context.allToolResults.find((r) => r.toolCallId === toolCallId);
}

const TODOS = {
  parts: [
    { type: 'text', text: 'While that builds, let me update the plan.\n' },
    call(
      'TodoWrite',
      {
        todos: [
          { content: 'Modernise greet()', status: 'completed', activeForm: 'Modernising greet()' },
          { content: 'Add a farewell helper', status: 'completed', activeForm: 'Adding a farewell helper' },
          {
            content: 'Clean the build folder',
            status: 'in_progress',
            activeForm: 'Cleaning the build folder',
          },
          { content: 'Write tests for greet and sum', status: 'pending', activeForm: 'Writing tests' },
        ],
      },
      'Track what is done and what is left',
      IDS.todos,
    ),
  ],
  usage: usage(7),
} satisfies ScriptTurn;

/** The job id the background call `toolCallId` reported, if its result is in the prompt. */
function jobIdOf(context: ScriptContext, toolCallId: string): string | undefined {
  const found = result(context, toolCallId);
  return found === undefined || found.isError ? undefined : findJobId(found.text);
}

function jobStep(context: ScriptContext): ScriptTurn {
  // The background results are two requests back (TodoWrite came in between): look them up by call id.
  const buildJob = jobIdOf(context, BUILD_CALL_ID);
  const watchJob = jobIdOf(context, WATCH_CALL_ID);
  const parts: ScriptPart[] = [];
  if (buildJob !== undefined) {
    parts.push(
      { type: 'text', text: `The build runs as job ${buildJob}. Let me read what it printed.\n` },
      call('job_output', { job_id: buildJob }, 'Collect the background build output', IDS.jobOutput),
    );
  }
  if (watchJob !== undefined) {
    parts.push(
      { type: 'text', text: `The watcher (job ${watchJob}) is not needed any more, so I will stop it.\n` },
      call('job_kill', { job_id: watchJob }, 'Stop the file watcher', IDS.jobKill),
    );
  }
  if (parts.length === 0) {
    parts.push(
      {
        type: 'text',
        text: 'The background jobs did not start (or reported no ids); I will look at the build folder instead.\n',
      },
      {
        type: 'tool-call',
        toolName: 'Bash',
        input: { command: 'ls build', description: 'List the build output' },
      },
    );
  }
  // Simulated model latency (about half a second over the turn), so the build job has finished printing.
  return { parts, usage: usage(8), delayMs: 20 };
}

function afterGlob(context: ScriptContext): ScriptTurn {
  const glob = outcomeOf(context, IDS.glob);
  const lead =
    glob === 'ok'
      ? 'There is a small `src/` folder and a logo. Let me read the greeting helper and look at the logo.\n'
      : `Listing the files ${notDone(glob)}, so I will try the files I expect directly.\n`;
  return {
    parts: [
      { type: 'text', text: lead },
      call('Read', { file_path: 'src/greet.ts' }, 'Understand greet() before changing it', IDS.readGreet),
      call('Read', { file_path: 'assets/logo.png' }, 'See the project logo', IDS.readLogo),
    ],
    usage: usage(1),
  };
}

function afterRead(context: ScriptContext): ScriptTurn {
  const read = result(context, IDS.readGreet);
  const lead =
    read !== undefined && !read.isError && read.text.includes('TODO')
      ? 'It has a TODO. Let me look for other TODO notes in the project.\n'
      : 'Let me look for TODO notes in the project.\n';
  return {
    parts: [
      { type: 'text', text: lead },
      call('Grep', { pattern: 'TODO', path: '.' }, 'Find open TODO notes', IDS.grep),
    ],
    usage: usage(2),
  };
}

function afterChangelog(context: ScriptContext): ScriptTurn {
  const changelog = outcomeOf(context, IDS.changelog);
  const lead =
    changelog === 'failed'
      ? 'No changelog then. Let me start a (pretend) build and a file watcher in the background.\n'
      : 'Next, let me start a (pretend) build and a file watcher in the background.\n';
  return {
    parts: [
      { type: 'text', text: lead },
      {
        type: 'tool-call',
        toolName: 'Bash',
        toolCallId: BUILD_CALL_ID,
        input: {
          command: "echo 'compiling 3 files...' && echo 'build finished'",
          description: 'Pretend build',
          run_in_background: true,
        },
      },
      {
        type: 'tool-call',
        toolName: 'Bash',
        toolCallId: WATCH_CALL_ID,
        input: {
          command: "echo 'watching src/ for changes...' && sleep 30",
          description: 'Pretend file watcher',
          run_in_background: true,
        },
      },
    ],
    usage: usage(6),
  };
}

/** The closing summary: every line is read from the tool results in the prompt, never assumed. */
function summaryStep(context: ScriptContext): ScriptTurn {
  const removal = outcomeOf(context, IDS.remove);
  const all = context.allToolResults;
  const failed = all.filter((r) => r.isError && !r.denied).length;
  const denied = all.filter((r) => r.denied).length;
  const acknowledgement =
    removal === 'missing'
      ? 'I did not get an answer for the clean-up, so I left the build folder as it was.'
      : removal === 'denied'
        ? `The permission gate denied \`${DEMO_DENIED_COMMAND}\`, so I left the build folder alone. ` +
          'Allow it in your policy if you really want it gone.'
        : removal === 'failed'
          ? `\`${DEMO_DENIED_COMMAND}\` failed, so the build folder may still be there.`
          : `\`${DEMO_DENIED_COMMAND}\` ran: your policy allowed it, so the build folder is gone.`;
  const shellIds = [IDS.listing, IDS.changelog, BUILD_CALL_ID, WATCH_CALL_ID];
  const shellRan = shellIds.filter((id) => {
    const found = result(context, id);
    return found !== undefined && !found.denied;
  }).length;
  const lines = [
    report(context, IDS.glob, 'listed the TypeScript files', 'listing the files'),
    report(context, IDS.grep, 'searched for TODO notes', 'the TODO search'),
    report(context, IDS.readGreet, 'read `src/greet.ts`', 'reading `src/greet.ts`'),
    report(context, IDS.edit, 'switched `greet()` to a template literal', 'the edit of `src/greet.ts`'),
    report(context, IDS.write, 'created `src/farewell.ts`', 'creating `src/farewell.ts`'),
    shellRan === 0
      ? 'no shell command ran'
      : `ran ${shellRan} of ${shellIds.length} shell commands (coloured output, a failing command, background jobs)`,
    report(context, IDS.jobOutput, 'read the background build output', 'reading the build output'),
    report(context, IDS.jobKill, 'stopped the file watcher', 'stopping the watcher'),
    report(context, IDS.todos, 'updated the todo list', 'the todo list update'),
  ];
  return {
    parts: [
      {
        type: 'reasoning',
        text:
          removal === 'denied'
            ? 'The clean-up was refused by the host. I must not retry it another way; report and stop.'
            : 'The clean-up step is settled. Time to summarise what really happened.',
      },
      {
        type: 'text',
        text:
          `${acknowledgement}\n\n` +
          'Summary of the tour:\n' +
          lines.map((line) => `- ${line};\n`).join('') +
          '\n' +
          `${all.length} tool results, ${failed} failed, ${denied} denied by the permission gate.`,
      },
    ],
    usage: usage(10),
  };
}

/**
 * The built-in demo script: a tour of a sample workspace (see `copyDemoWorkspace` in
 * `@codeagent/providers/node`) that calls every built-in tool with workspace-relative paths,
 * meets a denial (`rm -rf build`, refused by {@link DEMO_PERMISSIONS}) and acknowledges it. Every text that
 * follows a call is chosen from that call's result, so a denied or failed step is never reported as done.
 */
export function demoScript(): Script {
  return [
    {
      parts: [
        {
          type: 'reasoning',
          text: 'A new workspace. First get an overview of the source files before touching anything.',
        },
        { type: 'text', text: "I'll start by listing the TypeScript files in this workspace.\n" },
        call('Glob', { pattern: '**/*.ts' }, 'See which TypeScript files exist', IDS.glob),
      ],
      usage: usage(0),
    },
    afterGlob,
    afterRead,
    {
      parts: [
        {
          type: 'reasoning',
          text: 'String concatenation in greet() reads poorly; a template literal is clearer. The notes also ask for a farewell helper.',
        },
        { type: 'text', text: 'I will modernise `greet()` and add the farewell helper the notes ask for.\n' },
        call(
          'Edit',
          { file_path: 'src/greet.ts', old_string: GREET_OLD, new_string: GREET_NEW },
          'Use a template literal in greet()',
          IDS.edit,
        ),
        call(
          'Write',
          { file_path: 'src/farewell.ts', content: FAREWELL },
          'Add the farewell helper',
          IDS.write,
        ),
      ],
      usage: usage(3),
    },
    {
      parts: [
        { type: 'text', text: 'Now a quick look from the shell.\n' },
        {
          type: 'tool-call',
          toolName: 'Bash',
          toolCallId: IDS.listing,
          input: { command: COLOURED_LISTING, description: 'List sources and show a coloured status line' },
        },
      ],
      usage: usage(4),
    },
    {
      parts: [
        { type: 'reasoning', text: 'Is there a changelog? Checking shows how a failing command looks.' },
        {
          type: 'tool-call',
          toolName: 'Bash',
          toolCallId: IDS.changelog,
          input: { command: 'cat CHANGELOG.md', description: 'Show the changelog, if any' },
        },
      ],
      usage: usage(5),
    },
    afterChangelog,
    TODOS,
    jobStep,
    {
      parts: [
        { type: 'text', text: 'Finally, let me clean the old build output.\n' },
        {
          type: 'tool-call',
          toolName: 'Bash',
          toolCallId: IDS.remove,
          input: { command: DEMO_DENIED_COMMAND, description: 'Remove the build folder' },
        },
      ],
      usage: usage(9),
    },
    summaryStep,
  ];
}

/** A scripted model that replays {@link demoScript}; a fresh one per session (it keeps its place in the script). */
export function demoModel(options: ScriptedModelOptions = {}): ScriptedModel {
  // Options given as `undefined` keep the demo's own defaults.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  return scriptedModel(demoScript(), {
    modelId: 'codeagent-demo',
    exhaustedText: DEMO_EXHAUSTED_TEXT,
    ...given,
  });
}
