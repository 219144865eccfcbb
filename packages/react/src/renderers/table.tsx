import { useVirtualizer } from '@tanstack/react-virtual';
import { type ReactNode, useCallback, useMemo, useRef, useState } from 'react';
import type { ArtifactRendererProps } from '../registry.js';
import { displayJson, inlineText, isDict, read } from '../text.js';
import { v1Payload } from './payload.js';

/** Above this many rows the table body is virtualised (only the visible rows are in the DOM). */
export const VIRTUALIZE_ROWS = 200;
/** Most columns shown; the rest are summarised (a hostile table cannot freeze the page). */
const MAX_COLUMNS = 100;
/** Most characters shown in one cell. */
const MAX_CELL_CHARS = 2000;
const ROW_HEIGHT = 28;

type Direction = 'asc' | 'desc';

/** Column names: the declared `columns` order, else the keys of the rows in first-seen order. */
function columnNames(rows: readonly unknown[], columns: unknown): string[] {
  const names: string[] = [];
  const seen = new Set<string>();
  const add = (name: string): void => {
    if (!seen.has(name)) {
      seen.add(name);
      names.push(name);
    }
  };
  if (Array.isArray(columns)) {
    for (const column of columns) {
      const name = read(column, 'name');
      if (typeof name === 'string') add(name);
    }
  }
  if (names.length === 0) {
    for (const row of rows.slice(0, 1000)) if (isDict(row)) for (const key of Object.keys(row)) add(key);
  }
  return names;
}

function cellText(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : displayJson(value);
  const line = inlineText(text);
  return line.length > MAX_CELL_CHARS ? `${line.slice(0, MAX_CELL_CHARS)}…` : line;
}

/** Sort order: empty cells last, numbers numerically, booleans, then text in locale order. */
function compare(a: unknown, b: unknown): number {
  const empty = (x: unknown): boolean => x === undefined || x === null || x === '';
  if (empty(a) || empty(b)) return empty(a) === empty(b) ? 0 : empty(a) ? 1 : -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  return cellText(a).localeCompare(cellText(b), undefined, { numeric: true });
}

/** Props of {@link DataTable}. */
export interface DataTableProps {
  /** Row records; untrusted. */
  rows: readonly unknown[];
  /** Declared columns (`[{name, type?}]`); untrusted. */
  columns?: unknown;
}

/** Sets a pixel height through the CSSOM (allowed by a CSP without `'unsafe-inline'`, unlike `style` markup). */
function useHeight(height: number): (el: HTMLElement | null) => void {
  return useCallback(
    (el: HTMLElement | null) => {
      if (el !== null) el.style.height = `${height}px`;
    },
    [height],
  );
}

function SpacerRow({ height, span }: { height: number; span: number }): ReactNode {
  const ref = useHeight(height);
  if (height <= 0) return null;
  return (
    <tr className="ca-table-spacer" ref={ref}>
      <td colSpan={span} />
    </tr>
  );
}

/** A sortable table of row records; past {@link VIRTUALIZE_ROWS} rows only the visible ones are rendered. */
export function DataTable({ rows, columns }: DataTableProps): ReactNode {
  const allNames = useMemo(() => columnNames(rows, columns), [rows, columns]);
  const names = allNames.slice(0, MAX_COLUMNS);
  const [sort, setSort] = useState<{ column: number; direction: Direction } | null>(null);
  const order = useMemo(() => {
    const indices = rows.map((_, i) => i);
    if (sort === null) return indices;
    const name = names[sort.column] as string;
    const sign = sort.direction === 'asc' ? 1 : -1;
    return indices.sort((x, y) => sign * compare(read(rows[x], name), read(rows[y], name)) || x - y);
  }, [rows, names, sort]);
  const virtual = rows.length > VIRTUALIZE_ROWS;
  const scrollRef = useRef<HTMLDivElement | null>(null);
  const virtualizer = useVirtualizer({
    count: virtual ? order.length : 0,
    // A small table never observes its scroller (no forced layout each time a card with a table mounts).
    enabled: virtual,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 10,
    initialRect: { width: 800, height: 420 },
  });
  const items = virtual ? virtualizer.getVirtualItems() : [];
  const visible = virtual ? items.map((item) => item.index) : order.map((_, i) => i);
  const top = virtual ? (items[0]?.start ?? 0) : 0;
  const bottom = virtual ? virtualizer.getTotalSize() - (items[items.length - 1]?.end ?? 0) : 0;
  const toggle = (column: number): void =>
    setSort((s) =>
      s === null || s.column !== column
        ? { column, direction: 'asc' }
        : s.direction === 'asc'
          ? { column, direction: 'desc' }
          : null,
    );
  const span = Math.max(1, names.length);
  return (
    <div className="ca-table" data-rows={rows.length} data-virtual={virtual ? 'true' : 'false'}>
      <div className="ca-table-scroll" ref={scrollRef}>
        <table>
          <thead>
            <tr>
              {names.map((name, i) => {
                const direction = sort?.column === i ? sort.direction : undefined;
                return (
                  <th
                    // biome-ignore lint/suspicious/noArrayIndexKey: column names may repeat after cleaning
                    key={i}
                    scope="col"
                    aria-sort={
                      direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'
                    }
                  >
                    <button type="button" className="ca-table-sort" onClick={() => toggle(i)}>
                      {inlineText(name)}
                      <span className="ca-table-arrow" aria-hidden="true">
                        {direction === 'asc' ? ' ▲' : direction === 'desc' ? ' ▼' : ''}
                      </span>
                    </button>
                  </th>
                );
              })}
            </tr>
          </thead>
          <tbody>
            <SpacerRow height={top} span={span} />
            {visible.map((position) => {
              const index = order[position] as number;
              const row = rows[index];
              return (
                <tr key={index} data-index={position}>
                  {names.map((name, i) => (
                    // biome-ignore lint/suspicious/noArrayIndexKey: cells are positional
                    <td key={i}>{cellText(read(row, name))}</td>
                  ))}
                </tr>
              );
            })}
            <SpacerRow height={bottom} span={span} />
          </tbody>
        </table>
      </div>
      <div className="ca-table-footer">
        {rows.length} {rows.length === 1 ? 'row' : 'rows'}
        {allNames.length > MAX_COLUMNS ? `, ${allNames.length - MAX_COLUMNS} more columns not shown` : ''}
      </div>
    </div>
  );
}

/** `table` artifacts: `df` row records with optional `columns`; sortable, virtualised when long. */
export function TableRenderer({ artifact, fallback }: ArtifactRendererProps): ReactNode {
  const payload = v1Payload(artifact);
  const rows = read(payload, 'df');
  if (!Array.isArray(rows)) return fallback;
  return <DataTable rows={rows} columns={read(payload, 'columns')} />;
}
