import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, open, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import {
  readBoundedFile,
  readSettingsDir,
  resolveSettings,
  SettingsFileError,
  TrustStore,
  workspaceKey,
} from '../src/settings.js';

const run = promisify(execFile);
const roots: string[] = [];
afterEach(async () => {
  await Promise.all(roots.splice(0).map((r) => rm(r, { recursive: true, force: true })));
});

async function dirs() {
  const root = await mkdtemp(join(tmpdir(), 'codeagent-settings-'));
  roots.push(root);
  const cwd = join(root, 'work');
  const data = join(root, 'data');
  await mkdir(join(cwd, '.codeagent'), { recursive: true });
  await mkdir(data);
  return { root, cwd, data, project: join(cwd, '.codeagent', 'settings.json') };
}

async function refusal(p: Promise<unknown>): Promise<string> {
  const e = await p.then(
    () => undefined,
    (x: unknown) => x,
  );
  expect(e).toBeInstanceOf(SettingsFileError);
  return (e as Error).message;
}

describe('readBoundedFile: a settings file that exists but cannot be used is an error, never skipped', () => {
  it('refuses a FIFO without blocking on it', async () => {
    const { project } = await dirs();
    await run('mkfifo', [project]);
    expect(await refusal(readBoundedFile(project))).toBe(
      `settings file ${project} is a FIFO, not a regular file; refusing to start (fix or remove it)`,
    );
  });

  it('refuses a directory, a link to /dev/zero, a dangling link and non-UTF-8 text', async () => {
    const { root, project } = await dirs();
    await mkdir(project);
    expect(await refusal(readBoundedFile(project))).toMatch(/is a directory, not a regular file/);
    const zero = join(root, 'zero.json');
    await symlink('/dev/zero', zero);
    expect(await refusal(readBoundedFile(zero))).toMatch(
      /is a link to a character device, not a regular file/,
    );
    const dangling = join(root, 'dangling.json');
    await symlink(join(root, 'missing'), dangling);
    expect(await refusal(readBoundedFile(dangling))).toMatch(/symbolic link to nothing readable \(ENOENT\)/);
    const latin1 = join(root, 'latin1.json');
    await writeFile(latin1, Buffer.from([0x7b, 0xe9, 0x7d]));
    expect(await refusal(readBoundedFile(latin1))).toMatch(/is not UTF-8 text/);
  });

  it('refuses a 600 MB file by its size, without reading it', async () => {
    const { root } = await dirs();
    const big = join(root, 'big.json');
    const fh = await open(big, 'w');
    await fh.truncate(600 * 1024 * 1024);
    await fh.close();
    expect(await refusal(readBoundedFile(big))).toMatch(
      /is 629145600 bytes; settings files are limited to 1048576 bytes/,
    );
  });

  it('reads a regular file (also through a link) and answers undefined when nothing is there', async () => {
    const { root, project } = await dirs();
    await writeFile(project, '{"rules":{}}');
    expect(await readBoundedFile(project)).toBe('{"rules":{}}');
    await symlink(project, join(root, 'link.json'));
    expect(await readBoundedFile(join(root, 'link.json'))).toBe('{"rules":{}}');
    expect(await readBoundedFile(join(root, 'none.json'))).toBeUndefined();
    expect(await readBoundedFile(join(project, 'under-a-file'))).toBeUndefined();
  });
});

