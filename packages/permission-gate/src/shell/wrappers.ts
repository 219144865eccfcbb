import { literalWord, type Word } from './words.js';

/**
 * What a command word does with its arguments: runs another command (`run`), runs shell source (`code`),
 * cannot be analysed (`opaque`), or neither. One command may do several (`sudo -s cmd`).
 */
export interface Unwrapped {
  /** The words of a command this one runs. */
  readonly run?: readonly (readonly Word[])[];
  /** Shell source this command runs (already a string: `sh -c 'rm x'`, `eval`). */
  readonly code?: readonly string[];
  /** Why what this command runs cannot be known. */
  readonly opaque?: string;
}

interface OptionSpec {
  /** Short options without an argument. */
  readonly flags?: string;
  /** Short options with an argument (attached `-uroot` or next word `-u root`). */
  readonly withArg?: string;
  /** Short options whose argument can only be attached (`xargs -i{}`). */
  readonly optionalArg?: string;
  /** Long options without an argument. */
  readonly longFlags?: readonly string[];
  /** Long options with an argument (`--user=x` or `--user x`). */
  readonly longWithArg?: readonly string[];
  /** Long options with an optional attached argument (`--preserve-env[=list]`). */
  readonly longOptional?: readonly string[];
  /** `-5` means a number (nice). */
  readonly numeric?: boolean;
  /** `NAME=value` words may follow the options (env, sudo). */
  readonly assignments?: boolean;
  /** `-` alone is an option (env, su). */
  readonly dash?: boolean;
}

interface Options {
  /** Index of the first word after the options. */
  readonly index: number;
  /** Short and long option names seen (`s`, `--login`). */
  readonly seen: ReadonlySet<string>;
  /** Option arguments by option name (the last one given). */
  readonly values: ReadonlyMap<string, Word>;
}

const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Reads a wrapper's options; an option that is not a literal or not known makes the command opaque. */
function options(cmd: string, words: readonly Word[], spec: OptionSpec): Options | string {
  const seen = new Set<string>();
  const values = new Map<string, Word>();
  let i = 0;
  for (; i < words.length; i++) {
    const w = words[i] as Word;
    // A non-literal word ends the options: it is the command (or `-c` source), which the caller judges.
    if (!w.literal) break;
    const v = w.value;
    if (v === '--') {
      i++;
      break;
    }
    if (v === '-' && spec.dash) {
      seen.add('-');
      continue;
    }
    if (v.startsWith('--')) {
      const eq = v.indexOf('=');
      const name = eq === -1 ? v : v.slice(0, eq);
      if (spec.longFlags?.includes(name) && eq === -1) seen.add(name);
      else if (spec.longOptional?.includes(name)) seen.add(name);
      else if (spec.longWithArg?.includes(name)) {
        seen.add(name);
        if (eq !== -1) values.set(name, literalWord(v.slice(eq + 1)));
        else {
          const next = words[++i];
          if (!next) return `${cmd} ${name} has no argument`;
          values.set(name, next);
        }
      } else return `${cmd} has an option the analyser does not know: ${clip(v)}`;
      continue;
    }
    if (!v.startsWith('-') || v.length === 1) break;
    if (spec.numeric && /^-\d+$/.test(v)) continue;
    for (let j = 1; j < v.length; j++) {
      const c = v[j] as string;
      if (spec.flags?.includes(c)) {
        seen.add(c);
        continue;
      }
      if (spec.optionalArg?.includes(c)) {
        seen.add(c);
        values.set(c, literalWord(v.slice(j + 1)));
        break;
      }
      if (spec.withArg?.includes(c)) {
        seen.add(c);
        if (j + 1 < v.length) values.set(c, literalWord(v.slice(j + 1)));
        else {
          const next = words[++i];
          if (!next) return `${cmd} -${c} has no argument`;
          values.set(c, next);
        }
        break;
      }
      return `${cmd} has an option the analyser does not know: ${clip(v)}`;
    }
  }
  if (spec.assignments) {
    while (i < words.length && words[i]?.literal && ASSIGNMENT.test(words[i]?.value as string)) i++;
  }
  return { index: i, seen, values };
}

