/** A JSON object read from untrusted data (any non-null, non-array object). */
export type Dict = Record<string, unknown>;

/** Whether `x` is a {@link Dict}: the package's one copy (a leaf cannot import the shared one, ADR 0201). */
export const isDict = (x: unknown): x is Dict => typeof x === 'object' && x !== null && !Array.isArray(x);
