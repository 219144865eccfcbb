/** Package version placeholder until the package lands. */
export const placeholder = true;
