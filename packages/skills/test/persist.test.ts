import { execFileSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { listSkillsMeta, SkillCache } from '../src/index.js';
import { loadIndex } from '../src/persist.js';
import { makeTree, skillMd, type TempTree } from './helpers.js';

let t: TempTree;
let indexFile: string;
beforeEach(async () => {
  t = await makeTree();
  indexFile = join(t.root, 'data', 'skills-index.json');
});
afterEach(async () => {
  await t.cleanup();
});

const list = (cache: SkillCache) => listSkillsMeta({ cwd: t.cwd, homeDir: t.home, cache });
const keyOf = (path: string) => {
  const s = statSync(path, { bigint: true });
  return `${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
};

describe('SkillCache indexFile (persistent across processes)', () => {
  it('a fresh cache lists from the index what an earlier process parsed, re-validating it', async () => {
    const a = await t.write('project/.agents/skills/alpha/SKILL.md', skillMd('alpha', 'first'));
    await t.write('project/.agents/skills/bad/SKILL.md', '---\nname: [x\n---\n');
    const first = await list(new SkillCache({ indexFile }));
    expect((await stat(indexFile)).mode & 0o777).toBe(0o600);
    expect(await list(new SkillCache({ indexFile }))).toEqual(first);

    // The index is what the second process read: an entry for alpha's current stat key is taken as parsed...
    const raw = JSON.parse(await readFile(indexFile, 'utf8'));
    expect(raw.files[a].key).toBe(keyOf(a));
    raw.files[a].outcome.data = { name: 'alpha', description: 'from the index' };
    await writeFile(indexFile, JSON.stringify(raw));
    expect((await list(new SkillCache({ indexFile }))).skills.map((s) => s.description)).toEqual([
      'from the index',
    ]);
    // ...but still validated like a fresh parse: an invalid name in the index skips the skill with a warning.
    raw.files[a].outcome.data = { name: 'Not A Name', description: 'x' };
    await writeFile(indexFile, JSON.stringify(raw));
    const tampered = await list(new SkillCache({ indexFile }));
    expect(tampered.skills).toEqual([]);
    expect(tampered.warnings.map((w) => [w.field, w.code])).toContainEqual(['name', 'invalid-field']);
  });

  it('a changed file is read again (its stat key no longer matches)', async () => {
    const path = await t.write('project/.agents/skills/alpha/SKILL.md', skillMd('alpha', 'v1'));
    await list(new SkillCache({ indexFile }));
    await writeFile(path, skillMd('alpha', 'version two'));
    expect((await list(new SkillCache({ indexFile }))).skills.map((s) => s.description)).toEqual([
      'version two',
    ]);
    const again = loadIndex(indexFile);
    expect(again.get(path)?.key).toBe(keyOf(path));
  });

  it.each([
    ['garbage', async (f: string) => writeFile(f, '{not json')],
    [
      'wrong format',
      async (f: string) => writeFile(f, JSON.stringify({ format: 'x', version: 1, files: {} })),
    ],
    [
      'wrong entry shapes',
      async (f: string) =>
        writeFile(
          f,
          JSON.stringify({ format: 'codeagent.skills-index', version: 1, files: { a: 1, b: { key: 2 } } }),
        ),
    ],
    ['a directory', async (f: string) => mkdirSync(f, { recursive: true })],
    ['a FIFO', async (f: string) => execFileSync('mkfifo', [f])],
  ])('a damaged index (%s) is ignored, never a crash or a hang', async (_, damage) => {
    await t.write('project/.agents/skills/alpha/SKILL.md', skillMd('alpha', 'ok'));
    mkdirSync(join(t.root, 'data'), { recursive: true });
    await damage(indexFile);
    const { skills } = await list(new SkillCache({ indexFile }));
    expect(skills.map((s) => s.name)).toEqual(['alpha']);
  });

  it('a bad indexFile option is a clear TypeError', () => {
    expect(() => new SkillCache({ indexFile: '' })).toThrow(/indexFile/);
    expect(() => new SkillCache({ indexFile: 42 as unknown as string })).toThrow(TypeError);
  });

  it('property: loadIndex never throws on arbitrary JSON and keeps only well-formed entries', async () => {
    mkdirSync(join(t.root, 'data'), { recursive: true });
    await fc.assert(
      fc.asyncProperty(fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), async (any, files) => {
        await writeFile(indexFile, JSON.stringify(any));
        expect(loadIndex(indexFile).size).toBe(0);
        await writeFile(indexFile, JSON.stringify({ format: 'codeagent.skills-index', version: 1, files }));
        for (const entry of loadIndex(indexFile).values()) {
          expect(typeof entry.key).toBe('string');
          expect(typeof entry.outcome.ok).toBe('boolean');
        }
      }),
      { numRuns: 200 },
    );
  });
});