/** Shortens text quoted in a reason. */
export function clip(s: string): string {
  return JSON.stringify(s.length > 40 ? `${s.slice(0, 40)}…` : s);
}

/** Options before and after one positional word (`su [opts] USER [opts]`): their values merged. */
function optionsAroundUser(cmd: string, words: readonly Word[], spec: OptionSpec): Options | string {
  const first = options(cmd, words, spec);
  if (typeof first === 'string') return first;
  const user = words[first.index];
  if (!user?.literal || user.value.startsWith('-')) return first;
  const second = options(cmd, words.slice(first.index + 1), spec);
  if (typeof second === 'string') return second;
  return {
    index: first.index + 1 + second.index,
    seen: new Set([...first.seen, ...second.seen]),
    values: new Map([...first.values, ...second.values]),
  };
}

function rest(words: readonly Word[], from: number): Unwrapped {
  return from < words.length ? { run: [words.slice(from)] } : {};
}

function simple(spec: OptionSpec, extra?: (o: Options, words: readonly Word[]) => Unwrapped | undefined) {
  return (cmd: string, words: readonly Word[]): Unwrapped => {
    const o = options(cmd, words, spec);
    if (typeof o === 'string') return { opaque: o };
    return extra?.(o, words) ?? rest(words, o.index);
  };
}

/** The argument of a code-running option, as a string to analyse. */
function codeOf(cmd: string, w: Word | undefined, what: string): Unwrapped {
  if (!w) return { opaque: `${cmd} ${what} has no argument` };
  if (!w.literal) return { opaque: `${cmd} runs a non-literal string ${clip(w.raw)}` };
  return { code: [w.value] };
}

const SHELL_SPEC: OptionSpec = {
  flags: 'abcefhiklmnprstuvxBCEHPT',
  withArg: 'oO',
  longFlags: [
    '--norc',
    '--noprofile',
    '--login',
    '--posix',
    '--restricted',
    '--verbose',
    '--noediting',
    '--debugger',
    '--dump-strings',
    '--dump-po-strings',
    '--pretty-print',
  ],
  longWithArg: ['--rcfile', '--init-file'],
};

/** `sh -c 'source'` runs the source; `sh script` runs a file; `sh` alone (or `-s`, `-i`) reads commands from input. */
function shell(cmd: string, words: readonly Word[]): Unwrapped {
  // `+x` style options are the same letters turned off.
  const flipped = words.map((w) =>
    w.literal && /^\+[A-Za-z]+$/.test(w.value) ? literalWord(`-${w.value.slice(1)}`) : w,
  );
  const o = options(cmd, flipped, SHELL_SPEC);
  if (typeof o === 'string') return { opaque: o };
  if (o.seen.has('c')) return codeOf(cmd, words[o.index], '-c');
  if (o.seen.has('s') || o.seen.has('i') || o.index >= words.length) {
    return { opaque: `${cmd} reads the commands it runs from its input` };
  }
  // A script file: its content is not analysed (README: the grammar's limits).
  return {};
}

/** `find ... -exec cmd {} ;` runs cmd for each file found. */
function find(_cmd: string, words: readonly Word[]): Unwrapped {
  const run: Word[][] = [];
  for (let i = 0; i < words.length; i++) {
    const w = words[i] as Word;
    if (!w.literal || !['-exec', '-execdir', '-ok', '-okdir'].includes(w.value)) continue;
    const start = i + 1;
    let end = start;
    while (end < words.length && !(words[end]?.literal && [';', '+'].includes(words[end]?.value as string)))
      end++;
    if (end > start) run.push(words.slice(start, end));
    i = end;
  }
  return run.length > 0 ? { run } : {};
}

/** `eval a b` runs the source `a b`. */
function evaluate(cmd: string, words: readonly Word[]): Unwrapped {
  const dynamic = words.find((w) => !w.literal);
  if (dynamic) return { opaque: `${cmd} runs a non-literal string ${clip(dynamic.raw)}` };
  return words.length > 0 ? { code: [words.map((w) => w.value).join(' ')] } : {};
}

