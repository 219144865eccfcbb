/**
 * `gate.evaluate` throughput with 10 and 1,000 rules, next to a hand-written switch that encodes the
 * same decisions for the same inputs (the floor: no provenance, no glob engine, no fail-closed wrapper).
 * Run: `pnpm bench` in this package.
 */
import { bench, describe } from 'vitest';
import { type Capability, createPermissionGate, type Decision, type PermissionMode } from '../src/index.js';
import { loadInstalledShellGrammar } from '../src/node.js';
import { createOldMatcher } from '../test/red-team/old-splitter.js';

// Hosts load the bash grammar before the first turn; the gate benches measure that state.
await loadInstalledShellGrammar();

interface Call {
  readonly name: string;
  readonly input: Record<string, string>;
}

/** A realistic call mix: reads, edits in and out of src, git and other commands, a fetch, an MCP tool. */
const CALLS: readonly Call[] = [
  { name: 'Read', input: { file_path: 'src/index.ts' } },
  { name: 'Edit', input: { file_path: 'src/gate.ts' } },
  { name: 'Edit', input: { file_path: 'package.json' } },
  { name: 'Bash', input: { command: 'git status --short' } },
  { name: 'Bash', input: { command: 'rm -rf build' } },
  { name: 'Bash', input: { command: 'git status; curl x | sh' } },
  { name: 'WebFetch', input: { url: 'https://docs.example.org/guide' } },
  { name: 'mcp__github__list_issues', input: {} },
  { name: 'Grep', input: { pattern: 'TODO', path: 'src' } },
  { name: 'Read', input: { file_path: 'config/.env' } },
];

/** The ten rules both baselines encode. */
const TEN = {
  allow: [
    'Bash(git status*)',
    'Bash(npm test*)',
    'Edit(src/**)',
    'WebFetch(https://docs.example.org/*)',
    'mcp__github__*',
  ],
  ask: ['Bash(git push*)'],
  deny: ['Bash(rm *)', 'Read(**/.env)', 'Write(/etc/**)', 'mcp__github__delete_*'],
};

/** 990 extra rules on other (host and MCP) tools, so the index, not a scan, must keep lookups cheap. */
function thousand() {
  const extra = Array.from({ length: 990 }, (_, i) => `mcp__server${i % 50}__tool${i}(arg${i}/**)`);
  return {
    allow: [...TEN.allow, ...extra.slice(0, 500)],
    ask: [...TEN.ask, ...extra.slice(500, 700)],
    deny: [...TEN.deny, ...extra.slice(700)],
  };
}

/** 990 extra rules on the very tools the calls use (Bash, Edit, Read): the worst case for the index. */
function thousandSameTools() {
  const bash = Array.from({ length: 330 }, (_, i) => `Bash(tool${i} *)`);
  const edit = Array.from({ length: 330 }, (_, i) => `Edit(dir${i}/**)`);
  const read = Array.from({ length: 330 }, (_, i) => `Read(secret${i}/**)`);
  return { allow: [...TEN.allow, ...bash, ...edit], ask: TEN.ask, deny: [...TEN.deny, ...read] };
}

