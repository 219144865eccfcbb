#!/usr/bin/env node
// Surface guard: pins every published package's public surface (package.json `exports`, each entry's export names and
// kinds from the built .d.ts, literal unions such as stop reasons, modes and error codes, the key order of event types
// and discriminated unions, and the runtime value of every exported constant) in scripts/surface/<folder>.json.
//   node scripts/surface.mjs check    fails when a surface differs from its pin, or differs from the last released
//                                     pin while no changeset in .changeset/ names the package with a high enough
//                                     bump: a removed or changed export, literal, key order or constant needs major
//                                     (minor while the version is 0.x), an added one minor, no change patch
//   node scripts/surface.mjs update   rewrites the pins (run `pnpm surface:update`, which builds first)
// Options: --root <dir> (default: the repository), --quiet.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import ts from 'typescript';

const here = dirname(fileURLToPath(import.meta.url));
const { values, positionals } = parseArgs({
  options: { root: { type: 'string' }, quiet: { type: 'boolean', default: false } },
  allowPositionals: true,
});
const command = positionals[0] ?? 'check';
if (command !== 'check' && command !== 'update') {
  process.stderr.write('usage: node scripts/surface.mjs check|update [--root <dir>]\n');
  process.exit(2);
}
const root = resolve(values.root ?? join(here, '..'));
const pinDir = join(root, 'scripts', 'surface');
const say = (line) => values.quiet || process.stdout.write(`${line}\n`);

/** Published packages: packages/* whose package.json is not private. */
function packages() {
  const dir = join(root, 'packages');
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'package.json')))
    .map((d) => ({
      folder: d.name,
      dir: join(dir, d.name),
      pkg: readJson(join(dir, d.name, 'package.json')),
    }))
    .filter((p) => p.pkg.private !== true)
    .sort((a, b) => a.folder.localeCompare(b.folder));
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

/** The code entries of an exports map: subpath -> {types, js} (files relative to the package). */
function entries(pkg) {
  const out = {};
  for (const [subpath, target] of Object.entries(pkg.exports ?? {})) {
    if (typeof target !== 'object' || target === null) continue;
    if (typeof target.types === 'string')
      out[subpath] = { types: target.types, js: target.import ?? target.default };
  }
  return out;
}

const PREFERRED_TAGS = ['type', 'card', 'kind', 'sessionUpdate', 'op'];

function literalValue(t) {
  if (t.isStringLiteral() || t.isNumberLiteral()) return t.value;
  if (t.flags & ts.TypeFlags.BooleanLiteral) return t.intrinsicName === 'true';
  if (t.flags & ts.TypeFlags.Null) return null;
  return undefined;
}

/** The TypeScript-level surface of each entry: names and kinds, literal unions, key orders. */
function typeSurfaces(list) {
  const files = [];
  for (const p of list)
    for (const e of Object.values(entries(p.pkg))) {
      const file = join(p.dir, e.types);
      if (!existsSync(file)) throw new Error(`${relative(root, file)} is missing: build first (pnpm build)`);
      files.push(file);
    }
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2023,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
    types: [],
  });
  const checker = program.getTypeChecker();
  const kindsOf = (symbol) => {
    const typeOnly = symbol.declarations?.some(
      (d) => ts.isExportSpecifier(d) && (d.isTypeOnly || d.parent.parent.isTypeOnly),
    );
    const target = symbol.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(symbol) : symbol;
    const f = target.flags;
    const kinds = [];
    if (f & ts.SymbolFlags.Function) kinds.push('function');
    if (f & ts.SymbolFlags.Class) kinds.push('class');
    if (f & ts.SymbolFlags.Interface) kinds.push('interface');
    if (f & ts.SymbolFlags.TypeAlias) kinds.push('type');
    if (f & ts.SymbolFlags.Enum) kinds.push('enum');
    if (f & ts.SymbolFlags.Variable) {
      const decl = target.valueDeclaration;
      const isConst = decl && ts.getCombinedNodeFlags(decl) & ts.NodeFlags.Const;
      kinds.push(isConst ? 'const' : 'let');
    }
    if (f & ts.SymbolFlags.Module) kinds.push('namespace');
    return { target, kind: `${typeOnly ? 'type-only ' : ''}${kinds.join('+') || 'unknown'}` };
  };
  const propertyNames = (t) => checker.getPropertiesOfType(t).map((p) => p.name);
  const surfaces = new Map();
  for (const file of files) {
    const source = program.getSourceFile(file);
    const moduleSymbol = source && checker.getSymbolAtLocation(source);
    const names = {};
    const unions = {};
    const keyOrders = {};
    for (const symbol of moduleSymbol ? checker.getExportsOfModule(moduleSymbol) : []) {
      const { target, kind } = kindsOf(symbol);
      names[symbol.name] = kind;
      if (!(target.flags & (ts.SymbolFlags.TypeAlias | ts.SymbolFlags.Interface))) continue;
      const type = checker.getDeclaredTypeOfSymbol(target);
      const members = type.isUnion() ? type.types : [type];
      const literals = members.map(literalValue);
      if (literals.some((v) => v !== undefined)) {
        // Union order is the compiler's, not the source's: pin the set.
        const known = literals
          .filter((v) => v !== undefined)
          .sort((a, b) => String(a).localeCompare(String(b)));
        unions[symbol.name] = literals.includes(undefined) ? { open: true, known } : known;
        continue;
      }
      if (type.isUnion() && members.every((m) => m.flags & ts.TypeFlags.Object)) {
        const tag = PREFERRED_TAGS.find((name) =>
          members.every((m) => {
            const p = m.getProperty(name);
            return p && literalValue(checker.getTypeOfSymbol(p)) !== undefined;
          }),
        );
        if (tag) {
          const byTag = {};
          for (const m of members)
            byTag[String(literalValue(checker.getTypeOfSymbol(m.getProperty(tag))))] = propertyNames(m);
          keyOrders[symbol.name] = { tag, members: byTag };
          continue;
        }
      }
      if (/Events?$/.test(symbol.name) && type.flags & ts.TypeFlags.Object)
        keyOrders[symbol.name] = propertyNames(type);
    }
    surfaces.set(file, { names: sortKeys(names), unions: sortKeys(unions), keyOrders: sortKeys(keyOrders) });
  }
  return surfaces;
}