const SUDO_SPEC: OptionSpec = {
  flags: 'AbBeEHiKklnNPSsv',
  withArg: 'ghpCDrtTRUu',
  longFlags: [
    '--askpass',
    '--background',
    '--bell',
    '--edit',
    '--login',
    '--list',
    '--non-interactive',
    '--remove-timestamp',
    '--reset-timestamp',
    '--set-home',
    '--shell',
    '--stdin',
    '--validate',
  ],
  longWithArg: [
    '--chdir',
    '--chroot',
    '--close-from',
    '--command-timeout',
    '--group',
    '--host',
    '--other-user',
    '--prompt',
    '--role',
    '--type',
    '--user',
  ],
  longOptional: ['--preserve-env'],
  assignments: true,
};

function sudo(cmd: string, words: readonly Word[]): Unwrapped {
  const o = options(cmd, words, SUDO_SPEC);
  if (typeof o === 'string') return { opaque: o };
  const shellish = ['s', 'i', '--shell', '--login'].some((k) => o.seen.has(k));
  if (o.index >= words.length) {
    return shellish ? { opaque: `${cmd} -s/-i without a command starts a shell that reads its input` } : {};
  }
  if (o.seen.has('e') || o.seen.has('--edit')) return {};
  const inner = words.slice(o.index);
  // With -s/-i the command goes through the target user's shell as well.
  return shellish ? { run: [inner], code: [inner.map((w) => w.value).join(' ')] } : { run: [inner] };
}

function env(cmd: string, words: readonly Word[]): Unwrapped {
  const o = options(cmd, words, {
    flags: 'i0v',
    withArg: 'uCS',
    longFlags: ['--ignore-environment', '--null', '--debug'],
    longWithArg: ['--unset', '--chdir', '--split-string'],
    assignments: true,
    dash: true,
  });
  if (typeof o === 'string') return { opaque: o };
  const split = o.values.get('S') ?? o.values.get('--split-string');
  if (split) {
    if (!split.literal) return { opaque: `${cmd} -S splits a non-literal string ${clip(split.raw)}` };
    const after = words.slice(o.index);
    const dynamic = after.find((w) => !w.literal);
    if (dynamic) return { opaque: `${cmd} -S with a non-literal argument ${clip(dynamic.raw)}` };
    return { code: [[split.value, ...after.map((w) => w.raw)].join(' ')] };
  }
  return rest(words, o.index);
}

function su(cmd: string, words: readonly Word[]): Unwrapped {
  const o = optionsAroundUser(cmd, words, {
    flags: 'flmpP',
    withArg: 'cgGsw',
    longFlags: ['--login', '--preserve-environment', '--pty', '--fast'],
    longWithArg: [
      '--command',
      '--group',
      '--supp-group',
      '--shell',
      '--whitelist-environment',
      '--session-command',
    ],
    dash: true,
  });
  if (typeof o === 'string') return { opaque: o };
  const c = o.values.get('c') ?? o.values.get('--command') ?? o.values.get('--session-command');
  if (c) return codeOf(cmd, c, '-c');
  return { opaque: `${cmd} without -c starts a shell that reads its input` };
}

function watch(cmd: string, words: readonly Word[]): Unwrapped {
  const o = options(cmd, words, {
    flags: 'bcdegptx',
    withArg: 'nq',
    longFlags: [
      '--beep',
      '--color',
      '--differences',
      '--errexit',
      '--chgexit',
      '--precise',
      '--no-title',
      '--exec',
    ],
    longWithArg: ['--interval'],
  });
  if (typeof o === 'string') return { opaque: o };
  const inner = words.slice(o.index);
  if (inner.length === 0) return {};
  if (o.seen.has('x') || o.seen.has('--exec')) return { run: [inner] };
  const dynamic = inner.find((w) => !w.literal);
  if (dynamic) return { opaque: `${cmd} runs a non-literal string ${clip(dynamic.raw)}` };
  return { code: [inner.map((w) => w.value).join(' ')] };
}

