/**
 * JSON text of a value without recursion, for the wire (a host's stdin, a browser page): `JSON.stringify` recurses
 * and gives up on deep payloads in a worker thread's small stack, although JSON itself has no depth limit, so a
 * 10,000-level case would be "not applicable" for no reason. Same output as `JSON.stringify` for plain data
 * (`undefined` members left out, `undefined` array items and non-finite numbers as `null`); throws on a cycle and
 * lets a throwing getter's error through: those cannot travel, and the caller reports them as in-process only.
 */
export function wireJson(value: unknown): string {
  const out: string[] = [];
  const open = new Set<object>();
  // Work items: a value to write, or a closing text (with the object it closes, to leave the cycle check).
  const work: ({ v: unknown } | { close: string; of: object } | { text: string })[] = [{ v: value }];
  for (let item = work.pop(); item !== undefined; item = work.pop()) {
    if ('text' in item) {
      out.push(item.text);
      continue;
    }
    if ('close' in item) {
      open.delete(item.of);
      out.push(item.close);
      continue;
    }
    const v = item.v;
    if (v === null || v === undefined || typeof v === 'function' || typeof v === 'symbol') out.push('null');
    else if (typeof v === 'number') out.push(Number.isFinite(v) ? String(v) : 'null');
    else if (typeof v === 'string' || typeof v === 'boolean') out.push(JSON.stringify(v));
    else if (typeof v === 'bigint') throw new TypeError('a bigint cannot be serialised as JSON');
    else {
      if (open.has(v)) throw new TypeError('a cycle cannot be serialised as JSON');
      open.add(v);
      const json = (v as { toJSON?: unknown }).toJSON;
      if (typeof json === 'function') {
        open.delete(v);
        work.push({ v: json.call(v) });
        continue;
      }
      const parts: ({ v: unknown } | { text: string })[] = [];
      if (Array.isArray(v)) {
        for (let i = 0; i < v.length; i++) {
          if (i > 0) parts.push({ text: ',' });
          parts.push({ v: v[i] });
        }
        out.push('[');
        work.push({ close: ']', of: v });
      } else {
        for (const key of Object.keys(v)) {
          const x = (v as Record<string, unknown>)[key];
          if (x === undefined || typeof x === 'function' || typeof x === 'symbol') continue;
          if (parts.length > 0) parts.push({ text: ',' });
          parts.push({ text: `${JSON.stringify(key)}:` }, { v: x });
        }
        out.push('{');
        work.push({ close: '}', of: v });
      }
      for (let i = parts.length - 1; i >= 0; i--) work.push(parts[i] as { v: unknown } | { text: string });
    }
  }
  return out.join('');
}
