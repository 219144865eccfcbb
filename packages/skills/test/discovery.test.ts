import { mkdir, rename, rm, symlink, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listSkillsMeta,
  loadSkillPrompt,
  PROJECT_SKILL_DIRS,
  SkillCache,
  skillDirectories,
} from '../src/index.js';
import { makeTree, skillMd, type TempTree } from './helpers.js';

let t: TempTree;
let cache: SkillCache;
beforeEach(async () => {
  t = await makeTree();
  cache = new SkillCache();
});
afterEach(async () => {
  await t.cleanup();
});

const opts = (extra: { dirs?: string[]; maxFileBytes?: number } = {}) => ({
  cwd: t.cwd,
  homeDir: t.home,
  cache,
  ...extra,
});

describe('skillDirectories', () => {
  it('lists the user dirs, the project dirs, then host dirs in precedence order', () => {
    const dirs = skillDirectories({ cwd: t.cwd, homeDir: t.home, dirs: ['extra', '/abs/skills'] });
    expect(dirs.map((d) => [d.kind, d.dir])).toEqual([
      ['user', join(t.home, '.claude/skills')],
      ['user', join(t.home, '.agents/skills')],
      ['user', join(t.home, '.codeagent/skills')],
      ['project', join(t.cwd, '.btw/skills')],
      ['project', join(t.cwd, '.gemini/skills')],
      ['project', join(t.cwd, '.agents/skills')],
      ['project', join(t.cwd, '.claude/skills')],
      ['project', join(t.cwd, '.codex/skills')],
      ['project', join(t.cwd, '.codeagent/skills')],
      ['host', join(t.cwd, 'extra')],
      ['host', '/abs/skills'],
    ]);
  });

  it('keeps only the strongest position of a directory given twice', () => {
    const dirs = skillDirectories({ cwd: t.cwd, homeDir: t.cwd, dirs: ['.btw/skills'] });
    expect(dirs.map((d) => d.dir)).toEqual([
      join(t.cwd, '.gemini/skills'),
      join(t.cwd, '.agents/skills'),
      join(t.cwd, '.claude/skills'),
      join(t.cwd, '.codex/skills'),
      join(t.cwd, '.codeagent/skills'),
      join(t.cwd, '.btw/skills'),
    ]);
  });

  it('searches every directory from the repository root down to cwd, and nothing above the root', async () => {
    await mkdir(join(t.cwd, '.git'), { recursive: true });
    const deep = join(t.cwd, 'packages', 'app');
    await mkdir(deep, { recursive: true });
    const project = skillDirectories({ cwd: deep, homeDir: t.home })
      .filter((d) => d.kind === 'project')
      .map((d) => d.dir);
    const levels = [t.cwd, join(t.cwd, 'packages'), deep];
    expect(project).toEqual(levels.flatMap((l) => PROJECT_SKILL_DIRS.map((d) => join(l, d))));
    expect(project.some((d) => d.startsWith(`${t.root}/.`))).toBe(false);
  });

  it('a .git file (worktree, submodule) marks the root too; outside a repository only cwd is searched', async () => {
    const deep = join(t.cwd, 'sub');
    await mkdir(deep, { recursive: true });
    const projectDirs = () =>
      skillDirectories({ cwd: deep, homeDir: t.home })
        .filter((d) => d.kind === 'project')
        .map((d) => d.dir);
    expect(projectDirs()).toEqual(PROJECT_SKILL_DIRS.map((d) => join(deep, d)));
    await writeFile(join(t.cwd, '.git'), 'gitdir: /elsewhere\n');
    expect(projectDirs()).toHaveLength(PROJECT_SKILL_DIRS.length * 2);
  });
});