const MODE: Record<Capability, Decision> = { read: 'allow', write: 'ask', exec: 'ask', net: 'ask' };
const CAP: Record<string, Capability> = {
  Read: 'read',
  Grep: 'read',
  Edit: 'write',
  Write: 'write',
  Bash: 'exec',
  WebFetch: 'net',
};
const META = /[;&|`\n\r<>]|\$\(/;

/** The hand-written equivalent of the ten rules in default mode. */
function handWritten(name: string, input: Record<string, string>, _mode: PermissionMode): Decision {
  switch (name) {
    case 'Bash': {
      const c = input.command ?? '';
      if (c.startsWith('rm ') || c.includes('; rm ') || c.includes('&& rm ')) return 'deny';
      if (c.startsWith('git push')) return 'ask';
      if (META.test(c)) return MODE.exec;
      if (c.startsWith('git status') || c.startsWith('npm test')) return 'allow';
      return MODE.exec;
    }
    case 'Read':
      return (input.file_path ?? '').endsWith('/.env') || input.file_path === '.env' ? 'deny' : MODE.read;
    case 'Edit': {
      const p = input.file_path ?? '';
      return p.startsWith('src/') && !p.includes('..') ? 'allow' : MODE.write;
    }
    case 'WebFetch':
      return (input.url ?? '').startsWith('https://docs.example.org/') ? 'allow' : MODE.net;
    default:
      if (name.startsWith('mcp__github__delete_')) return 'deny';
      if (name.startsWith('mcp__github__')) return 'allow';
      return MODE[CAP[name] ?? 'exec'];
  }
}

// Sanity: the gate and the switch agree on every benchmarked call.
const check = createPermissionGate({ rules: TEN });
for (const c of CALLS) {
  const a = check.evaluate(c.name, c.input).decision;
  const b = handWritten(c.name, c.input, 'default');
  if (a !== b)
    throw new Error(`baseline disagrees on ${c.name} ${JSON.stringify(c.input)}: gate ${a}, switch ${b}`);
}

const gate10 = createPermissionGate({ rules: TEN });
const gate1000 = createPermissionGate({ rules: thousand() });
const gate1000same = createPermissionGate({ rules: thousandSameTools() });
for (const c of CALLS) {
  if (gate1000same.evaluate(c.name, c.input).decision !== check.evaluate(c.name, c.input).decision) {
    throw new Error(`the extra rules changed the decision for ${c.name}`);
  }
}
let sink = 0;
/** Longer runs than the default: the figures are ratios, and noisy machines need more samples. */
const OPTS = { time: 2000, warmupTime: 300 };

describe('evaluate: 10 calls per iteration', () => {
  bench(
    'hand-written switch (baseline)',
    () => {
      for (const c of CALLS) sink += handWritten(c.name, c.input, 'default').length;
    },
    OPTS,
  );
  bench(
    'gate.evaluate, 10 rules',
    () => {
      for (const c of CALLS) sink += gate10.evaluate(c.name, c.input).decision.length;
    },
    OPTS,
  );
  bench(
    'gate.evaluate, 1,000 rules',
    () => {
      for (const c of CALLS) sink += gate1000.evaluate(c.name, c.input).decision.length;
    },
    OPTS,
  );
  bench(
    'gate.evaluate, 1,000 rules on the same tools',
    () => {
      for (const c of CALLS) sink += gate1000same.evaluate(c.name, c.input).decision.length;
    },
    OPTS,
  );
});

describe('createPermissionGate (rule compilation)', () => {
  bench(
    'create with 10 rules',
    () => {
      sink += createPermissionGate({ rules: TEN }).mode.length;
    },
    OPTS,
  );
  bench(
    'create with 1,000 rules',
    () => {
      sink += createPermissionGate({ rules: thousand() }).mode.length;
    },
    OPTS,
  );
});

/**
 * Bash decisions: the bash-grammar analysis against the hand-written splitter it replaced (kept only as a
 * test helper, `test/red-team/old-splitter.ts`). Same rules, same commands; the old splitter's decisions
 * are the baseline's, not necessarily right (the red-team test counts where they are wrong).
 */
const SHELL_RULES = {
  deny: ['Bash(rm:*)'],
  ask: ['Bash(git push*)'],
  allow: ['Bash(git status*)', 'Bash(npm test*)', 'Bash(ls*)'],
};
/** Half plain words (no parse needed), half compound lines the grammar parses. */
const COMMANDS: readonly string[] = [
  'git status --short',
  'rm -rf build',
  'ls -la src',
  'npm test -- --run',
  'git push origin main',
  'git status; curl x | sh',
  "FOO='a b' git log --oneline | head -n 5",
  'sudo -u deploy rm -rf /srv/app',
  'echo "$(date)" >> log.txt',
  'find . -name "*.o" -exec rm {} \\;',
];
const oldShell = createOldMatcher(SHELL_RULES, 'default');
const shellGate = createPermissionGate({ rules: SHELL_RULES });
let unique = 0;

describe('Bash decisions: bash grammar vs the old hand-written splitter (10 commands per iteration)', () => {
  bench(
    'old splitter (baseline)',
    () => {
      for (const command of COMMANDS) sink += oldShell(command).length;
    },
    OPTS,
  );
  bench(
    'gate.evaluate, bash grammar, parse cache warm',
    () => {
      for (const command of COMMANDS) sink += shellGate.evaluate('Bash', { command }).decision.length;
    },
    OPTS,
  );
  bench(
    'gate.evaluate, bash grammar, every command new (cache miss)',
    () => {
      // A unique last argument makes every line new; plain-word lines stay plain (no parse), the rest are parsed.
      for (const command of COMMANDS) {
        sink += shellGate.evaluate('Bash', { command: `${command} a${unique++}` }).decision.length;
      }
    },
    OPTS,
  );
  bench(
    'gate.evaluate, bash grammar, every command new and parsed',
    () => {
      // A unique comment makes every line new and not plain words, so each one is parsed.
      for (const command of COMMANDS) {
        sink += shellGate.evaluate('Bash', { command: `${command} #${unique++}` }).decision.length;
      }
    },
    OPTS,
  );
});

if (sink < 0) throw new Error('unreachable');
