import { padEndToWidth, padStartToWidth, paint, truncateToWidth, visibleWidth } from './ansi.js';
import type { ResolvedRenderOptions } from './options.js';
import { safeInline } from './text.js';
import { isRecord } from '@codeagent/artifact-schema/internal';

const SEP = ' │ ';
const SEP_WIDTH = 3;
const MIN_COL = 3;
const MAX_COLUMNS = 500;
const NUMERIC_TYPES = new Set(['number', 'integer', 'int', 'double', 'float', 'numeric', 'bigint']);

interface Column {
  readonly key: string;
  readonly declaredType: string | undefined;
}

function columnsOf(payload: Record<string, unknown>, rows: readonly unknown[]): Column[] {
  const declared = payload.columns;
  if (Array.isArray(declared) && declared.length > 0) {
    const cols: Column[] = [];
    for (const c of declared) {
      if (isRecord(c) && typeof c.name === 'string') {
        cols.push({ key: c.name, declaredType: typeof c.type === 'string' ? c.type : undefined });
      } else if (typeof c === 'string') {
        cols.push({ key: c, declaredType: undefined });
      }
    }
    if (cols.length > 0) return cols.slice(0, MAX_COLUMNS);
  }
  const keys = new Set<string>();
  for (const row of rows) {
    if (isRecord(row)) for (const key of Object.keys(row)) keys.add(key);
    else keys.add('value');
    if (keys.size >= MAX_COLUMNS) break;
  }
  return [...keys].map((key) => ({ key, declaredType: undefined }));
}

function cellOf(row: unknown, key: string): unknown {
  if (isRecord(row)) return Object.hasOwn(row, key) ? row[key] : undefined;
  return key === 'value' ? row : undefined;
}

/** Shrinks natural column widths to fit `available` columns (water-filling: narrow columns keep their size). */
function fitWidths(natural: readonly number[], available: number): number[] {
  const total = natural.reduce((a, b) => a + b, 0);
  if (total <= available) return [...natural];
  const order = natural.map((w, i) => ({ w, i })).sort((a, b) => a.w - b.w);
  const widths = new Array<number>(natural.length).fill(0);
  let remaining = available;
  let left = natural.length;
  for (const { w, i } of order) {
    const share = Math.floor(remaining / left);
    const given = Math.max(Math.min(w, share), Math.min(w, 1));
    widths[i] = given;
    remaining -= given;
    left--;
  }
  return widths;
}

/**
 * Renders a `table` payload (`{df: rows[], columns?: [{name, type?}]}`) as aligned text within
 * `options.width`, or `null` when the payload is not a table.
 */
export function renderTableLines(payload: unknown, options: ResolvedRenderOptions): string[] | null {
  if (!isRecord(payload)) return null;
  const df = payload.df ?? [];
  if (!Array.isArray(df)) return null;
  const { color, width, maxTableRows } = options;
  const allColumns = columnsOf(payload, df);
  if (allColumns.length === 0) {
    return [
      paint(
        color,
        truncateToWidth(`(empty table: ${df.length} ${df.length === 1 ? 'row' : 'rows'})`, width),
        'dim',
      ),
    ];
  }
  const shownRows = df.slice(0, maxTableRows);
  const headers = allColumns.map((c) => safeInline(c.key, color));
  const cells = shownRows.map((row) => allColumns.map((c) => safeInline(cellOf(row, c.key), color)));
  const numeric = allColumns.map((c) => {
    if (c.declaredType !== undefined) return NUMERIC_TYPES.has(c.declaredType.toLowerCase());
    let seen = false;
    for (const row of shownRows) {
      const v = cellOf(row, c.key);
      if (v === null || v === undefined) continue;
      if (typeof v !== 'number') return false;
      seen = true;
    }
    return seen;
  });
  const natural = allColumns.map((_, j) =>
    Math.max(visibleWidth(headers[j] ?? ''), ...cells.map((r) => visibleWidth(r[j] ?? ''))),
  );

  // Keep as many leading columns as fit at their minimum width; the rest collapse into a `…` column.
  let kept = allColumns.length;
  const minWidth = (j: number): number => Math.min(natural[j] ?? 0, MIN_COL) || 1;
  const needed = (k: number): number => {
    let sum = 0;
    for (let j = 0; j < k; j++) sum += minWidth(j);
    const hidden = k < allColumns.length;
    return sum + SEP_WIDTH * (k - 1) + (hidden ? SEP_WIDTH + 1 : 0);
  };
  while (kept > 1 && needed(kept) > width) kept--;
  const hiddenColumns = allColumns.length - kept;
  const available = width - SEP_WIDTH * (kept - 1) - (hiddenColumns > 0 ? SEP_WIDTH + 1 : 0);
  const widths = fitWidths(natural.slice(0, kept), Math.max(1, available));

  const line = (parts: readonly string[], header: boolean): string => {
    const out: string[] = [];
    for (let j = 0; j < kept; j++) {
      const w = widths[j] ?? 1;
      const cell = truncateToWidth(parts[j] ?? '', w);
      const last = j === kept - 1 && hiddenColumns === 0;
      const padded = numeric[j] && !header ? padStartToWidth(cell, w) : last ? cell : padEndToWidth(cell, w);
      out.push(header ? paint(color, padded, 'bold') : padded);
    }
    if (hiddenColumns > 0) out.push(paint(color, '…', 'dim'));
    return out.join(paint(color, SEP, 'dim')).trimEnd();
  };
  const rule = widths
    .slice(0, kept)
    .map((w) => '─'.repeat(w))
    .concat(hiddenColumns > 0 ? ['─'] : [])
    .join('─┼─');

  const lines = [line(headers, true), paint(color, rule, 'dim'), ...cells.map((r) => line(r, false))];
  const notes = [
    `${df.length} ${df.length === 1 ? 'row' : 'rows'} × ${allColumns.length} ${allColumns.length === 1 ? 'column' : 'columns'}`,
  ];
  if (shownRows.length < df.length) notes.push(`first ${shownRows.length} shown`);
  if (hiddenColumns > 0) notes.push(`${hiddenColumns} hidden`);
  lines.push(paint(color, truncateToWidth(notes.join(', '), width), 'dim'));
  return lines;
}
