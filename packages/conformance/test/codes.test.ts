import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// ADR 0200: every stable code a package produces is kebab-case, whatever package threw it.
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;
const PACKAGES = join(import.meta.dirname, '..', '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return /\.tsx?$/.test(entry.name) && !/\.test(-d)?\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

const files = readdirSync(PACKAGES).flatMap((pkg) => {
  try {
    return sources(join(PACKAGES, pkg, 'src')).map((path) => ({ path, text: readFileSync(path, 'utf8') }));
  } catch {
    return [];
  }
});
const where = (path: string) => relative(PACKAGES, path);

/** The string members of every exported `…Code` / `ErrorClass` union type. */
function codeUnions(): Map<string, string[]> {
  const unions = new Map<string, string[]>();
  for (const { path, text } of files) {
    for (const m of text.matchAll(/export type (\w*(?:Code|ErrorClass)) =([^;]*);/g)) {
      const members = [...(m[2] ?? '').matchAll(/'([^']*)'/g)].map((l) => l[1] ?? '');
      unions.set(`${where(path)}: ${m[1]}`, members);
    }
  }
  return unions;
}

/** The error classes whose first constructor argument is their code. */
const CODED =
  'AgentCoreError|ArtifactSchemaError|PermissionGateError|SkillError|ToolError|ProvidersError|RenderIntentError|McpAdapterError';

/** The literal code of every `new <Package>Error('…'` in the sources. */
function constructedCodes(): { at: string; code: string }[] {
  const found: { at: string; code: string }[] = [];
  for (const { path, text } of files) {
    for (const m of text.matchAll(new RegExp(`new (${CODED})\\(\\s*'([^']*)'`, 'g'))) {
      found.push({ at: `${where(path)}: ${m[1]}`, code: m[2] ?? '' });
    }
  }
  return found;
}

describe('stable codes are kebab-case in every package (ADR 0200)', () => {
  it('every exported code union', () => {
    const unions = codeUnions();
    // The scan must see the packages' error codes, or it proves nothing.
    for (const name of [
      'AgentCoreErrorCode',
      'ErrorClass',
      'ArtifactSchemaErrorCode',
      'PermissionGateErrorCode',
      'SkillErrorCode',
      'SkillWarningCode',
      'ToolErrorCode',
      'ProvidersErrorCode',
      'RenderIntentErrorCode',
      'PresenterIssueCode',
      'McpAdapterErrorCode',
    ]) {
      const hit = [...unions.entries()].find(([key]) => key.endsWith(`: ${name}`));
      expect(hit, name).toBeDefined();
      expect(hit?.[1].length, name).toBeGreaterThan(0);
    }
    const bad = [...unions].flatMap(([at, members]) =>
      members.filter((c) => !KEBAB.test(c)).map((c) => `${at} ${c}`),
    );
    expect(bad).toEqual([]);
  });

  it('every error constructed with a literal code', () => {
    const found = constructedCodes();
    expect(found.length).toBeGreaterThan(100);
    expect(found.filter((f) => !KEBAB.test(f.code)).map((f) => `${f.at}('${f.code}')`)).toEqual([]);
  });

  it('every code a conformance or package vector expects', () => {
    const vectors = readdirSync(PACKAGES).flatMap((pkg) =>
      ['src/vectors', 'vectors'].flatMap((dir) => {
        try {
          return readdirSync(join(PACKAGES, pkg, dir))
            .filter((f) => f.endsWith('.json'))
            .map((f) => join(PACKAGES, pkg, dir, f));
        } catch {
          return [];
        }
      }),
    );
    const codes = vectors.flatMap((path) =>
      [...readFileSync(path, 'utf8').matchAll(/"code":\s*"([^"]*)"/g)].map((m) => ({
        at: where(path),
        code: m[1] ?? '',
      })),
    );
    expect(codes.length).toBeGreaterThan(10);
    expect(codes.filter((c) => !KEBAB.test(c.code))).toEqual([]);
  });

  it('the rule itself: kebab-case, not the other two spellings', () => {
    for (const ok of ['invalid-session', 'not-utf8', 'stalled', 'invalid-version-option'])
      expect(ok).toMatch(KEBAB);
    for (const no of ['INVALID_SESSION', 'not_found', 'Invalid-x', 'a--b', '-a', 'a-', '', 'ENOENT']) {
      expect(no).not.toMatch(KEBAB);
    }
  });
});
