// Benchmark: the built codeagent CLI beside pi (@mariozechner/pi-coding-agent 0.73.x) on the same loopback
// OpenAI-compatible server, in one run: cold start of `--version`, a one-shot turn with a tool call followed by a
// 2,000-delta answer (wall time, and the CPU time of the process), and the peak RSS of that turn. pi is installed
// with npm into a temporary folder (cached there between runs), never as a workspace dependency, and pointed at the
// server through its models.json. Sampling and output are scripts/bench-lib.mjs's (ADR 0205): ours and pi in
// interleaved pairs, the order alternating, the figure the median of the per-pair ratios ours/pi.
// Run: `pnpm bench` in apps/cli (builds first). ROUNDS=n sets the least number of pairs per figure (default 15),
// BUDGET_MS the time after which a figure stops adding pairs; AGAINST=<path to another bin.js> compares with
// another build of the CLI instead of pi (for checking a change).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { benchSuite, median, relativeSpread } from '../../../scripts/bench-lib.mjs';

const PI_VERSION = '0.73.1';
const ROUNDS = Number(process.env.ROUNDS ?? 15);
const BUDGET_MS = Number(process.env.BUDGET_MS ?? 120_000);
const AGAINST = process.env.AGAINST ?? null;
const DELTAS = 2_000;
const OURS = fileURLToPath(new URL('../dist/bin.js', import.meta.url));

function run(command, args, options = {}) {
  return new Promise((resolve, reject) => {
    execFile(command, args, { maxBuffer: 64 * 1024 * 1024, ...options }, (error, stdout, stderr) => {
      if (error) reject(Object.assign(error, { stdout, stderr }));
      else resolve({ stdout, stderr });
    });
  });
}

