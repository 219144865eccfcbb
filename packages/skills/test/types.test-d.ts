import { describe, expectTypeOf, it } from 'vitest';
import {
  isSkillError,
  listSkillsMeta,
  loadSkillPrompt,
  parseSlashCommand,
  type SkillError,
  type SkillErrorCode,
  type SkillList,
  type SkillMeta,
  type SkillSourceKind,
  type SkillWarning,
  type SkillWarningCode,
  type SlashCommand,
  useSkillTool,
} from '../src/index.js';

describe('public types', () => {
  it('closed unions stay closed', () => {
    expectTypeOf<SkillSourceKind>().toEqualTypeOf<'user' | 'project' | 'host'>();
    expectTypeOf<SkillErrorCode>().toEqualTypeOf<
      'skill-not-found' | 'skill-unreadable' | 'invalid-tool-input'
    >();
    expectTypeOf<SkillWarning['code']>().toEqualTypeOf<SkillWarningCode>();
    expectTypeOf<'too-large'>().toMatchTypeOf<SkillWarningCode>();
    // @ts-expect-error an unknown warning code is not assignable
    const bad: SkillWarningCode = 'whatever';
    void bad;
  });

  it('function signatures', () => {
    expectTypeOf(listSkillsMeta).returns.toEqualTypeOf<Promise<SkillList>>();
    expectTypeOf(loadSkillPrompt).returns.toEqualTypeOf<Promise<string>>();
    expectTypeOf(parseSlashCommand).returns.toEqualTypeOf<SlashCommand | null>();
    expectTypeOf<SkillList['skills']>().toEqualTypeOf<readonly SkillMeta[]>();
    // @ts-expect-error cwd is required
    void listSkillsMeta({});
  });

  it('optional frontmatter fields are optional, required ones are not', () => {
    expectTypeOf<SkillMeta['name']>().toEqualTypeOf<string>();
    expectTypeOf<SkillMeta['autoTrigger']>().toEqualTypeOf<boolean>();
    expectTypeOf<SkillMeta['argumentHint']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<SkillMeta['allowedTools']>().toEqualTypeOf<readonly string[] | undefined>();
  });

  it('isSkillError narrows', () => {
    const e: unknown = null;
    if (isSkillError(e, 'skill-not-found')) {
      expectTypeOf(e).toEqualTypeOf<SkillError>();
      expectTypeOf(e.available).toEqualTypeOf<readonly string[]>();
    }
  });

  it('use_skill tool is framework neutral', () => {
    const tool = useSkillTool({ cwd: '.' });
    expectTypeOf(tool.name).toEqualTypeOf<'use_skill'>();
    expectTypeOf(tool.capability).toEqualTypeOf<'read'>();
    expectTypeOf(tool.execute).parameters.toEqualTypeOf<[unknown]>();
    expectTypeOf(tool.inputSchema.required).toEqualTypeOf<readonly ['name']>();
  });
});