/** `trap 'source' SIGNAL` runs the source later in the same shell. */
function trap(cmd: string, words: readonly Word[]): Unwrapped {
  const first = words[0];
  if (!first) return {};
  if (first.literal && ['-l', '-p', '-', '--'].includes(first.value)) return {};
  return codeOf(cmd, first, 'action');
}

/** `alias name='source'`: the value may run as source later. */
function alias(cmd: string, words: readonly Word[]): Unwrapped {
  const code: string[] = [];
  for (const w of words) {
    if (!w.literal) return { opaque: `${cmd} defines a non-literal alias ${clip(w.raw)}` };
    const eq = w.value.indexOf('=');
    if (eq > 0) code.push(w.value.slice(eq + 1));
  }
  return { code };
}

type Wrapper = (cmd: string, words: readonly Word[]) => Unwrapped;

const XARGS_SPEC: OptionSpec = {
  flags: '0oprtx',
  withArg: 'adEILnPs',
  optionalArg: 'eil',
  longFlags: [
    '--null',
    '--interactive',
    '--no-run-if-empty',
    '--verbose',
    '--exit',
    '--show-limits',
    '--open-tty',
  ],
  longWithArg: [
    '--arg-file',
    '--delimiter',
    '--max-args',
    '--max-procs',
    '--max-chars',
    '--process-slot-var',
  ],
  longOptional: ['--eof', '--replace', '--max-lines'],
};

