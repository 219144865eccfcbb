// Benchmark: the built codeagent CLI beside pi (@mariozechner/pi-coding-agent 0.73.x) on the same loopback
// OpenAI-compatible server, in one run: cold start of `--version`, a one-shot turn with a tool call followed by a
// 2,000-delta answer, and the peak RSS of that turn. pi is installed with npm into a temporary folder (cached
// there between runs), never as a workspace dependency, and pointed at the server through its models.json.
// Run: `pnpm bench` in apps/cli (builds first). ROUNDS=n changes the number of runs per case (default 7).
import { execFile, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { recordBench } from '../../../scripts/bench-lib.mjs';

const PI_VERSION = '0.73.1';
const ROUNDS = Number(process.env.ROUNDS ?? 7);
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

/** Runs a command once: wall time in seconds, peak RSS in MiB (GNU time), its stdout. */
async function measure(command, args, options) {
  const rssFile = join(options.scratch, `rss-${Math.random().toString(36).slice(2)}`);
  const started = performance.now();
  const result = await new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', ['-f', '%M', '-o', rssFile, command, ...args], {
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
  const seconds = (performance.now() - started) / 1000;
  const rssMiB = Number((await readFile(rssFile, 'utf8')).trim().split('\n').at(-1)) / 1024;
  return { seconds, rssMiB, stdout: result.stdout };
}

function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  return { median, min: sorted[0], max: sorted.at(-1), spread: (sorted.at(-1) - sorted[0]) / median };
}

const fmt = (n, digits = 3) => n.toFixed(digits);

async function main() {
  const pi = await installPi();
  const server = await startServer();
  const root = await mkdtemp(join(tmpdir(), 'codeagent-bench-cli-'));
  const work = join(root, 'work');
  const home = join(root, 'home');
  const data = join(root, 'data');
  await Promise.all([mkdir(work), mkdir(join(home, '.pi', 'agent'), { recursive: true }), mkdir(data)]);
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
  const sides = {
    codeagent: {
      version: [OURS, '--version'],
      turn: [OURS, '-p', 'Read bench.txt and tell me about it', '--cwd', work, '--data-dir', data],
      env: { ...base, CODEAGENT_BASE_URL: server.url, CODEAGENT_MODEL: 'bench-model' },
    },
    pi: {
      version: [pi.bin, '--version'],
      turn: [
        pi.bin,
        '-p',
        '--provider',
        'bench',
        '--model',
        'bench-model',
        'Read bench.txt and tell me about it',
      ],
      env: base,
    },
  };
  const results = {};
  for (const [name, side] of Object.entries(sides)) {
    const opts = { cwd: work, env: side.env, scratch: root };
    // One unmeasured warm-up of each case (disk cache), then ROUNDS measured runs, interleaved per round below.
    await measure('node', side.version, opts);
    const warm = await measure('node', side.turn, opts);
    if (!warm.stdout.includes('END-OF-ANSWER'))
      throw new Error(`${name} did not print the answer:\n${warm.stdout.slice(-300)}`);
    results[name] = { cold: [], turn: [], rss: [] };
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, side] of Object.entries(sides)) {
      const opts = { cwd: work, env: side.env, scratch: root };
      results[name].cold.push((await measure('node', side.version, opts)).seconds);
      const turn = await measure('node', side.turn, opts);
      if (!turn.stdout.includes('END-OF-ANSWER'))
        throw new Error(`${name} lost the answer in round ${round}`);
      results[name].turn.push(turn.seconds);
      results[name].rss.push(turn.rssMiB);
    }
  }
  await server.close();
  const ours = results.codeagent;
  const theirs = results.pi;
  console.log(
    `\ncodeagent (this build) vs pi ${pi.version}, ${ROUNDS} runs each, interleaved; median [min-max], spread = (max-min)/median`,
  );
  const rows = [
    ['cold start `--version` (s)', ours.cold, theirs.cold, 3],
    [`-p turn: Read call + ${DELTAS}-delta answer (s)`, ours.turn, theirs.turn, 3],
    ['peak RSS of that turn (MiB)', ours.rss, theirs.rss, 1],
  ];
  for (const [label, a, b, digits] of rows) {
    const x = stats(a);
    const y = stats(b);
    console.log(
      `${label.padEnd(44)} codeagent ${fmt(x.median, digits)} [${fmt(x.min, digits)}-${fmt(x.max, digits)}] spread ${fmt(x.spread, 2)}` +
        ` | pi ${fmt(y.median, digits)} [${fmt(y.min, digits)}-${fmt(y.max, digits)}] spread ${fmt(y.spread, 2)}` +
        ` | ratio ${fmt(x.median / y.median, 2)}`,
    );
  }
  console.log(`server answered ${server.counts.requests} chat requests`);
  // The same figures in the shared bench format (.bench/cli.pi.json, read by the root `pnpm bench` summary).
  recordBench(
    '@codeagent/cli',
    `the built CLI beside pi ${pi.version} on the same loopback server, ${ROUNDS} interleaved runs each (median)`,
    rows.map(([label, a, b]) => ({
      name: label.replace(/ \((s|MiB)\)$/, ''),
      what: label,
      unit: label.endsWith('(MiB)') ? 'MiB' : 's',
      ours: a,
      baseline: b,
      baselineName: `pi ${pi.version}`,
    })),
    'pi',
  );
}

await main();
