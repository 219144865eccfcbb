import fc from 'fast-check';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { normaliseText, splitFrontmatter } from '../src/frontmatter.js';
import { listSkillsMeta, SkillCache } from '../src/index.js';
import { validateFrontmatter } from '../src/validate.js';
import { makeTree, type TempTree } from './helpers.js';

describe('frontmatter parsing of hostile input', () => {
  it('an alias bomb (billion laughs) is rejected as invalid YAML, not expanded', () => {
    const lines = ['---', 'a: &a ["x","x","x","x","x","x","x","x","x","x"]'];
    for (let i = 1; i < 12; i++) {
      const prev = String.fromCharCode(96 + i);
      const cur = String.fromCharCode(97 + i);
      lines.push(`${cur}: &${cur} [${Array(10).fill(`*${prev}`).join(',')}]`);
    }
    lines.push('name: bomb', 'description: boom', '---', 'body');
    const result = splitFrontmatter(lines.join('\n'));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.code).toBe('invalid-yaml');
  });

  it('deeply nested frontmatter within the cap is rejected by the parser, never a crash', () => {
    const depth = 3000;
    const text = `---\nname: deep\ndescription: d\nmetadata: ${'['.repeat(depth)}${']'.repeat(depth)}\n---\nbody`;
    const result = splitFrontmatter(text);
    expect(result).toMatchObject({ ok: false, code: 'invalid-yaml' });
  });

  it('frontmatter over 16 KiB is refused before parsing', () => {
    const depth = 20_000;
    const text = `---\nname: deep\ndescription: d\nmetadata: ${'['.repeat(depth)}${']'.repeat(depth)}\n---\nbody`;
    const result = splitFrontmatter(text);
    expect(result).toMatchObject({ ok: false, code: 'too-large' });
    if (!result.ok) expect(result.reason).toMatch(/over the 16384-character cap/);
  });

  it('a __proto__ key neither pollutes prototypes nor supplies fields', () => {
    const r = splitFrontmatter('---\n__proto__:\n  name: evil\n  description: x\n---\nbody');
    expect(r.ok).toBe(true);
    if (r.ok) {
      expect(validateFrontmatter(r.data, 'f', 'evil')).toMatchObject({ ok: false });
    }
    const m = splitFrontmatter(
      '---\nname: ok\ndescription: x\nmetadata:\n  __proto__: {polluted: "yes"}\n  k: v\n---\nb',
    );
    if (!m.ok) throw new Error('unreachable');
    const v = validateFrontmatter(m.data, 'f', 'ok');
    expect(v.ok && v.value.metadata).toEqual({ k: 'v' });
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('YAML tags and non-string scalars do not sneak through as names', () => {
    const r = splitFrontmatter('---\nname: !!binary aGVsbG8=\ndescription: x\n---\n');
    if (r.ok) expect(validateFrontmatter(r.data, 'f', 'hello').ok).toBe(false);
    const n = splitFrontmatter('---\nname: null\ndescription: x\n---\n');
    expect(n.ok && validateFrontmatter(n.data, 'f', 'null').ok).toBe(false);
  });

  it('a frontmatter closing line must be exactly --- (a ---x line is content)', () => {
    const r = splitFrontmatter('---\nname: a\ndescription: "x"\n---x\n---\nbody\n');
    expect(r.ok).toBe(false);
    const ok = splitFrontmatter('---  \nname: a\ndescription: x\n---\t\nbody\n');
    expect(ok).toEqual({ ok: true, recovered: [], data: { name: 'a', description: 'x' }, body: 'body\n' });
  });

  it('normaliseText drops one BOM and converts CRLF and lone CR', () => {
    expect(normaliseText('\uFEFFa\r\nb\rc\n')).toBe('a\nb\nc\n');
    expect(normaliseText('\uFEFF\uFEFFa')).toBe('\uFEFFa');
  });

  it('property: parsing and validating arbitrary text never throws', () => {
    const frontmatterish = fc
      .tuple(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }))
      .map(([fm, body]) => `---\n${fm}\n---\n${body}`);
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: 'binary' }), frontmatterish), (text) => {
        const r = splitFrontmatter(normaliseText(text));
        if (r.ok) {
          const v = validateFrontmatter(r.data, '/f/SKILL.md', 'f');
          for (const w of v.warnings) expect(w.file).toBe('/f/SKILL.md');
        } else {
          expect(r.reason.length).toBeGreaterThan(0);
        }
      }),
      { numRuns: 400 },
    );
  });

  it('property: generated valid frontmatter round-trips name and description', () => {
    const name = fc
      .array(fc.stringMatching(/^[a-z0-9]{1,5}$/), { minLength: 1, maxLength: 6 })
      .map((p) => p.join('-'));
    const description = fc.string({ minLength: 1, maxLength: 200 }).filter((s) => s.trim() !== '');
    fc.assert(
      fc.property(name, description, fc.boolean(), (n, d, crlf) => {
        let text = `---\nname: ${n}\ndescription: ${JSON.stringify(d)}\n---\nBody\n`;
        if (crlf) text = text.replace(/\n/g, '\r\n');
        const r = splitFrontmatter(normaliseText(text));
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const v = validateFrontmatter(r.data, 'f', n);
        expect(v.ok).toBe(true);
        if (v.ok) {
          expect(v.value.name).toBe(n);
          expect(v.value.description).toBe(d.trim());
        }
        expect(r.body).toBe('Body\n');
      }),
      { numRuns: 200 },
    );
  });
});

