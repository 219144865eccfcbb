/**
 * The text a UI without terminal capability shows for terminal output: a `console` code fence
 * with trailing newlines (`\n` or `\r\n`) removed. The fence is three backticks, or one more than
 * the longest backtick run inside the output, so output containing fences cannot close it early.
 * Empty output still gives a fenced (empty) block.
 */
export function terminalFallbackText(output: string): string {
  const body = output.replace(/(?:\r?\n)+$/, '');
  let longest = 0;
  // Longest backtick run: indexOf skips quickly over text without backticks.
  for (let i = body.indexOf('`'); i !== -1; i = body.indexOf('`', i)) {
    let end = i + 1;
    while (body.charCodeAt(end) === 96) end++;
    longest = Math.max(longest, end - i);
    i = end;
  }
  const fence = '`'.repeat(Math.max(3, longest + 1));
  return `${fence}console\n${body}\n${fence}`;
}