function sortKeys(o) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

const BIG = 2000;

/** A JSON picture of a runtime value: data as it is, functions and instances by name; big values by digest. */
function picture(value, depth = 0, seen = new Set()) {
  // A path inside the checkout (a corpus file's location) is pinned relative to it, the same on every machine.
  if (typeof value === 'string') return value.split(root).join('<repo>');
  if (value === null || ['number', 'boolean'].includes(typeof value)) return value;
  if (typeof value === 'function') return `[function ${value.name}]`;
  if (typeof value !== 'object') return `[${typeof value}]`;
  if (seen.has(value) || depth > 8) return '[…]';
  seen.add(value);
  const proto = Object.getPrototypeOf(value);
  let out;
  if (Array.isArray(value)) out = value.map((v) => picture(v, depth + 1, seen));
  else if (proto === Object.prototype || proto === null)
    out = Object.fromEntries(Object.keys(value).map((k) => [k, picture(value[k], depth + 1, seen)]));
  else out = `[${proto?.constructor?.name ?? 'object'}]`;
  seen.delete(value);
  if (depth === 0 && typeof out === 'object') {
    const text = JSON.stringify(out);
    if (text.length > BIG)
      return { sha256: createHash('sha256').update(text).digest('hex').slice(0, 16), length: text.length };
  }
  return out;
}

/** The runtime constants of an entry: every export that is not a function or class. */
async function constants(file) {
  const mod = await import(pathToFileURL(file).href);
  const out = {};
  for (const name of Object.keys(mod).sort()) {
    if (typeof mod[name] === 'function') continue;
    out[name] = picture(mod[name]);
  }
  return out;
}

async function surfaceOf(p, types) {
  const out = { exports: p.pkg.exports ?? null, entries: {} };
  for (const [subpath, e] of Object.entries(entries(p.pkg))) {
    const t = types.get(join(p.dir, e.types));
    out.entries[subpath] = {
      ...t,
      constants: e.js && existsSync(join(p.dir, e.js)) ? await constants(join(p.dir, e.js)) : {},
    };
  }
  return out;
}

const digest = (surface) => createHash('sha256').update(JSON.stringify(surface)).digest('hex').slice(0, 16);

/** Flattens a surface to `path: value` lines, for a readable difference. */
function flatten(value, path = '', out = new Map()) {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value)) flatten(v, path ? `${path} › ${k}` : k, out);
  } else out.set(path, JSON.stringify(value));
  return out;
}

function difference(before, after) {
  const a = flatten(before);
  const b = flatten(after);
  const lines = [];
  for (const [k, v] of a) if (!b.has(k)) lines.push(`  - ${k}: ${v}`);
  for (const [k, v] of b) if (!a.has(k)) lines.push(`  + ${k}: ${v}`);
  for (const [k, v] of b) if (a.has(k) && a.get(k) !== v) lines.push(`  ~ ${k}: ${a.get(k)} -> ${v}`);
  return lines.length > 30 ? [...lines.slice(0, 30), `  … ${lines.length - 30} more`] : lines;
}

