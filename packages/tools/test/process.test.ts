import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BackgroundJobs } from '../src/jobs.js';
import { ProcessGroups, runCommand } from '../src/process.js';
import { eventually, isAlive, tempDir } from './helpers.js';

const base = { timeoutMs: 20_000, maxOutputBytes: 30_000, killGraceMs: 300 };

describe('runCommand', () => {
  it('runs bash -c in the cwd and reports the exit code with interleaved output', async () => {
    const cwd = await tempDir();
    const r = await runCommand('pwd; echo out; echo err >&2; exit 3', { ...base, cwd });
    expect(r.exitCode).toBe(3);
    expect(r.signal).toBeNull();
    expect(r.output).toBe(`${cwd}\nout\nerr\n`);
    expect(r).toMatchObject({ timedOut: false, aborted: false, droppedBytes: 0 });
  });

  it('passes escape sequences to the raw output unchanged and strips them from the plain text', async () => {
    const cwd = await tempDir();
    const r = await runCommand(
      `printf '\\033[31mred\\033[0m \\033]0;title\\007\\033]8;;http://x\\033\\\\link\\033]8;;\\033\\\\ 10%%\\r100%%\\n'`,
      { ...base, cwd },
    );
    expect(r.output).toBe(
      '\u001b[31mred\u001b[0m \u001b]0;title\u0007\u001b]8;;http://x\u001b\\link\u001b]8;;\u001b\\ 10%\r100%\n',
    );
    expect(r.plain).toBe('100%\n');
    const r2 = await runCommand(`printf '\\033[1mbold\\033[0m\\n'`, { ...base, cwd });
    expect(r2.plain).toBe('bold\n');
  });

  it('caps 50 MB of output to head + tail without holding it in memory', async () => {
    const cwd = await tempDir();
    const size = 50 * 1024 * 1024;
    globalThis.gc?.();
    const before = process.memoryUsage().rss;
    const r = await runCommand(`printf 'HEAD'; head -c ${size} /dev/zero | tr '\\0' 'a'; printf 'TAIL'`, {
      ...base,
      cwd,
      maxOutputBytes: 10_000,
    });
    const growth = process.memoryUsage().rss - before;
    expect(r.exitCode).toBe(0);
    expect(r.totalBytes).toBe(size + 8);
    expect(r.droppedBytes).toBe(size + 8 - 10_000);
    expect(r.output.startsWith('HEADaaaa')).toBe(true);
    expect(r.output.endsWith('aaaaTAIL')).toBe(true);
    expect(r.output).toContain(`[... ${size + 8 - 10_000} bytes omitted ...]`);
    expect(r.output.length).toBeLessThan(10_100);
    // Loose: buffering 50 MB would grow RSS by at least that much.
    expect(growth).toBeLessThan(40 * 1024 * 1024);
  });

  it('times out a hung command and kills its whole process tree', async () => {
    const cwd = await tempDir();
    const pidFile = path.join(cwd, 'grandchild.pid');
    const r = await runCommand(`bash -c 'sleep 300 & echo $! > ${pidFile}; wait' ; echo never`, {
      ...base,
      cwd,
      timeoutMs: 500,
    });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGTERM');
    expect(r.exitCode).toBeNull();
    const grandchild = Number((await readFile(pidFile, 'utf8')).trim());
    expect(grandchild).toBeGreaterThan(0);
    expect(await eventually(() => !isAlive(grandchild))).toBe(true);
  });

  it('escalates to SIGKILL when the command ignores SIGTERM', async () => {
    const cwd = await tempDir();
    const r = await runCommand(`trap '' TERM; echo ready; while :; do sleep 0.05; done`, {
      ...base,
      cwd,
      timeoutMs: 300,
      killGraceMs: 200,
    });
    expect(r.timedOut).toBe(true);
    expect(r.signal).toBe('SIGKILL');
    expect(r.plain).toBe('ready\n');
  });

  it('kills the process tree on abort', async () => {
    const cwd = await tempDir();
    const controller = new AbortController();
    const pidFile = path.join(cwd, 'child.pid');
    const running = runCommand(`sleep 300 & echo $! > ${pidFile}; echo started; wait`, {
      ...base,
      cwd,
      signal: controller.signal,
    });
    expect(
      await eventually(async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== ''),
    ).toBe(true);
    controller.abort();
    const r = await running;
    expect(r.aborted).toBe(true);
    expect(r.signal).toBe('SIGTERM');
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await eventually(() => !isAlive(child))).toBe(true);
    await expect(runCommand('echo x', { ...base, cwd, signal: controller.signal })).rejects.toThrow(
      /already aborted/,
    );
  });

  it('returns when the shell exits even if it left a child holding the pipe, and ends that child', async () => {
    const cwd = await tempDir();
    const pidFile = path.join(cwd, 'bg.pid');
    const r = await runCommand(`sleep 300 & echo $! > ${pidFile}; echo done`, { ...base, cwd });
    expect(r).toMatchObject({ exitCode: 0, signal: null, timedOut: false });
    expect(r.plain).toBe('done\n');
    const child = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await eventually(() => !isAlive(child))).toBe(true);
  });

  describe('returns within a bounded time whatever the children do', () => {
    const sleepers: number[] = [];
    afterEach(() => {
      for (const pid of sleepers.splice(0)) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }
    });
    const readPid = async (file: string) => Number((await readFile(file, 'utf8')).trim());

    it('a timeout returns while a setsid child still holds the pipe, and reports that child', async () => {
      const cwd = await tempDir();
      const pidFile = path.join(cwd, 'sleeper.pid');
      const r = await runCommand(`setsid sleep 7 & echo $! > ${pidFile}; echo started; sleep 30`, {
        ...base,
        cwd,
        timeoutMs: 1500,
      });
      const sleeper = await readPid(pidFile);
      sleepers.push(sleeper);
      // The outcome that matters: the call came back before the 7 s sleeper finished.
      expect(isAlive(sleeper)).toBe(true);
      expect(r.timedOut).toBe(true);
      expect(r.abandonedPipes).toBe(true);
      expect(r.plain).toBe('started\n');
      expect(r.survivors.map((p) => p.pid)).toContain(sleeper);
      expect(r.survivors.find((p) => p.pid === sleeper)?.name).toBe('sleep');
    });

    it('a command that only starts a setsid child returns when its shell exits', async () => {
      const cwd = await tempDir();
      const pidFile = path.join(cwd, 'sleeper.pid');
      // The short sleep lets setsid leave the group before the shell exits and its group is ended.
      const r = await runCommand(`setsid sleep 7 & echo $! > ${pidFile}; sleep 0.3`, {
        ...base,
        cwd,
        timeoutMs: 1500,
      });
      const sleeper = await readPid(pidFile);
      sleepers.push(sleeper);
      expect(isAlive(sleeper)).toBe(true);
      expect(r).toMatchObject({ exitCode: 0, timedOut: false, abandonedPipes: true });
      expect(r.survivors.map((p) => p.pid)).toEqual([sleeper]);
    });

    it('an abort returns while a setsid child still holds the pipe', async () => {
      const cwd = await tempDir();
      const pidFile = path.join(cwd, 'sleeper.pid');
      const controller = new AbortController();
      // The pid is written once setsid has surely left the group (so the abort cannot catch it still inside).
      const running = runCommand(`setsid sleep 7 & p=$!; sleep 0.3; echo $p > ${pidFile}; sleep 30`, {
        ...base,
        cwd,
        signal: controller.signal,
      });
      expect(
        await eventually(async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== ''),
      ).toBe(true);
      controller.abort();
      const r = await running;
      const sleeper = await readPid(pidFile);
      sleepers.push(sleeper);
      expect(isAlive(sleeper)).toBe(true);
      expect(r).toMatchObject({ aborted: true, abandonedPipes: true });
      expect(r.survivors.map((p) => p.pid)).toContain(sleeper);
    });

    it('a nohup child stays in the group and is killed with it on timeout', async () => {
      const cwd = await tempDir();
      const pidFile = path.join(cwd, 'sleeper.pid');
      const r = await runCommand(`nohup sleep 7 & echo $! > ${pidFile}; sleep 30`, {
        ...base,
        cwd,
        timeoutMs: 1000,
      });
      const sleeper = await readPid(pidFile);
      sleepers.push(sleeper);
      expect(r.timedOut).toBe(true);
      expect(await eventually(() => !isAlive(sleeper))).toBe(true);
      expect(r.survivors).toEqual([]);
    });
  });

  it('tracks the running group in a ProcessGroups registry that can kill it', async () => {
    const cwd = await tempDir();
    const groups = new ProcessGroups();
    const pidFile = path.join(cwd, 'child.pid');
    const running = runCommand(`sleep 300 & echo $! > ${pidFile}; wait`, { ...base, cwd, groups });
    expect(
      await eventually(async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== ''),
    ).toBe(true);
    expect(groups.pids).toHaveLength(1);
    expect(groups.killAll('SIGKILL')).toBe(1);
    const r = await running;
    expect(r.signal).toBe('SIGKILL');
    expect(groups.pids).toEqual([]);
    expect(await eventually(() => !isAlive(Number(readFileSync(pidFile, 'utf8').trim())))).toBe(true);
  });

  it('reports a missing cwd or shell as a clear error', async () => {
    const cwd = await tempDir();
    await expect(runCommand('true', { ...base, cwd: path.join(cwd, 'missing') })).rejects.toThrow(
      /Could not start the shell/,
    );
    await expect(runCommand('true', { ...base, cwd, shell: path.join(cwd, 'no-shell') })).rejects.toThrow(
      /Could not start the shell/,
    );
    await expect(runCommand('  ', { ...base, cwd })).rejects.toThrow('command must be a non-empty string');
  });
});

