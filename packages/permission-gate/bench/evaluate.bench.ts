/**
 * permission-gate bench, in the shared format (scripts/bench-lib.mjs): `gate.evaluate` with 10 rules beside a
 * hand-written switch that encodes the same decisions for the same inputs (the floor: no provenance, no glob engine,
 * no fail-closed wrapper); 1,000 rules beside the same 10-rule gate (what the extra rules cost); Bash decisions with
 * the bash grammar beside the hand-written splitter it replaced. Each row's baseline is named on it.
 * Run: `pnpm bench` in this package (`pnpm bench:parsers` runs the parser comparison of ADR 0100).
 */
import { expect, test } from 'vitest';
import { benchSuite } from '../../../scripts/bench-lib.mjs';
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
let sink = 0;
let unique = 0;

test('permission-gate decisions beside their baselines', async () => {
  const suite = benchSuite(
    '@codeagent/permission-gate',
    'gate.evaluate and Bash decisions, 10 calls (or 10 commands) per run, each beside the baseline named on its row',
  );
  const evaluate10 = () => {
    for (const c of CALLS) sink += gate10.evaluate(c.name, c.input).decision.length;
  };
  await suite.compare({
    name: 'evaluate, 10 rules',
    what: 'gate.evaluate of a realistic 10-call mix with 10 rules (glob rules, provenance, fail-closed)',
    baselineName: 'a hand-written switch deciding the same calls the same way',
    ours: evaluate10,
    baseline: () => {
      for (const c of CALLS) sink += handWritten(c.name, c.input, 'default').length;
    },
    goal: { max: 20, note: 'a decision well under a microsecond' },
  });
  await suite.compare({
    name: 'evaluate, 1,000 rules',
    what: 'the same calls with 990 more rules on other tools',
    baselineName: 'the 10-rule gate',
    ours: () => {
      for (const c of CALLS) sink += gate1000.evaluate(c.name, c.input).decision.length;
    },
    baseline: evaluate10,
    goal: { max: 1.5, note: 'indexed: rules on other tools cost next to nothing' },
  });
  await suite.compare({
    name: 'evaluate, 1,000 rules on the same tools',
    what: 'the same calls with 990 more rules on Bash, Edit and Read (the worst case for the index)',
    baselineName: 'the 10-rule gate',
    ours: () => {
      for (const c of CALLS) sink += gate1000same.evaluate(c.name, c.input).decision.length;
    },
    baseline: evaluate10,
  });
  // The same 1,000 rules as 100 gates of 10: the same parsing, so the ratio is what one large index costs beyond it.
  // (Against one 10-rule gate, the large gate's garbage was collected inside the small gate's samples: ±25-220%.)
  const all = thousand();
  const flat = (['allow', 'ask', 'deny'] as const).flatMap((list) =>
    all[list].map((rule) => ({ list, rule })),
  );
  const groups = Array.from({ length: 100 }, (_, k) => {
    const group: { allow: string[]; ask: string[]; deny: string[] } = { allow: [], ask: [], deny: [] };
    for (const { list, rule } of flat.slice(k * 10, k * 10 + 10)) group[list].push(rule);
    return group;
  });
  await suite.compare({
    name: 'create, 1,000 rules',
    what: 'createPermissionGate with 1,000 rules (parse and index every rule)',
    baselineName: '100 createPermissionGate calls with 10 of the same rules each',
    ours: () => {
      sink += createPermissionGate({ rules: all }).mode.length;
    },
    baseline: () => {
      for (const rules of groups) sink += createPermissionGate({ rules }).mode.length;
    },
    goal: { max: 1.5, note: 'linear in the rules' },
    // Samples long enough to hold several collections each (the garbage of a gate is collected in a later sample).
    minSampleMs: 200,
    maxRounds: 61,
  });
  const old = () => {
    for (const command of COMMANDS) sink += oldShell(command).length;
  };
  await suite.compare({
    name: 'Bash, line seen before',
    what: 'gate.evaluate of 10 Bash lines already decided once (parse cache warm)',
    baselineName: 'the old hand-written splitter (wrong on 242 of 348 red-team lines)',
    ours: () => {
      for (const command of COMMANDS) sink += shellGate.evaluate('Bash', { command }).decision.length;
    },
    baseline: old,
    goal: { max: 1.5, note: 'about what the old splitter cost' },
  });
  await suite.compare({
    name: 'Bash, every line new',
    what: '10 new Bash lines (a unique last argument: plain-word lines stay unparsed, the rest are parsed)',
    baselineName: 'the old hand-written splitter',
    ours: () => {
      for (const command of COMMANDS) {
        sink += shellGate.evaluate('Bash', { command: `${command} a${unique++}` }).decision.length;
      }
    },
    baseline: old,
    note: 'no goal: a parse by the bash grammar is the price of deciding these lines correctly',
  });
  await suite.compare({
    name: 'Bash, every line parsed',
    what: '10 new Bash lines, each parsed (a unique comment)',
    baselineName: 'the old hand-written splitter',
    ours: () => {
      for (const command of COMMANDS) {
        sink += shellGate.evaluate('Bash', { command: `${command} #${unique++}` }).decision.length;
      }
    },
    baseline: old,
  });
  suite.finish();
  expect(sink).toBeGreaterThan(0);
});
