import {
  buildSkillHint,
  listSkillsMeta,
  loadSkillPrompt,
  parseSlashCommand,
  useSkillTool,
} from '@codeagent/skills';

/** What a host does at the start of a turn: report bad skills, build the system prompt, expand `/commands`. */
export async function prepareTurn(cwd: string, input: string) {
  const { skills, warnings } = await listSkillsMeta({ cwd, dirs: ['vendor/skills'] });
  for (const w of warnings)
    console.warn(`skill skipped=${w.skipped} ${w.file} ${w.field ?? ''}: ${w.reason}`);

  const hint = await buildSkillHint({ cwd, dirs: ['vendor/skills'], maxTokens: 800 });
  const system = `You are a coding agent.\n\n${hint}`;

  const command = parseSlashCommand(input);
  const prompt = command
    ? await loadSkillPrompt(command.name, { cwd, dirs: ['vendor/skills'], args: command.args })
    : input;

  // Framework-neutral tool: agent-core (or any loop) registers it; the model calls it by name.
  const tools = [useSkillTool({ cwd, dirs: ['vendor/skills'] })];
  return { names: skills.map((s) => s.name), system, prompt, tools };
}