describe('discovery over hostile trees', () => {
  let t: TempTree;
  beforeEach(async () => {
    t = await makeTree();
  });
  afterEach(async () => {
    await t.cleanup();
  });

  it('random bytes in many SKILL.md files never abort discovery', async () => {
    const samples = fc.sample(fc.uint8Array({ maxLength: 300 }), { numRuns: 40, seed: 42 });
    for (const [i, bytes] of samples.entries()) {
      await t.write(`project/.codeagent/skills/r${i}/SKILL.md`, bytes);
    }
    await t.write(
      'project/.codeagent/skills/zz-good/SKILL.md',
      '---\nname: zz-good\ndescription: ok\n---\nfine\n',
    );
    const { skills, warnings } = await listSkillsMeta({
      cwd: t.cwd,
      homeDir: t.home,
      cache: new SkillCache(),
    });
    expect(skills.map((s) => s.name)).toContain('zz-good');
    expect(warnings.every((w) => w.file.includes('.codeagent/skills/r'))).toBe(true);
    expect(warnings.filter((w) => w.skipped)).toHaveLength(samples.length);
  });

  it('a folder name with unusual characters is handled (mismatch warning, never a crash)', async () => {
    await t.write(
      'project/.codeagent/skills/weird name é\u202e/SKILL.md',
      '---\nname: weird\ndescription: ok\n---\nx',
    );
    const { skills, warnings } = await listSkillsMeta({
      cwd: t.cwd,
      homeDir: t.home,
      cache: new SkillCache(),
    });
    expect(skills.map((s) => s.name)).toEqual(['weird']);
    expect(warnings.map((w) => w.code)).toEqual(['name-mismatch']);
  });
});

describe('lenient reading of free-text fields (YAML recovery)', () => {
  it('property: any single-line argument-hint or description never throws, never touches name, and is read as its text when recovered', () => {
    const line = fc.string({
      unit: fc.constantFrom(
        '[',
        ']',
        '{',
        '}',
        ':',
        ' ',
        '#',
        '@',
        '`',
        '*',
        '&',
        '!',
        'a',
        'z',
        '-',
        ',',
        '|',
        '>',
        '"',
        "'",
        '\t',
        '%',
      ),
    });
    fc.assert(
      fc.property(fc.constantFrom('argument-hint', 'description'), line, (field, value) => {
        const text = `---\nname: stable\n${field === 'description' ? '' : 'description: d\n'}${field}: ${value}\n---\nbody\n`;
        const r = splitFrontmatter(text);
        if (!r.ok) return;
        const data = r.data as Record<string, unknown>;
        expect(data.name).toBe('stable');
        if (r.recovered.includes(field)) {
          expect(typeof data[field]).toBe('string');
          if (field === 'description' || !/^[[{]/.test(value.trim())) {
            expect(data[field]).toBe(value.trim());
          }
        }
      }),
      { numRuns: 2000 },
    );
  });

  it('a tag or an anchor before a flow collection in argument-hint stays part of the text', () => {
    for (const value of ['! {}', '!a []', '&x [file]', '!!str {a: 1}']) {
      const r = splitFrontmatter(`---\nname: stable\ndescription: d\nargument-hint: ${value}\n---\nb\n`);
      expect(r).toMatchObject({ ok: true, recovered: ['argument-hint'] });
      if (r.ok) expect((r.data as Record<string, unknown>)['argument-hint']).toBe(value);
    }
  });

  it('a name is never recovered: an invalid name stays a YAML error', () => {
    const r = splitFrontmatter('---\nname: [unclosed\ndescription: x\n---\nb\n');
    expect(r).toMatchObject({ ok: false, code: 'invalid-yaml' });
  });
});