describe('resolveSettings: project settings narrow unless the workspace is trusted', () => {
  const widening = JSON.stringify({ mode: 'bypass', rules: { allow: ['Bash'], deny: ['Read(**/.env)'] } });

  it('an untrusted project file keeps deny rules and drops allow rules and a wider mode (the reported bug)', async () => {
    const { cwd, data, project } = await dirs();
    await writeFile(project, widening);
    const s = await resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false });
    expect(s.trusted).toBe(false);
    expect(s.mode).toBe('default');
    expect(s.config.rules).toEqual({ allow: [], ask: [], deny: ['Read(**/.env)'] });
    expect(s.ignored).toEqual([
      { file: project, entry: 'mode "bypass" (less strict than default)' },
      { file: project, entry: 'rules.allow[0] "Bash"' },
    ]);
    expect(s.sources).toEqual([{ list: 'deny', rule: 'Read(**/.env)', file: project }]);
  });

  it('--trust applies the file and remembers the workspace by its real path', async () => {
    const { root, cwd, data, project } = await dirs();
    await writeFile(project, widening);
    const s = await resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: true });
    expect(s).toMatchObject({ trusted: true, mode: 'bypass', ignored: [] });
    expect(s.config.rules?.allow).toEqual(['Bash']);
    expect(await new TrustStore(data).list()).toEqual([await workspaceKey(cwd)]);
    // Remembered: the next run is trusted without the flag, also through a symlinked path.
    await symlink(cwd, join(root, 'alias'));
    const again = await resolveSettings({
      cwd: join(root, 'alias'),
      dataDir: data,
      modeFlag: null,
      trustFlag: false,
    });
    expect(again.trusted).toBe(true);
    // --mode still wins over the settings' mode.
    const flagged = await resolveSettings({ cwd, dataDir: data, modeFlag: 'default', trustFlag: false });
    expect(flagged.mode).toBe('default');
  });

  it('asks once when something would widen; a "no" keeps it narrowed and remembers nothing', async () => {
    const { cwd, data, project } = await dirs();
    await writeFile(project, widening);
    const asked: Array<[string, readonly string[]]> = [];
    const no = await resolveSettings({
      cwd,
      dataDir: data,
      modeFlag: null,
      trustFlag: false,
      askTrust: async (file, w) => {
        asked.push([file, w]);
        return false;
      },
    });
    expect(asked).toEqual([[project, ['mode "bypass" (less strict than default)', 'rules.allow[0] "Bash"']]]);
    expect(no.trusted).toBe(false);
    expect(await new TrustStore(data).list()).toEqual([]);
    const yes = await resolveSettings({
      cwd,
      dataDir: data,
      modeFlag: null,
      trustFlag: false,
      askTrust: async () => true,
    });
    expect(yes.trusted).toBe(true);
    expect(await new TrustStore(data).list()).toHaveLength(1);
  });

  it('does not ask when the project file only narrows', async () => {
    const { cwd, data, project } = await dirs();
    await writeFile(project, '{"rules":{"deny":["Bash(rm *)"]},"mode":"plan"}');
    const s = await resolveSettings({
      cwd,
      dataDir: data,
      modeFlag: null,
      trustFlag: false,
      askTrust: () => {
        throw new Error('must not ask');
      },
    });
    expect(s).toMatchObject({ mode: 'plan', trusted: false, ignored: [] });
  });

  it('user settings in the data dir are trusted and merge before the project', async () => {
    const { cwd, data, project } = await dirs();
    await writeFile(
      join(data, 'settings.yaml'),
      'mode: accept_edits\nrules:\n  allow: ["Bash(npm test*)"]\n',
    );
    await writeFile(project, '{"rules":{"deny":["Bash(npm test --update*)"]}}');
    const s = await resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false });
    expect(s.mode).toBe('accept_edits');
    expect(s.sources).toEqual([
      { list: 'allow', rule: 'Bash(npm test*)', file: join(data, 'settings.yaml') },
      { list: 'deny', rule: 'Bash(npm test --update*)', file: project },
    ]);
  });

  it('a parse error, a bad rule or a damaged trust list names the file', async () => {
    const { cwd, data, project } = await dirs();
    await writeFile(project, '{"rules":{"deny":["Bash(("]}}');
    expect(
      await refusal(resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false })),
    ).toContain(`settings file ${project} is invalid:\nrules.deny[0]: unparsable rule`);
    await writeFile(project, '{"rules":');
    expect(await refusal(resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false }))).toMatch(
      /is invalid:\n\(root\): invalid JSON/,
    );
    await writeFile(project, '{}');
    await writeFile(join(data, 'trusted-workspaces.json'), '{"workspaces": "all"}');
    expect(await refusal(resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false }))).toMatch(
      /trusted-workspaces\.json is not a trust list/,
    );
  });

  it('the trust list is written atomically with private permissions', async () => {
    const { data } = await dirs();
    const store = new TrustStore(data);
    await store.add('/a');
    await store.add('/a');
    await store.add('/b');
    expect(JSON.parse(await readFile(store.file, 'utf8'))).toEqual({ version: 1, workspaces: ['/a', '/b'] });
    const mode = (await import('node:fs')).statSync(store.file).mode & 0o777;
    expect(mode).toBe(0o600);
  });
});

describe('hostile settings and trust files', () => {
  it('random bytes either parse or fail with an error naming the file (property)', async () => {
    const { cwd, data, project } = await dirs();
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          fc.jsonValue().map((v) => new TextEncoder().encode(JSON.stringify(v))),
          fc
            .record({ rules: fc.record({ deny: fc.array(fc.string()), allow: fc.array(fc.string()) }) })
            .map((v) => new TextEncoder().encode(JSON.stringify(v))),
        ),
        async (bytes) => {
          await writeFile(project, bytes);
          await writeFile(join(data, 'trusted-workspaces.json'), bytes);
          for (const load of [
            () => readSettingsDir(join(cwd, '.codeagent'), 'project'),
            () => new TrustStore(data).list(),
          ]) {
            try {
              await load();
            } catch (e) {
              expect(e).toBeInstanceOf(SettingsFileError);
              expect((e as Error).message).toContain('refusing to start');
            }
          }
        },
      ),
      { numRuns: 150 },
    );
  });

  it('deep nesting, bidi and escapes in a settings file are clear errors or plain data', async () => {
    const { cwd, data, project } = await dirs();
    await writeFile(project, `${'{"rules":'.repeat(50_000)}{}${'}'.repeat(50_000)}`);
    expect(
      await refusal(resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false })),
    ).toContain(`settings file ${project} is invalid`);
    await writeFile(project, `${'['.repeat(200_000)}`);
    expect(
      await refusal(resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false })),
    ).toContain('is invalid');
    await writeFile(project, JSON.stringify({ rules: { deny: ['Bash(rm \u202e*)', 'Read(\u001bx)'] } }));
    const s = await resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false });
    expect(s.config.rules?.deny).toEqual(['Bash(rm \u202e*)', 'Read(\u001bx)']);
    // A bad rule's error shows control characters escaped, never raw.
    await writeFile(project, JSON.stringify({ rules: { deny: ['Read(\u001b[31m)'] } }));
    const message = await refusal(resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false }));
    expect(message).toContain('unparsable rule "Read(\\u001b[31m)"');
    expect(message).not.toContain('\u001b');
    await writeFile(project, 'a: &a [*a, *a]\nb: *a\n');
    expect(
      await refusal(resolveSettings({ cwd, dataDir: data, modeFlag: null, trustFlag: false })),
    ).toContain('is invalid');
  });
});