describe('skills from the repository root down to cwd', () => {
  it('a deeper directory overrides a shallower one; user-level peers are read', async () => {
    await mkdir(join(t.cwd, '.git'), { recursive: true });
    const deep = join(t.cwd, 'app');
    await t.write('project/.claude/skills/shared/SKILL.md', skillMd('shared', 'from the root'));
    await t.write('project/app/.gemini/skills/shared/SKILL.md', skillMd('shared', 'from app'));
    await t.write('project/.agents/skills/root-only/SKILL.md', skillMd('root-only', 'root'));
    await t.write('home/.claude/skills/mine/SKILL.md', skillMd('mine', 'user claude'));
    await t.write('home/.agents/skills/mine/SKILL.md', skillMd('mine', 'user agents'));
    await t.write('.claude/skills/outside/SKILL.md', skillMd('outside', 'above the repository'));
    const { skills, warnings } = await listSkillsMeta({ cwd: deep, homeDir: t.home, cache });
    expect(warnings).toEqual([]);
    expect(skills.map((s) => [s.name, s.description, s.sourceKind])).toEqual([
      ['mine', 'user agents', 'user'],
      ['root-only', 'root', 'project'],
      ['shared', 'from app', 'project'],
    ]);
  });
});

describe('listSkillsMeta precedence', () => {
  it('later directories override earlier ones by name; distinct names all survive', async () => {
    const layers = [
      'home/.codeagent/skills',
      'project/.btw/skills',
      'project/.agents/skills',
      'project/.claude/skills',
      'project/.codex/skills',
      'project/.codeagent/skills',
      'host-skills',
    ];
    for (const [i, layer] of layers.entries()) {
      await t.write(`${layer}/shared/SKILL.md`, skillMd('shared', `from layer ${i}`));
      await t.write(`${layer}/only-${i}/SKILL.md`, skillMd(`only-${i}`, `unique ${i}`));
    }
    const withoutHost = await listSkillsMeta(opts());
    expect(withoutHost.skills.find((s) => s.name === 'shared')?.description).toBe('from layer 5');
    expect(withoutHost.skills.map((s) => s.name)).toEqual([
      'only-0',
      'only-1',
      'only-2',
      'only-3',
      'only-4',
      'only-5',
      'shared',
    ]);
    const withHost = await listSkillsMeta(opts({ dirs: [join(t.root, 'host-skills')] }));
    const shared = withHost.skills.find((s) => s.name === 'shared');
    expect(shared?.description).toBe('from layer 6');
    expect(shared?.sourceKind).toBe('host');
    expect(shared?.path).toBe(join(t.root, 'host-skills/shared/SKILL.md'));
    expect(withHost.skills).toHaveLength(8);
    expect(withHost.warnings).toEqual([]);
    expect(await loadSkillPrompt('shared', { ...opts({ dirs: [join(t.root, 'host-skills')] }) })).toBe(
      'Body of shared.\n',
    );
  });

  it('user-level skills are found and reported with their source', async () => {
    await t.write('home/.codeagent/skills/mine/SKILL.md', skillMd('mine', 'user skill'));
    const { skills } = await listSkillsMeta(opts());
    expect(skills).toEqual([
      expect.objectContaining({
        name: 'mine',
        description: 'user skill',
        autoTrigger: true,
        sourceKind: 'user',
        source: join(t.home, '.codeagent/skills'),
        folder: join(t.home, '.codeagent/skills/mine'),
      }),
    ]);
  });

  it('returns an empty list with no warnings when no directory exists', async () => {
    expect(await listSkillsMeta(opts())).toEqual({ skills: [], warnings: [] });
  });

  it('parses every documented frontmatter field', async () => {
    await t.write(
      'project/.claude/skills/full/SKILL.md',
      skillMd(
        'full',
        'all fields',
        'x\n',
        [
          'argument-hint: "[file] [mode]"',
          'allowed-tools: Read, Grep Bash(git add:*)',
          'auto-trigger: false',
          'license: MIT',
          'compatibility: Node 20+',
          'metadata:',
          '  author: me',
          '  version: "1.0"',
          '',
        ].join('\n'),
      ),
    );
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(warnings).toEqual([]);
    expect(skills[0]).toMatchObject({
      name: 'full',
      argumentHint: '[file] [mode]',
      allowedTools: ['Read', 'Grep', 'Bash(git add:*)'],
      autoTrigger: false,
      license: 'MIT',
      compatibility: 'Node 20+',
      metadata: { author: 'me', version: '1.0' },
    });
  });
});

