/** The CLI's version, shown by `--version`. */
export const VERSION = '0.0.0';
