/** Adds two numbers. */
export function add(a: number, b: number): number {
  return a + b;
}

// TODO: handle overflow for very large inputs.
export function sum(values: readonly number[]): number {
  return values.reduce(add, 0);
}