const LEVELS = ['patch', 'minor', 'major'];

/** The bump each pending changeset in .changeset/ gives each package it names: package -> {level, files}. */
function changesetBumps() {
  const dir = join(root, '.changeset');
  const bumps = new Map();
  if (!existsSync(dir)) return bumps;
  for (const f of readdirSync(dir).sort()) {
    if (!f.endsWith('.md') || f === 'README.md') continue;
    const front = /^---\r?\n([\s\S]*?)\r?\n---/.exec(readFileSync(join(dir, f), 'utf8'));
    for (const line of front?.[1].split(/\r?\n/) ?? []) {
      const m = /^\s*["']?(@?[^"':\s]+)["']?\s*:\s*(major|minor|patch)\s*$/.exec(line);
      if (!m) continue;
      const had = bumps.get(m[1]);
      const level = had && LEVELS.indexOf(had.level) > LEVELS.indexOf(m[2]) ? had.level : m[2];
      bumps.set(m[1], { level, files: [...(had?.files ?? []), f] });
    }
  }
  return bumps;
}

/**
 * How a surface changed since the released one: `breaking` lines (an export, entry, literal, key order or constant
 * removed or changed, a closed union widened: hosts switch over them) and `additions` (a new export, entry, constant,
 * key order, or a new known member of an open union).
 */
function classify(before, after) {
  const a = flatten(before);
  const b = flatten(after);
  const breaking = [];
  const additions = [];
  for (const [k, v] of a) if (!b.has(k)) breaking.push(`  - ${k}: ${v}`);
  for (const [k, v] of b) if (!a.has(k)) additions.push(`  + ${k}: ${v}`);
  for (const [k, v] of b) {
    if (!a.has(k) || a.get(k) === v) continue;
    const line = `  ~ ${k}: ${a.get(k)} -> ${v}`;
    // An open union (`{open, known}`) that only learnt new members: an addition.
    const was = JSON.parse(a.get(k));
    const now = JSON.parse(v);
    const widened =
      / › unions › [^›]+ › known$/.test(k) &&
      Array.isArray(was) &&
      Array.isArray(now) &&
      was.every((x) => now.includes(x));
    (widened ? additions : breaking).push(line);
  }
  return { breaking, additions };
}

/** The bump a change needs: breaking -> major (minor while 0.x), addition -> minor, nothing -> patch. */
function bumpNeeded(change, version) {
  const zero = /^0\./.test(version);
  if (change.breaking.length > 0) return zero ? 'minor' : 'major';
  if (change.additions.length > 0) return 'minor';
  return 'patch';
}

/** A pin's released surface: kept in the pin, the pinned surface itself, or found in the pin's git history. */
function releasedSurface(pin, folder) {
  if (pin.releasedSurface !== undefined) return pin.releasedSurface;
  if (digest(pin.surface) === pin.released) return pin.surface;
  const file = `scripts/surface/${folder}.json`;
  try {
    const git = (...args) => execFileSync('git', ['-C', root, ...args], { encoding: 'utf8', stdio: 'pipe' });
    for (const commit of git('log', '--format=%H', '--', file).split('\n').filter(Boolean)) {
      let old;
      try {
        old = JSON.parse(git('show', `${commit}:${file}`));
      } catch {
        continue;
      }
      if (old.version === pin.version && digest(old.surface) === pin.released) return old.surface;
    }
  } catch {
    // No git, or a shallow history: the released surface is unknown.
  }
  return undefined;
}

const list = packages();
const types = typeSurfaces(list);
const pins = new Map(
  existsSync(pinDir)
    ? readdirSync(pinDir)
        .filter((f) => f.endsWith('.json'))
        .map((f) => [f.slice(0, -5), readJson(join(pinDir, f))])
    : [],
);