describe('invalid skills are skipped with warnings, never fatal', () => {
  it('reports file, field and reason for each broken skill and keeps the good ones', async () => {
    const d = 'project/.codeagent/skills';
    await t.write(`${d}/good/SKILL.md`, skillMd('good', 'fine'));
    await t.write(`${d}/no-fm/SKILL.md`, '# just markdown\n');
    await t.write(`${d}/unterminated/SKILL.md`, '---\nname: unterminated\ndescription: x\n');
    await t.write(`${d}/bad-yaml/SKILL.md`, '---\nname: [unclosed\ndescription: x\n---\nbody\n');
    await t.write(`${d}/dup-key/SKILL.md`, '---\nname: dup-key\nname: dup-key\ndescription: x\n---\nbody\n');
    await t.write(`${d}/scalar/SKILL.md`, '---\njust a string\n---\nbody\n');
    await t.write(`${d}/no-name/SKILL.md`, '---\ndescription: x\n---\nbody\n');
    await t.write(`${d}/Bad-Name/SKILL.md`, skillMd('Bad-Name', 'upper case'));
    await t.write(`${d}/double/SKILL.md`, skillMd('a--b', 'double hyphen'));
    await t.write(`${d}/trailing/SKILL.md`, skillMd('trailing-', 'trailing hyphen'));
    await t.write(`${d}/long/SKILL.md`, skillMd('a'.repeat(65), 'too long'));
    await t.write(`${d}/no-desc/SKILL.md`, '---\nname: no-desc\n---\nbody\n');
    await t.write(`${d}/blank-desc/SKILL.md`, '---\nname: blank-desc\ndescription: "   "\n---\nbody\n');
    await t.write(`${d}/huge-desc/SKILL.md`, skillMd('huge-desc', 'd'.repeat(1025)));
    await t.write(`${d}/num-name/SKILL.md`, '---\nname: 1.5e3\ndescription: x\n---\nbody\n');
    const { skills, warnings } = await listSkillsMeta(opts());
    // Read as peers read them: a missing name falls back to the folder, a long description is kept.
    expect(skills.map((s) => s.name)).toEqual(['good', 'huge-desc', 'no-name']);
    const byFolder = (folder: string) =>
      warnings.filter((w) => w.file === join(t.root, d, folder, 'SKILL.md'));
    expect(byFolder('no-fm')).toEqual([
      expect.objectContaining({ code: 'missing-frontmatter', skipped: true }),
    ]);
    expect(byFolder('unterminated')[0]?.code).toBe('unterminated-frontmatter');
    expect(byFolder('bad-yaml')[0]).toMatchObject({ code: 'invalid-yaml', skipped: true });
    expect(byFolder('bad-yaml')[0]?.reason).toMatch(/^YAML error: /);
    expect(byFolder('dup-key')[0]?.code).toBe('invalid-yaml');
    expect(byFolder('scalar')[0]?.code).toBe('invalid-frontmatter');
    expect(byFolder('no-name')).toEqual([
      expect.objectContaining({ code: 'name-from-folder', field: 'name', skipped: false }),
    ]);
    expect(byFolder('huge-desc')).toEqual([
      expect.objectContaining({ code: 'long-description', field: 'description', skipped: false }),
    ]);
    for (const f of ['Bad-Name', 'double', 'trailing', 'long', 'num-name']) {
      expect(byFolder(f), f).toEqual([
        expect.objectContaining({ code: 'invalid-field', field: 'name', skipped: true }),
      ]);
    }
    for (const f of ['no-desc', 'blank-desc']) {
      expect(byFolder(f), f).toEqual([
        expect.objectContaining({ code: 'invalid-field', field: 'description', skipped: true }),
      ]);
    }
    expect(warnings).toHaveLength(14);
  });

  it('numeric and boolean scalars in text fields are read as written', async () => {
    await t.write(
      'project/.codeagent/skills/404/SKILL.md',
      '---\nname: 404\ndescription: 2024\nlicense: true\n---\nb\n',
    );
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(warnings).toEqual([]);
    expect(skills[0]).toMatchObject({ name: '404', description: '2024', license: 'true' });
  });

  it('accepts a 64-character name and a 1024-character description exactly at the limits', async () => {
    const name = `a${'-b'.repeat(31)}c`;
    expect(name).toHaveLength(64);
    await t.write(`project/.codeagent/skills/${name}/SKILL.md`, skillMd(name, 'é'.repeat(1024)));
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(warnings).toEqual([]);
    expect(skills[0]?.name).toBe(name);
  });

  it('drops a malformed optional field with a kept-skill warning', async () => {
    await t.write(
      'project/.codeagent/skills/opt/SKILL.md',
      skillMd(
        'opt',
        'x',
        'b\n',
        'auto-trigger: "sometimes"\nargument-hint:\n  a: 1\nmetadata:\n  n: 1\n  s: ok\n',
      ),
    );
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills).toHaveLength(1);
    expect(skills[0]?.autoTrigger).toBe(true);
    expect(skills[0]?.argumentHint).toBeUndefined();
    expect(skills[0]?.metadata).toEqual({ s: 'ok' });
    expect(warnings.map((w) => [w.field, w.skipped])).toEqual([
      ['argument-hint', false],
      ['auto-trigger', false],
      ['metadata', false],
    ]);
  });

  it('keeps a skill whose name differs from its folder, under the frontmatter name, with a warning', async () => {
    const path = await t.write('project/.codeagent/skills/folder-name/SKILL.md', skillMd('real-name', 'x'));
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills.map((s) => s.name)).toEqual(['real-name']);
    expect(warnings).toEqual([
      expect.objectContaining({ file: path, field: 'name', code: 'name-mismatch', skipped: false }),
    ]);
  });

  it('two folders in one directory with the same name: the later folder wins, the earlier is reported', async () => {
    const a = await t.write('project/.codeagent/skills/a-folder/SKILL.md', skillMd('same', 'first'));
    await t.write('project/.codeagent/skills/b-folder/SKILL.md', skillMd('same', 'second'));
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills.map((s) => s.description)).toEqual(['second']);
    expect(warnings.filter((w) => w.code === 'duplicate-name')).toEqual([
      expect.objectContaining({ file: a, skipped: true }),
    ]);
  });

  it('a body that is only frontmatter is a valid skill with an empty prompt and an empty-body warning', async () => {
    await t.write(
      'project/.codeagent/skills/only-fm/SKILL.md',
      '---\nname: only-fm\ndescription: nothing else\n---',
    );
    await t.write(
      'project/.codeagent/skills/only-fm2/SKILL.md',
      '---\nname: only-fm2\ndescription: nl\n---\n',
    );
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills.map((s) => s.name)).toEqual(['only-fm', 'only-fm2']);
    expect(warnings.map((w) => [w.code, w.skipped])).toEqual([
      ['empty-body', false],
      ['empty-body', false],
    ]);
    expect(await loadSkillPrompt('only-fm', opts())).toBe('');
    expect(await loadSkillPrompt('only-fm2', opts())).toBe('');
  });

  it('skips a non-UTF-8 file with a not-utf8 warning', async () => {
    const latin1 = Buffer.concat([
      Buffer.from(skillMd('latin', 'caf')),
      Buffer.from([0xe9, 0x0a, 0xff, 0xfe]),
    ]);
    await t.write('project/.codeagent/skills/latin/SKILL.md', latin1);
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills).toEqual([]);
    expect(warnings).toEqual([expect.objectContaining({ code: 'not-utf8', skipped: true })]);
  });

  it('skips a file over the size cap with a warning naming the size and the cap', async () => {
    await t.write('project/.codeagent/skills/huge/SKILL.md', skillMd('huge', 'big', 'x'.repeat(300 * 1024)));
    await t.write('project/.codeagent/skills/small/SKILL.md', skillMd('small', 'ok'));
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills.map((s) => s.name)).toEqual(['small']);
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatchObject({ code: 'too-large', skipped: true });
    expect(warnings[0]?.reason).toMatch(/over the 262144-byte cap \(maxFileBytes\)/);
    const raised = await listSkillsMeta(opts({ maxFileBytes: 1024 * 1024 }));
    expect(raised.skills.map((s) => s.name)).toEqual(['huge', 'small']);
    const unlimited = await listSkillsMeta(opts({ maxFileBytes: Number.POSITIVE_INFINITY }));
    expect(unlimited.skills.map((s) => s.name)).toEqual(['huge', 'small']);
    const tiny = await listSkillsMeta(opts({ maxFileBytes: 10 }));
    expect(tiny.warnings.map((w) => w.code)).toEqual(['too-large', 'too-large']);
    await expect(listSkillsMeta(opts({ maxFileBytes: -1 }))).rejects.toThrow(RangeError);
    await expect(listSkillsMeta(opts({ maxFileBytes: Number.NaN }))).rejects.toThrow(
      /non-negative number of bytes/,
    );
  });

  it('handles CRLF line endings and a UTF-8 BOM', async () => {
    await t.write(
      'project/.codeagent/skills/win/SKILL.md',
      '\uFEFF---\r\nname: win\r\ndescription: windows file\r\n---\r\nLine one\r\nLine two $ARGUMENTS\r\n',
    );
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(warnings).toEqual([]);
    expect(skills[0]?.description).toBe('windows file');
    expect(await loadSkillPrompt('win', { ...opts(), args: 'x' })).toBe('Line one\nLine two x\n');
  });

  it('ignores folders without SKILL.md, plain files and dot-folders', async () => {
    await t.write('project/.codeagent/skills/README.md', '# not a skill');
    await t.write('project/.codeagent/skills/assets/logo.txt', 'x');
    await t.write('project/.codeagent/skills/.hidden/SKILL.md', skillMd('hidden', 'x'));
    await mkdir(join(t.cwd, '.codeagent/skills/skill-md-dir/SKILL.md'), { recursive: true });
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills).toEqual([]);
    expect(warnings).toEqual([
      expect.objectContaining({ code: 'unreadable', reason: 'SKILL.md is not a regular file' }),
    ]);
  });

  it('a skills path that is a file is treated as absent', async () => {
    await t.write('project/.codeagent/skills', 'oops, a file');
    expect(await listSkillsMeta(opts())).toEqual({ skills: [], warnings: [] });
  });
});

