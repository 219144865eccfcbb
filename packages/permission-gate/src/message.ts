const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

function clean(s: string): string {
  return s.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** The denial text a denied tool call returns: `Permission denied for <name> (<reason>)`, control characters escaped. */
export function permissionDeniedMessage(name: string, reason: string): string {
  return `Permission denied for ${clean(String(name))} (${clean(String(reason))})`;
}