const table = new Map<string, Wrapper>([
  ['command', simple({ flags: 'pvV' }, (o) => (o.seen.has('v') || o.seen.has('V') ? {} : undefined))],
  ['builtin', simple({})],
  ['exec', simple({ flags: 'cl', withArg: 'a' })],
  ['time', simple({ flags: 'p' })],
  ['nohup', simple({})],
  ['nice', simple({ withArg: 'n', numeric: true, longWithArg: ['--adjustment'] })],
  [
    'timeout',
    simple(
      {
        flags: 'v',
        withArg: 'sk',
        longFlags: ['--preserve-status', '--foreground', '--verbose'],
        longWithArg: ['--signal', '--kill-after'],
      },
      // The first word after the options is the duration.
      (o, words) => rest(words, o.index + 1),
    ),
  ],
  ['env', env],
  ['sudo', sudo],
  [
    'doas',
    simple({ flags: 'nsL', withArg: 'uC' }, (o, words) =>
      o.index >= words.length && o.seen.has('s')
        ? { opaque: 'doas -s starts a shell that reads its input' }
        : undefined,
    ),
  ],
  ['xargs', simple(XARGS_SPEC)],
  [
    'coproc',
    (cmd, words) =>
      words.some((w) => ['{', '}', '(', ')'].includes(w.value))
        ? { opaque: `${cmd} with a compound command` }
        : rest(words, 0),
  ],
  ['stdbuf', simple({ withArg: 'ioe', longWithArg: ['--input', '--output', '--error'] })],
  ['setsid', simple({ flags: 'cfw', longFlags: ['--ctty', '--fork', '--wait'] })],
  [
    'ionice',
    simple({
      flags: 't',
      withArg: 'cnpPu',
      longFlags: ['--ignore'],
      longWithArg: ['--class', '--classdata', '--pid', '--pgid', '--uid'],
    }),
  ],
  ['watch', watch],
  ['su', su],
  ['find', find],
  ['eval', evaluate],
  ['trap', trap],
  ['alias', alias],
  [
    'let',
    (cmd) => ({ opaque: `${cmd} evaluates arithmetic, which can run commands through array subscripts` }),
  ],
  ...['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'rbash'].map((s): [string, Wrapper] => [s, shell]),
  ['busybox', (_cmd, words) => rest(words, 0)],
  [
    'mapfile',
    (cmd, words) =>
      words.some((w) => !w.literal || w.value.startsWith('-C'))
        ? { opaque: `${cmd} -C runs a callback` }
        : {},
  ],
]);
table.set('readarray', table.get('mapfile') as Wrapper);

/** Skips `n` positional words after the options (a priority, a CPU mask, a lock file, a new root). */
const after = (n: number) => (o: Options, words: readonly Word[]) => rest(words, o.index + n);

table.set(
  'pkexec',
  simple({ longFlags: ['--disable-internal-agent', '--keep-cwd'], longWithArg: ['--user'] }),
);
table.set(
  'chroot',
  simple({ longWithArg: ['--userspec', '--groups'], longFlags: ['--skip-chdir'] }, (o, words) =>
    o.index + 1 >= words.length
      ? { opaque: 'chroot without a command starts a shell that reads its input' }
      : rest(words, o.index + 1),
  ),
);
table.set('taskset', simple({ flags: 'acp', longFlags: ['--all-tasks', '--cpu-list', '--pid'] }, after(1)));
table.set('chrt', simple({ flags: 'abdefimoprRv', withArg: 'DPT' }, after(1)));
table.set('unbuffer', simple({ flags: 'p' }));
table.set('nocache', simple({}));
table.set('flock', (cmd, words) => {
  const o = options(cmd, words, {
    flags: 'sxunoFe',
    withArg: 'wEc',
    longFlags: ['--shared', '--exclusive', '--unlock', '--nonblock', '--close', '--no-fork', '--verbose'],
    longWithArg: ['--timeout', '--conflict-exit-code', '--command'],
  });
  if (typeof o === 'string') return { opaque: o };
  const c = o.values.get('c') ?? o.values.get('--command');
  if (c) return codeOf(cmd, c, '-c');
  // `flock FILE -c 'source'` puts -c after the file.
  const next = words[o.index + 1];
  if (next?.literal && (next.value === '-c' || next.value === '--command'))
    return codeOf(cmd, words[o.index + 2], '-c');
  return rest(words, o.index + 1);
});
table.set('script', (cmd, words) => {
  const o = options(cmd, words, {
    flags: 'aeEfqTBI',
    withArg: 'cOIBTmt',
    longFlags: ['--append', '--return', '--flush', '--force', '--quiet'],
    longWithArg: [
      '--command',
      '--echo',
      '--log-io',
      '--log-in',
      '--log-out',
      '--log-timing',
      '--logging-format',
    ],
  });
  if (typeof o === 'string') return { opaque: o };
  const c = o.values.get('c') ?? o.values.get('--command');
  return c ? codeOf(cmd, c, '-c') : { opaque: `${cmd} without -c starts a shell that reads its input` };
});
table.set('runuser', (cmd, words) => {
  const spec: OptionSpec = {
    flags: 'lmpf',
    withArg: 'ugGcsw',
    longFlags: ['--login', '--preserve-environment', '--pty', '--fast'],
    longWithArg: [
      '--user',
      '--group',
      '--supp-group',
      '--command',
      '--shell',
      '--whitelist-environment',
      '--session-command',
    ],
    dash: true,
  };
  // `runuser -u USER [--] cmd` runs the command; `runuser [-] USER [-c source]` is su's form.
  const plain = options(cmd, words, spec);
  if (typeof plain === 'string') return { opaque: plain };
  const byUser = plain.seen.has('u') || plain.seen.has('--user');
  const o = byUser ? plain : optionsAroundUser(cmd, words, spec);
  if (typeof o === 'string') return { opaque: o };
  const c = o.values.get('c') ?? o.values.get('--command') ?? o.values.get('--session-command');
  if (c) return codeOf(cmd, c, '-c');
  if (byUser) return rest(words, o.index);
  return { opaque: `${cmd} without -u or -c starts a shell that reads its input` };
});
/** `declare -i x=...` evaluates the value as arithmetic, which can run commands through array subscripts. */
const declare: Wrapper = (cmd, words) =>
  words.some((w) =>
    w.literal ? /^[-+][A-Za-z]*i/.test(w.value) : !/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(w.raw),
  )
    ? { opaque: `${cmd} with -i or a non-literal argument evaluates arithmetic, which can run commands` }
    : {};
for (const d of ['declare', 'typeset', 'local', 'readonly']) table.set(d, declare);

/** Known wrappers: what each runs. A command not listed here is not unwrapped. */
export const WRAPPERS: ReadonlyMap<string, Wrapper> = table;