async function installPi() {
  const dir = join(tmpdir(), `codeagent-bench-pi-${PI_VERSION}`);
  const pkg = join(dir, 'node_modules', '@mariozechner', 'pi-coding-agent');
  if (!existsSync(join(pkg, 'package.json'))) {
    await mkdir(dir, { recursive: true });
    console.log(`installing @mariozechner/pi-coding-agent@${PI_VERSION} into ${dir} ...`);
    await run(
      'npm',
      [
        'install',
        '--no-audit',
        '--no-fund',
        '--loglevel=error',
        `@mariozechner/pi-coding-agent@${PI_VERSION}`,
      ],
      {
        cwd: dir,
      },
    );
  }
  const manifest = JSON.parse(await readFile(join(pkg, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : Object.values(manifest.bin)[0];
  return { bin: join(pkg, bin), version: manifest.version };
}

/** The loopback server: a Read call first, then the 2,000-delta answer once the tool result is in. */
async function startServer() {
  const counts = { requests: 0 };
  const chunk = (delta, finish = null) =>
    `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'bench-model', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
  const usage = `data: ${JSON.stringify({ id: 'b', object: 'chat.completion.chunk', created: 1, model: 'bench-model', choices: [], usage: { prompt_tokens: 1500, completion_tokens: DELTAS, total_tokens: 1500 + DELTAS } })}\n\n`;
  const server = createServer((req, res) => {
    const parts = [];
    req.on('data', (c) => parts.push(c));
    req.on('end', () => {
      if (!req.url?.endsWith('/chat/completions')) {
        res.writeHead(404).end();
        return;
      }
      counts.requests += 1;
      const body = JSON.parse(Buffer.concat(parts).toString('utf8'));
      const last = body.messages.at(-1);
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write(chunk({ role: 'assistant', content: '' }));
      if (last.role !== 'tool') {
        const read = body.tools.find((t) => t.function.name.toLowerCase() === 'read');
        const key = 'file_path' in (read.function.parameters.properties ?? {}) ? 'file_path' : 'path';
        const args = JSON.stringify({ [key]: 'bench.txt' });
        res.write(
          chunk({
            tool_calls: [
              {
                index: 0,
                id: 'call_bench',
                type: 'function',
                function: { name: read.function.name, arguments: args },
              },
            ],
          }),
        );
        res.write(chunk({}, 'tool_calls'));
      } else {
        // 2,000 deltas, written in batches so the server itself is not what is measured.
        let batch = '';
        for (let i = 0; i < DELTAS; i++) {
          batch += chunk({ content: i === DELTAS - 1 ? 'END-OF-ANSWER' : `w${i} ` });
          if (batch.length > 16_384) {
            res.write(batch);
            batch = '';
          }
        }
        res.write(batch);
        res.write(chunk({}, 'stop'));
      }
      res.write(usage);
      res.end('data: [DONE]\n\n');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}/v1`,
    counts,
    close: () => new Promise((r) => server.close(r)),
  };
}

/** Runs a command once: wall time and CPU time (user + system, GNU time) in ms, peak RSS in MiB, its stdout. */
async function measure(command, args, options) {
  const statsFile = join(options.scratch, `time-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const result = await new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%U %S %M', '-o', statsFile, command, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('close', (code) =>
      code === 0
        ? resolve({ stdout })
        : reject(new Error(`${command} exited ${code}: ${stderr.slice(-500)}`)),
    );
  });
  const wallMs = performance.now() - started;
  const [user, system, rssKiB] = (await readFile(statsFile, 'utf8'))
    .trim()
    .split('\n')
    .at(-1)
    .split(' ')
    .map(Number);
  return { wallMs, cpuMs: (user + system) * 1000, rssMiB: rssKiB / 1024, stdout: result.stdout };
}

async function main() {
  const baseline = AGAINST === null ? await installPi() : { bin: AGAINST, version: 'build' };
  const baseName = AGAINST === null ? `pi ${baseline.version}` : `codeagent at ${AGAINST}`;
  const server = await startServer();
  const root = await mkdtemp(join(tmpdir(), 'codeagent-bench-cli-'));
  const work = join(root, 'work');
  const home = join(root, 'home');
  const data = join(root, 'data');
  const dataBase = join(root, 'data-base');
  await Promise.all([
    mkdir(work),
    mkdir(join(home, '.pi', 'agent'), { recursive: true }),
    mkdir(data),
    mkdir(dataBase),
  ]);
  await writeFile(join(work, 'bench.txt'), 'the file the benchmark reads\n'.repeat(20));
  await writeFile(
    join(home, '.pi', 'agent', 'models.json'),
    JSON.stringify({
      providers: {
        bench: {
          baseUrl: server.url,
          api: 'openai-completions',
          apiKey: 'bench-key',
          models: [{ id: 'bench-model' }],
        },
      },
    }),
  );
  const base = { PATH: process.env.PATH, HOME: home, NO_COLOR: '1', PI_OFFLINE: '1' };
  const prompt = 'Read bench.txt and tell me about it';
  const ours = {
    version: [OURS, '--version'],
    turn: [OURS, '-p', prompt, '--cwd', work, '--data-dir', data],
    env: { ...base, CODEAGENT_BASE_URL: server.url, CODEAGENT_MODEL: 'bench-model' },
  };
  const theirs =
    AGAINST === null
      ? {
          version: [baseline.bin, '--version'],
          turn: [baseline.bin, '-p', '--provider', 'bench', '--model', 'bench-model', prompt],
          env: base,
        }
      : {
          ...ours,
          version: [AGAINST, '--version'],
          turn: [AGAINST, '-p', prompt, '--cwd', work, '--data-dir', dataBase],
        };
  const opts = (side) => ({ cwd: work, env: side.env, scratch: root });

  const suite = benchSuite(
    '@codeagent/cli',
    `the built CLI beside ${baseName} on one loopback OpenAI-compatible server (a Read call, then a ${DELTAS}-delta answer)`,
  );
  // Both sides print the answer, or the figures mean nothing.
  for (const side of [ours, theirs]) {
    const warm = await measure('node', side.turn, opts(side));
    if (!warm.stdout.includes('END-OF-ANSWER'))
      throw new Error(`${side.turn[0]} did not print the answer:\n${warm.stdout.slice(-300)}`);
  }
  const pairing = {
    repeat: 1,
    minRounds: ROUNDS,
    maxRounds: 4 * ROUNDS,
    budgetMs: BUDGET_MS,
    targetSpread: 0.03,
  };
  await suite.compare({
    name: 'cold start',
    what: '`--version`, a fresh process each run (wall time)',
    baselineName: baseName,
    clock: 'returned',
    ...pairing,
    ours: async () => (await measure('node', ours.version, opts(ours))).wallMs,
    baseline: async () => (await measure('node', theirs.version, opts(theirs))).wallMs,
    goal: { on: 'value', max: 250, note: 'under 0.25 s' },
  });
  // One pair of turns gives the wall time (the compared figure), and the CPU time and peak RSS of the same runs.
  const runs = { ours: [], theirs: [] };
  const turn = async (side, into) => {
    const r = await measure('node', side.turn, opts(side));
    if (!r.stdout.includes('END-OF-ANSWER')) throw new Error(`${side.turn[0]} lost the answer`);
    into.push(r);
    return r.wallMs;
  };
  const wall = await suite.compare({
    name: 'turn',
    what: `-p: a Read call, then a ${DELTAS}-delta answer, process start to exit (wall time)`,
    baselineName: baseName,
    clock: 'returned',
    ...pairing,
    warmup: 1,
    ours: () => turn(ours, runs.ours),
    baseline: () => turn(theirs, runs.theirs),
    goal: { max: 1, note: "at most pi's" },
  });
  // The warm-up pair is not a sample.
  const a = runs.ours.slice(-wall.samples);
  const b = runs.theirs.slice(-wall.samples);
  const ratios = (key) => a.map((x, i) => x[key] / b[i][key]);
  suite.value({
    name: 'turn CPU',
    what: 'CPU time (user + system) of the same turns; spread of the per-pair ratios',
    unit: 'ms',
    value: median(a.map((x) => x.cpuMs)),
    reference: median(b.map((x) => x.cpuMs)),
    baselineName: baseName,
    spread: relativeSpread(ratios('cpuMs')),
    samples: a.length,
    goal: { max: 1 },
  });
  suite.value({
    name: 'peak RSS',
    what: 'peak resident memory of the same turns (GNU time)',
    unit: 'MiB',
    value: median(a.map((x) => x.rssMiB)),
    reference: median(b.map((x) => x.rssMiB)),
    baselineName: baseName,
    spread: relativeSpread(ratios('rssMiB')),
    samples: a.length,
    goal: { max: 1 },
  });
  suite.note(`server answered ${server.counts.requests} chat requests`);
  await server.close();
  suite.finish();
}

await main();