if (command === 'update') {
  mkdirSync(pinDir, { recursive: true });
  const written = [];
  for (const p of list) {
    const surface = await surfaceOf(p, types);
    const old = pins.get(p.folder);
    // A release (changeset version) bumped the version since the last pin: the pinned surface is what was released.
    const released =
      old === undefined
        ? digest(surface)
        : old.version === p.pkg.version
          ? old.released
          : digest(old.surface);
    // Keep the released surface itself while the pin differs from it: the bump a changeset needs is judged on it.
    const before =
      old === undefined
        ? undefined
        : old.version === p.pkg.version
          ? releasedSurface(old, p.folder)
          : old.surface;
    const pin = {
      package: p.pkg.name,
      version: p.pkg.version,
      released,
      surface,
      ...(digest(surface) !== released && before !== undefined ? { releasedSurface: before } : {}),
    };
    const file = join(pinDir, `${p.folder}.json`);
    writeFileSync(file, `${JSON.stringify(pin, null, 2)}\n`);
    written.push(file);
    if (old === undefined) say(`surface: pinned ${p.pkg.name}`);
    else if (digest(old.surface) !== digest(surface)) say(`surface: updated the pin of ${p.pkg.name}`);
  }
  for (const folder of pins.keys())
    if (!list.some((p) => p.folder === folder)) {
      rmSync(join(pinDir, `${folder}.json`));
      say(`surface: removed the pin of ${folder} (no such published package)`);
    }
  // The pins are checked-in JSON: keep them in the formatter's style.
  const biome = join(root, 'node_modules', '.bin', 'biome');
  if (existsSync(biome))
    execFileSync(biome, ['format', '--write', ...written], { cwd: root, stdio: 'ignore' });
  const pending = changesetBumps();
  for (const p of list) {
    const pin = readJson(join(pinDir, `${p.folder}.json`));
    if (digest(pin.surface) === pin.released) continue;
    const before = releasedSurface(pin, p.folder);
    const needed = before === undefined ? 'patch' : bumpNeeded(classify(before, pin.surface), pin.version);
    const have = pending.get(p.pkg.name)?.level;
    if (have === undefined || LEVELS.indexOf(have) < LEVELS.indexOf(needed))
      say(
        `surface: ${p.pkg.name} differs from its last release: it needs a \`${needed}\` changeset (pnpm changeset)`,
      );
  }
  process.exit(0);
}

const problems = [];
const pending = changesetBumps();
for (const p of list) {
  const pin = pins.get(p.folder);
  if (pin === undefined) {
    problems.push(
      `${p.pkg.name} has no surface pin: run \`pnpm surface:update\` and commit scripts/surface/${p.folder}.json`,
    );
    continue;
  }
  const surface = await surfaceOf(p, types);
  if (digest(surface) !== digest(pin.surface)) {
    const before = pin.version === p.pkg.version ? releasedSurface(pin, p.folder) : pin.surface;
    const needed = before === undefined ? undefined : bumpNeeded(classify(before, surface), p.pkg.version);
    problems.push(
      [
        `${p.pkg.name}: the public surface differs from its pin (scripts/surface/${p.folder}.json):`,
        ...difference(pin.surface, surface),
        `  run \`pnpm surface:update\`, and add a changeset for ${p.pkg.name} (pnpm changeset) if there is none` +
          (needed === undefined ? '' : ` (it needs at least \`${needed}\` since the last release)`),
      ].join('\n'),
    );
    continue;
  }
  // A release (changeset version) moved the version since the pin: the pinned surface is the released one.
  if (pin.version !== p.pkg.version) continue;
  if (digest(pin.surface) === pin.released) continue;
  const have = pending.get(p.pkg.name);
  if (have === undefined) {
    problems.push(
      `${p.pkg.name}: the public surface changed since its last release (${pin.version}) but no changeset in .changeset/ names ${p.pkg.name}: add one (pnpm changeset)`,
    );
    continue;
  }
  const before = releasedSurface(pin, p.folder);
  if (before === undefined) continue; // The released surface is unknown: any changeset that names it will do.
  const change = classify(before, pin.surface);
  const needed = bumpNeeded(change, pin.version);
  if (LEVELS.indexOf(have.level) >= LEVELS.indexOf(needed)) continue;
  const what =
    change.breaking.length > 0
      ? `removes or changes exports or literals${/^0\./.test(pin.version) ? ' (0.x: a breaking change bumps the minor)' : ''}`
      : 'adds exports';
  const shown = change.breaking.length > 0 ? change.breaking : change.additions;
  problems.push(
    [
      `${p.pkg.name}: the public surface pinned in scripts/surface/${p.folder}.json ${what} since its last release (${pin.version}): it needs a \`${needed}\` changeset, but .changeset/ gives it \`${have.level}\` (${have.files.join(', ')}):`,
      ...(shown.length > 10 ? [...shown.slice(0, 10), `  … ${shown.length - 10} more`] : shown),
      `  raise the bump in a changeset that names ${p.pkg.name} to \`${needed}\``,
    ].join('\n'),
  );
}
for (const folder of pins.keys())
  if (!list.some((p) => p.folder === folder))
    problems.push(`scripts/surface/${folder}.json pins no published package: run \`pnpm surface:update\``);

if (problems.length > 0) {
  process.stderr.write(`surface guard: FAILED\n${problems.join('\n')}\n`);
  process.exit(1);
}
say(`surface guard: OK (${list.length} packages match their pins)`);
