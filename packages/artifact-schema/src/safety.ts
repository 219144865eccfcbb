/** Placeholder. */
export const placeholder = true;
