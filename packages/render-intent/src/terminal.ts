/**
 * The text a UI without terminal capability shows for terminal output: a `console` code fence
 * with trailing newlines (`\n` or `\r\n`) removed. The fence is three backticks, or one more than
 * the longest backtick run inside the output, so output containing fences cannot close it early.
 * Empty output still gives a fenced (empty) block. Total: a terminal result's `output` is optional, so
 * `undefined`, `null` or any other non-string (from an untrusted session or a bridge) gives the empty block
 * instead of throwing.
 */
export function terminalFallbackText(input: string | null | undefined): string {
  // Checked at run time too: a restored session or a bridge in another language can hand anything over.
  const output: string = typeof input === 'string' ? input : '';
  // Trim trailing `\n` / `\r\n` by hand: the regex `/(?:\r?\n)+$/` is quadratic on many inner newlines.
  let end = output.length;
  while (end > 0 && output.charCodeAt(end - 1) === 10) end -= output.charCodeAt(end - 2) === 13 ? 2 : 1;
  const body = output.slice(0, end);
  let longest = 0;
  // Longest backtick run: indexOf skips quickly over text without backticks.
  for (let i = body.indexOf('`'); i !== -1; i = body.indexOf('`', i)) {
    let stop = i + 1;
    while (body.charCodeAt(stop) === 96) stop++;
    longest = Math.max(longest, stop - i);
    i = stop;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}console\n${body}\n${fence}`;
}
