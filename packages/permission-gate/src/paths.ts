/** Result of normalising a file path for rule matching. */
export interface NormalisedPath {
  /** The normalised path (`/` separators, no `.` or resolvable `..` segments). */
  readonly path: string;
  /** True for an absolute path (`/x` or `C:/x`). */
  readonly absolute: boolean;
  /** True when a relative path climbs above its starting point (`../x`, `a/../../x`). */
  readonly escapes: boolean;
}

const DRIVE = /^[A-Za-z]:$/;
/** Anything that normalisation would change: backslashes, empty, `.` or `..` segments, a drive letter. */
const NEEDS_WORK = /\\|\/\/|(?:^|\/)\.\.?(?:\/|$)|\/$|^[A-Za-z]:/;

/** Normalises a path lexically: `\` becomes `/`, `.` segments go, `..` pops (never above `/`). */
export function normalisePath(raw: string): NormalisedPath {
  if (raw !== '' && !NEEDS_WORK.test(raw))
    return { path: raw, absolute: raw.startsWith('/'), escapes: false };
  const p = raw.replace(/\\/g, '/');
  const parts = p.split('/');
  let prefix = '';
  let absolute = false;
  if (p.startsWith('/')) {
    absolute = true;
    prefix = '/';
    parts.shift();
  } else if (parts.length > 1 && DRIVE.test(parts[0] as string)) {
    absolute = true;
    prefix = `${(parts[0] as string).toUpperCase()}/`;
    parts.shift();
  }
  const stack: string[] = [];
  let escapes = false;
  for (const seg of parts) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (stack.length > 0 && stack[stack.length - 1] !== '..') stack.pop();
      else if (!absolute) {
        stack.push('..');
        escapes = true;
      }
      continue;
    }
    stack.push(seg);
  }
  // A relative path that collapses to a drive-like first segment (`a/../c:/x`) is ambiguous: treat it as escaping.
  if (!absolute && stack.length > 0 && DRIVE.test(stack[0] as string)) escapes = true;
  const body = stack.join('/');
  return { path: absolute ? prefix + body : body === '' ? '.' : body, absolute, escapes };
}

/**
 * The forms of a path an allow rule may match: cwd-relative and absolute, both normalised.
 * Returns an empty list when the path must never match an allow rule (escapes, NUL byte).
 */
export function allowCandidates(raw: string, cwd: NormalisedPath | undefined): string[] {
  if (raw.includes('\u0000') || raw === '') return [];
  const n = normalisePath(raw);
  if (n.escapes) return [];
  if (!n.absolute) {
    const out = [n.path];
    if (cwd) out.push(cwd.path === '/' ? `/${n.path}` : `${cwd.path}/${n.path}`);
    return out;
  }
  const out = [n.path];
  if (cwd) {
    const rel = relativeTo(n.path, cwd.path);
    if (rel !== undefined) out.push(rel);
  }
  return out;
}

/** Every form of a path a deny or ask rule may match: raw, normalised, and cwd-relative/absolute. */
export function restrictCandidates(raw: string, cwd: NormalisedPath | undefined): string[] {
  const n = normalisePath(raw);
  const out = [raw];
  const add = (s: string) => {
    if (!out.includes(s)) out.push(s);
  };
  add(raw.replace(/\\/g, '/'));
  add(n.path);
  if (cwd) {
    if (n.absolute) {
      const rel = relativeTo(n.path, cwd.path);
      if (rel !== undefined) add(rel);
    } else {
      add(normalisePath(`${cwd.path}/${n.path}`).path);
    }
  }
  return out;
}

function relativeTo(abs: string, base: string): string | undefined {
  if (abs === base) return '.';
  const withSlash = base.endsWith('/') ? base : `${base}/`;
  return abs.startsWith(withSlash) ? abs.slice(withSlash.length) : undefined;
}
