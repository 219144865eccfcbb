/**
 * The text a UI without terminal capability shows for terminal output: a `console` code fence
 * with trailing newlines (`\n` or `\r\n`) removed. The fence is three backticks, or one more than
 * the longest backtick run inside the output, so output containing fences cannot close it early.
 * Empty output still gives a fenced (empty) block.
 */
export function terminalFallbackText(output: string): string {
  const body = output.replace(/(?:\r?\n)+$/, '');
  let longest = 0;
  for (const run of body.matchAll(/`+/g)) longest = Math.max(longest, run[0].length);
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}console\n${body}\n${fence}`;
}
