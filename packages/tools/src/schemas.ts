import { z } from 'zod';

// The input schemas of the built-in tools, in one table the tool skeleton reads by name. The documented
// argument interfaces (ReadArgs...) must equal what these infer: the factories' signatures and a type test
// fail to compile on any drift.
const intent = z
  .string()
  .optional()
  .describe('Optional: one short sentence telling the user why you make this call.');

const ReadSchema = z.object({
  file_path: z.string().min(1).describe('The file to read: relative to the working directory, or absolute.'),
  offset: z.number().int().min(0).optional().describe('1-based line number to start reading at.'),
  limit: z.number().int().min(1).optional().describe('Number of lines to read (default 2000).'),
  _intent: intent,
});

const WriteSchema = z.object({
  file_path: z.string().min(1).describe('The file to create or overwrite.'),
  content: z.string().describe('The complete new content of the file.'),
  _intent: intent,
});

const EditSchema = z.object({
  file_path: z.string().min(1).describe('The file to edit.'),
  old_string: z
    .string()
    .describe('The exact text to replace, including whitespace; must occur exactly once unless replace_all.'),
  new_string: z.string().describe('The replacement text.'),
  replace_all: z.boolean().optional().describe('Replace every occurrence of old_string.'),
  _intent: intent,
});

const GlobSchema = z.object({
  pattern: z.string().min(1).describe('Glob such as "**/*.ts" or "src/**/*.{js,jsx}".'),
  path: z.string().optional().describe('Directory to search (default: the working directory).'),
  _intent: intent,
});

const GrepSchema = z.object({
  pattern: z.string().min(1).describe('JavaScript regular expression, matched against each line.'),
  path: z.string().optional().describe('File or directory to search (default: the working directory).'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.tsx".'),
  output_mode: z
    .enum(['content', 'files_with_matches', 'count'])
    .optional()
    .describe(
      'content (default): matching lines as path:line:text; files_with_matches: paths; count: path:count.',
    ),
  ignore_case: z.boolean().optional().describe('Case-insensitive matching.'),
  _intent: intent,
});

const BashSchema = z.object({
  command: z.string().min(1).describe('The command line, run with `bash -c` in the working directory.'),
  description: z.string().optional().describe('What the command does, in 5-10 words, for the user.'),
  timeout: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe('Timeout in milliseconds (default 120000, at most 600000).'),
  run_in_background: z
    .boolean()
    .optional()
    .describe(
      'Start as a background job and return at once; read it with job_output, stop it with job_kill.',
    ),
  _intent: intent,
});

const JobSchema = z.object({
  job_id: z.string().min(1).describe('The id Bash returned when it started the job, e.g. "job-1".'),
  _intent: intent,
});

const TodoSchema = z.object({
  todos: z
    .array(
      z.object({
        content: z.string().min(1).describe('What to do, imperative ("Run the tests").'),
        status: z.enum(['pending', 'in_progress', 'completed']),
        activeForm: z.string().optional().describe('Shown while in progress ("Running the tests").'),
      }),
    )
    .describe('The complete list; it replaces the previous one.'),
  _intent: intent,
});

/** The input schemas of the built-in tools (zod, with the optional `_intent`); job_output and job_kill share one. */
export const BUILTIN_INPUT_SCHEMAS = Object.freeze({
  Read: ReadSchema,
  Write: WriteSchema,
  Edit: EditSchema,
  Glob: GlobSchema,
  Grep: GrepSchema,
  Bash: BashSchema,
  TodoWrite: TodoSchema,
  job_output: JobSchema,
  job_kill: JobSchema,
});