describe('symlinks', () => {
  it('follows a symlinked skill folder and a symlinked skills directory', async () => {
    await t.write('elsewhere/linked/SKILL.md', skillMd('linked', 'via symlink'));
    await t.write('shared-dir/dir-linked/SKILL.md', skillMd('dir-linked', 'via dir symlink'));
    await mkdir(join(t.cwd, '.claude/skills'), { recursive: true });
    await symlink(join(t.root, 'elsewhere/linked'), join(t.cwd, '.claude/skills/linked'), 'dir');
    await mkdir(join(t.cwd, '.agents'), { recursive: true });
    await symlink(join(t.root, 'shared-dir'), join(t.cwd, '.agents/skills'), 'dir');
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(warnings).toEqual([]);
    expect(skills.map((s) => [s.name, s.path])).toEqual([
      ['dir-linked', join(t.cwd, '.agents/skills/dir-linked/SKILL.md')],
      ['linked', join(t.cwd, '.claude/skills/linked/SKILL.md')],
    ]);
  });

  it('symlink loops and dangling links do not hang or throw', async () => {
    const d = join(t.cwd, '.codeagent/skills');
    await t.write('project/.codeagent/skills/ok/SKILL.md', skillMd('ok', 'fine'));
    await symlink(join(d, 'loop-b'), join(d, 'loop-a'));
    await symlink(join(d, 'loop-a'), join(d, 'loop-b'));
    await symlink(d, join(d, 'self'), 'dir'); // self/SKILL.md does not exist: ignored, no recursion
    await symlink(join(t.root, 'missing'), join(d, 'dangling'));
    await mkdir(join(d, 'file-loop'));
    await symlink(join(d, 'file-loop/SKILL.md'), join(d, 'file-loop/SKILL.md'));
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills.map((s) => s.name)).toEqual(['ok']);
    const loops = warnings.filter((w) => w.reason.includes('ELOOP'));
    expect(loops.map((w) => w.file).sort()).toEqual(
      [join(d, 'file-loop/SKILL.md'), join(d, 'loop-a/SKILL.md'), join(d, 'loop-b/SKILL.md')].sort(),
    );
  });

  it('a skills directory that is itself a symlink loop yields a warning, not a hang', async () => {
    await mkdir(join(t.cwd, '.codex'), { recursive: true });
    await symlink(join(t.cwd, '.codex/skills'), join(t.cwd, '.codex/skills'));
    const { skills, warnings } = await listSkillsMeta(opts());
    expect(skills).toEqual([]);
    expect(warnings).toEqual([
      expect.objectContaining({ file: join(t.cwd, '.codex/skills'), code: 'unreadable', skipped: true }),
    ]);
  });
});