describe('BackgroundJobs', () => {
  it('wait and kill return while a setsid child of the job still holds its pipes', async () => {
    const cwd = await tempDir();
    const jobs = new BackgroundJobs({ killGraceMs: 300 });
    const started = jobs.start(`setsid sleep 7 & p=$!; sleep 0.3; echo $p > s1.pid`, { cwd });
    const waited = await jobs.wait(started.id);
    const first = Number(readFileSync(path.join(cwd, 's1.pid'), 'utf8').trim());
    const running = jobs.start(`setsid sleep 7 & p=$!; sleep 0.3; echo $p > s2.pid; sleep 300`, { cwd });
    expect(
      await eventually(
        async () => (await readFile(path.join(cwd, 's2.pid'), 'utf8').catch(() => '')).trim() !== '',
      ),
    ).toBe(true);
    const killed = await jobs.kill(running.id);
    const second = Number(readFileSync(path.join(cwd, 's2.pid'), 'utf8').trim());
    try {
      // Both sleepers still run: neither call waited for them.
      expect([isAlive(first), isAlive(second)]).toEqual([true, true]);
      expect(waited).toMatchObject({ status: 'exited', exitCode: 0 });
      expect(killed.status).toBe('killed');
      await jobs.dispose();
    } finally {
      for (const pid of [first, second]) process.kill(pid, 'SIGKILL');
    }
  });

  it('runs a job, returns output since the last read, and reports its exit', async () => {
    const cwd = await tempDir();
    const jobs = new BackgroundJobs({ killGraceMs: 300 });
    const job = jobs.start('echo one; sleep 0.2; echo two; exit 4', { cwd });
    expect(job).toMatchObject({ id: 'job-1', status: 'running' });
    const done = await jobs.wait(job.id);
    expect(done).toMatchObject({ status: 'exited', exitCode: 4, signal: null });
    expect(jobs.read(job.id).output.text).toBe('one\ntwo\n');
    expect(jobs.read(job.id).output.text).toBe('');
    await jobs.dispose();
  });

  it('reads incrementally and kills the whole group', async () => {
    const cwd = await tempDir();
    const jobs = new BackgroundJobs({ killGraceMs: 300 });
    const pidFile = path.join(cwd, 'gc.pid');
    const job = jobs.start(`echo first; sleep 300 & echo $! > ${pidFile}; wait`, { cwd });
    expect(
      await eventually(async () => (await readFile(pidFile, 'utf8').catch(() => '')).trim() !== ''),
    ).toBe(true);
    const first = jobs.read(job.id);
    expect(first.output.text).toBe('first\n');
    expect(first.info.status).toBe('running');
    expect(jobs.read(job.id).output.text).toBe('');
    const killed = await jobs.kill(job.id);
    expect(killed.status).toBe('killed');
    expect(killed.signal).toBe('SIGTERM');
    const grandchild = Number((await readFile(pidFile, 'utf8')).trim());
    expect(await eventually(() => !isAlive(grandchild))).toBe(true);
    expect((await jobs.kill(job.id)).status).toBe('killed');
  });

  it('disposes every running job and names unknown jobs clearly', async () => {
    const cwd = await tempDir();
    const jobs = new BackgroundJobs({ killGraceMs: 300, maxRunning: 2 });
    const a = jobs.start('sleep 300', { cwd });
    jobs.start('sleep 300', { cwd });
    expect(() => jobs.start('sleep 300', { cwd })).toThrow(/Too many background jobs running \(2\)/);
    expect(() => jobs.read('job-9')).toThrow('No background job "job-9" (known: job-1, job-2)');
    await jobs.dispose();
    expect(jobs.list().map((j) => j.status)).toEqual(['killed', 'killed']);
    expect(await eventually(() => !isAlive(a.pid!))).toBe(true);
  });
});
