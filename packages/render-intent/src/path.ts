/**
 * Platform-neutral path helpers for titles and ACP locations. They work on strings only (no Node
 * built-ins) and understand POSIX paths (`/a/b`) and Windows paths (`C:\a`, `C:/a`, `\\server\share\a`).
 */

interface ParsedPath {
  /** `'/'` for POSIX, `C:` for a drive, `\\server\share` for UNC. */
  root: string;
  /** Whether the path is Windows-style (case-insensitive, `\` or `/` separators). */
  win: boolean;
  /** Normalised segments: no empty, `.` or `..` entries. */
  segs: string[];
  /** The separator to print with. */
  sep: '/' | '\\';
}

const DRIVE = /^[A-Za-z]:[\\/]/;
const UNC = /^[\\/]{2}([^\\/]+)[\\/]+([^\\/]+)/;

/** Whether `path` is absolute in POSIX (`/x`) or Windows (`C:\x`, `C:/x`, `\\server\share`) form. */
export function isAbsolutePath(path: string): boolean {
  return path.startsWith('/') || DRIVE.test(path) || path.startsWith('\\\\');
}

function normaliseSegments(parts: readonly string[], base: string[] = []): string[] {
  const out = base.slice();
  for (const part of parts) {
    if (part === '' || part === '.') continue;
    if (part === '..') out.pop();
    else out.push(part);
  }
  return out;
}

function parseAbsolute(path: string): ParsedPath | undefined {
  if (DRIVE.test(path)) {
    const sep = path[2] === '/' ? '/' : '\\';
    return { root: path.slice(0, 2), win: true, segs: normaliseSegments(path.slice(3).split(/[\\/]/)), sep };
  }
  if (path.startsWith('\\\\')) {
    const m = UNC.exec(path);
    if (!m) return undefined;
    const rest = path.slice(m[0].length);
    return {
      root: `\\\\${m[1]}\\${m[2]}`,
      win: true,
      segs: normaliseSegments(rest.split(/[\\/]/)),
      sep: '\\',
    };
  }
  if (path.startsWith('/'))
    return { root: '/', win: false, segs: normaliseSegments(path.split('/')), sep: '/' };
  return undefined;
}

function format(p: ParsedPath): string {
  if (!p.win) return `/${p.segs.join('/')}`;
  return `${p.root}${p.sep}${p.segs.join(p.sep)}`;
}

function resolveParsed(path: string, cwd: string | undefined): ParsedPath | undefined {
  const abs = parseAbsolute(path);
  if (abs) return abs;
  if (cwd === undefined) return undefined;
  const base = parseAbsolute(cwd);
  if (!base) return undefined;
  if (base.win) {
    // `\x` is relative to the drive root; `D:x` to drive D (taken as its root when it is not cwd's drive).
    if (/^[\\/]/.test(path)) return { ...base, segs: normaliseSegments(path.split(/[\\/]/)) };
    const drive = /^([A-Za-z]:)(.*)$/s.exec(path);
    if (drive) {
      const [, root = '', rest = ''] = drive;
      const same = root.toLowerCase() === base.root.toLowerCase();
      return { ...base, root, segs: normaliseSegments(rest.split(/[\\/]/), same ? base.segs : []) };
    }
    return { ...base, segs: normaliseSegments(path.split(/[\\/]/), base.segs) };
  }
  return { ...base, segs: normaliseSegments(path.split('/'), base.segs) };
}

/**
 * Resolves `path` against `cwd` and normalises `.` and `..` (never above the root). An absolute
 * `path` ignores `cwd`; a relative one with no absolute `cwd` comes back unchanged.
 */
export function resolvePath(path: string, cwd?: string): string {
  const p = resolveParsed(path, cwd);
  return p ? format(p) : path;
}

const same = (a: string, b: string, win: boolean): boolean =>
  win ? a.toLowerCase() === b.toLowerCase() : a === b;

/**
 * The path to show in a title: relative to `cwd` when it lies inside it (`.` for `cwd` itself),
 * the absolute normalised path otherwise. Inside means whole segments: `/a/bc` is not inside `/a/b`,
 * `/a/..cache/x` is inside `/a` (shown `..cache/x`). Without an absolute `cwd`, `path` is returned as is.
 */
export function displayPath(path: string, cwd?: string): string {
  if (cwd === undefined) return path;
  const base = parseAbsolute(cwd);
  const target = resolveParsed(path, cwd);
  if (!base || !target) return path;
  const inside =
    base.win === target.win &&
    same(base.root, target.root, base.win) &&
    target.segs.length >= base.segs.length &&
    base.segs.every((seg, i) => same(seg, target.segs[i] as string, base.win));
  if (!inside) return format(target);
  const rel = target.segs.slice(base.segs.length);
  if (rel.length === 0) return '.';
  const sep = base.win && !path.includes('\\') && path.includes('/') ? '/' : base.sep;
  return rel.join(sep);
}
