import {
  buildSkillHint,
  listSkillsMeta,
  loadSkillPrompt,
  parseSlashCommand,
  useSkillTool,
} from '@codeagent/skills';

/** What a host does at the start of a turn: report bad skills, build the system prompt, expand `/commands`. */
export async function prepareTurn(cwd: string, input: string) {
  const options = { cwd, dirs: ['vendor/skills'] }; // host directories are searched last and win by name

  const { skills, warnings } = await listSkillsMeta(options);
  for (const w of warnings)
    console.warn(`skill skipped=${w.skipped} ${w.file} ${w.field ?? ''}: ${w.reason}`);

  const hint = await buildSkillHint({ ...options, maxTokens: 800 });
  const system = `You are a coding agent.\n\n${hint}`;

  const command = parseSlashCommand(input); // '/review-pr 42 strict' -> {name: 'review-pr', args: '42 strict'}
  const prompt = command ? await loadSkillPrompt(command.name, { ...options, args: command.args }) : input;

  // Framework-neutral tool: agent-core (or any loop) registers it; the model calls it by name.
  const tools = [useSkillTool(options)];
  return { names: skills.map((s) => s.name), system, prompt, tools };
}