describe('cache', () => {
  it('re-uses parsed files until a file, folder or directory changes', async () => {
    const path = await t.write('project/.codeagent/skills/one/SKILL.md', skillMd('one', 'v1'));
    expect((await listSkillsMeta(opts())).skills.map((s) => s.description)).toEqual(['v1']);
    expect(cache.fileCount).toBe(1);

    // Same size, same second: nanosecond mtime/ctime still differ.
    await writeFile(path, skillMd('one', 'v2'));
    expect((await listSkillsMeta(opts())).skills.map((s) => s.description)).toEqual(['v2']);

    // Even with the mtime forced back, the ctime (and size here) reveal the change.
    const before = new Date('2020-01-01T00:00:00Z');
    await writeFile(path, skillMd('one', 'v3 longer'));
    await utimes(path, before, before);
    expect((await listSkillsMeta(opts())).skills.map((s) => s.description)).toEqual(['v3 longer']);

    // A new folder is seen at once (the directory listing is keyed on the directory's mtime).
    await t.write('project/.codeagent/skills/two/SKILL.md', skillMd('two', 'new'));
    expect((await listSkillsMeta(opts())).skills.map((s) => s.name)).toEqual(['one', 'two']);

    // SKILL.md added inside an existing folder is seen too.
    await mkdir(join(t.cwd, '.codeagent/skills/three'));
    expect((await listSkillsMeta(opts())).skills.map((s) => s.name)).toEqual(['one', 'two']);
    await t.write('project/.codeagent/skills/three/SKILL.md', skillMd('three', 'late'));
    expect((await listSkillsMeta(opts())).skills.map((s) => s.name)).toEqual(['one', 'three', 'two']);

    // Removed and renamed folders disappear and their cache entries are dropped.
    await rm(join(t.cwd, '.codeagent/skills/two'), { recursive: true });
    await rename(join(t.cwd, '.codeagent/skills/three'), join(t.cwd, '.codeagent/skills/tres'));
    const after = await listSkillsMeta(opts());
    expect(after.skills.map((s) => s.name)).toEqual(['one', 'three']);
    expect(after.warnings.map((w) => w.code)).toEqual(['name-mismatch']);
    expect(cache.fileCount).toBe(2);

    // Removing the whole directory clears it.
    await rm(join(t.cwd, '.codeagent/skills'), { recursive: true });
    expect(await listSkillsMeta(opts())).toEqual({ skills: [], warnings: [] });
    expect(cache.fileCount).toBe(0);
  });

  it('warm and cold listings give identical results', async () => {
    for (let i = 0; i < 30; i++) {
      await t.write(`project/.codeagent/skills/s-${i}/SKILL.md`, skillMd(`s-${i}`, `d${i}`));
    }
    await t.write('project/.codeagent/skills/broken/SKILL.md', 'nope');
    const cold = await listSkillsMeta(opts());
    const warm = await listSkillsMeta(opts());
    expect(warm).toEqual(cold);
    expect(await listSkillsMeta({ cwd: t.cwd, homeDir: t.home, cache: new SkillCache() })).toEqual(cold);
  });

  it('the default shared cache works when no cache is passed', async () => {
    await t.write('project/.codeagent/skills/def/SKILL.md', skillMd('def', 'v1'));
    expect((await listSkillsMeta({ cwd: t.cwd, homeDir: t.home })).skills.map((s) => s.name)).toEqual([
      'def',
    ]);
    await writeFile(join(t.cwd, '.codeagent/skills/def/SKILL.md'), skillMd('def', 'v2'));
    expect((await listSkillsMeta({ cwd: t.cwd, homeDir: t.home })).skills[0]?.description).toBe('v2');
  });
});

describe('returned metas are shared with the cache, so they are frozen', () => {
  it('a caller cannot corrupt the cache by mutating a result', async () => {
    await t.write(
      'project/.codeagent/skills/ro/SKILL.md',
      skillMd('ro', 'x', 'b\n', 'allowed-tools: [Read]\nmetadata:\n  k: v\n'),
    );
    const first = await listSkillsMeta(opts());
    const meta = first.skills[0];
    if (!meta) throw new Error('unreachable');
    expect(Object.isFrozen(meta)).toBe(true);
    expect(Object.isFrozen(meta.allowedTools)).toBe(true);
    expect(Object.isFrozen(meta.metadata)).toBe(true);
    expect(() => {
      (meta as { description: string }).description = 'hacked';
    }).toThrow(TypeError);
    expect((await listSkillsMeta(opts())).skills[0]?.description).toBe('x');
  });
});

describe('large directories and concurrency', () => {
  it('a directory with more folders than one stat slice is read completely', async () => {
    const d = join(t.cwd, '.codeagent/skills');
    await Promise.all(
      Array.from({ length: 1100 }, (_, i) =>
        mkdir(join(d, `empty-${String(i).padStart(4, '0')}`), { recursive: true }),
      ),
    );
    await t.write('project/.codeagent/skills/aa-first/SKILL.md', skillMd('aa-first', 'x'));
    await t.write('project/.codeagent/skills/empty-0600/SKILL.md', skillMd('empty-0600', 'middle'));
    await t.write('project/.codeagent/skills/zz-last/SKILL.md', skillMd('zz-last', 'y'));
    const { skills } = await listSkillsMeta(opts());
    expect(skills.map((s) => s.name)).toEqual(['aa-first', 'empty-0600', 'zz-last']);
  });

  it('concurrent listings on one cache agree', async () => {
    for (let i = 0; i < 40; i++)
      await t.write(`project/.codeagent/skills/c${i}/SKILL.md`, skillMd(`c${i}`, `d${i}`));
    const results = await Promise.all(Array.from({ length: 5 }, () => listSkillsMeta(opts())));
    for (const r of results) expect(r).toEqual(results[0]);
    expect(results[0]?.skills).toHaveLength(40);
  });
});
