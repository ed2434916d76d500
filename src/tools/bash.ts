// The Bash tool as the model and the permission check see it: its input, its description, which
// commands are read-only. Running a command (bash-command.ts: the sandbox, the process group,
// the output) loads with the first call.
import { z } from 'zod';
import { lazy } from '../core/lazy.js';
import { defineTool, type ToolContext, type ToolOutput } from '../core/tool.js';
import { checkReadOnlyCommand, isReadOnlyCommand } from './read-only-command.js';
import { TOOL_JSON_SCHEMAS } from './tool-json-schemas.js';

export const DEFAULT_TIMEOUT_MS = 120_000;
export const MAX_TIMEOUT_MS = 600_000;
export const MAX_OUTPUT_CHARS = 30_000;
/** Between SIGTERM and SIGKILL: time for a command to clean up after itself. */
export const KILL_GRACE_MS = 2_000;

export const bashInputSchema = lazy(() =>
  z.object({
    command: z.string().min(1).describe('The command to run, as you would type it in bash.'),
    timeout: z
      .number()
      .int()
      .positive()
      .max(MAX_TIMEOUT_MS)
      .optional()
      .describe(
        `Milliseconds after which the command is stopped (default ${DEFAULT_TIMEOUT_MS}, at most ${MAX_TIMEOUT_MS}).`,
      ),
  }),
);

export type BashInput = z.output<ReturnType<typeof bashInputSchema>>;

export const BASH_USAGE = [
  '- The command runs with `bash -c` in the working directory; each call starts a fresh shell, so `cd` and variables do not carry over to the next call. Quote paths that contain spaces.',
  `- It is stopped after ${DEFAULT_TIMEOUT_MS / 1000} s unless you pass timeout (up to ${MAX_TIMEOUT_MS / 1000} s).`,
  `- stdout and stderr come back together. Beyond ${MAX_OUTPUT_CHARS} characters the middle of the output is left out.`,
  '- A non-zero exit status makes the call an error; the result shows the exit code and the output.',
  '- Prefer the dedicated tools: Glob to find files, Grep to search contents, Read to read files, Edit and Write to change them.',
  '- Chain dependent commands with `&&`. Processes a command starts in the background (`cmd &`) are stopped when the command ends; all are stopped when the session ends.',
  '- Commands run in a sandbox: they may write only the working directory and the allowed folders (never .git/config, .git/hooks, .warren and other tool configuration), /tmp is private to each command, there is no network unless the user allowed it, and API keys are not in the environment. A command judged read-only may write nothing but /tmp.',
];

export const bashTool = defineTool({
  name: 'Bash',
  description: ['Runs a bash command and returns its output.', '', ...BASH_USAGE].join('\n'),
  get inputSchema() {
    return bashInputSchema();
  },
  jsonSchema: TOOL_JSON_SCHEMAS.Bash,
  isReadOnly: (input, scope) => isReadOnlyCommand(input.command, scope),
  notReadOnlyReason: (input, scope) => {
    const verdict = checkReadOnlyCommand(input.command, scope);
    return verdict.readOnly ? undefined : verdict.reason;
  },
  isConcurrencySafe: false,
  // The command's own timeout ends it first; this only bounds a call that fails to stop.
  timeoutMs: MAX_TIMEOUT_MS + 2 * KILL_GRACE_MS + 5_000,
  permissionSubject: (input) => input.command,
  call: (input, ctx) => runCommand(input, ctx, { readOnly: isReadOnlyCommand(input.command, ctx) }),
});

/** Bash for read-only agents: runs only commands `checkReadOnlyCommand` accepts. */
export const readOnlyBashTool = defineTool({
  name: 'Bash',
  description: [
    'Runs a read-only bash command and returns its output.',
    '',
    '- Only commands that change nothing and read only inside the allowed directories are allowed: ls, cat, head, tail, wc, grep, rg, find (without -exec or -delete), git status/log/diff/show/blame, and similar, joined with pipes or &&. Refused: output redirection to files, command substitution, $VARIABLES, braces, ~, unknown programs, environment readers (env, printenv), paths or symlinks leading outside, and link-following walks (grep -R, find -L) over trees with links leading outside. Quote literal braces and dollar signs.',
    ...BASH_USAGE,
  ].join('\n'),
  get inputSchema() {
    return bashInputSchema();
  },
  jsonSchema: TOOL_JSON_SCHEMAS.Bash,
  isReadOnly: true,
  isConcurrencySafe: true,
  timeoutMs: bashTool.timeoutMs,
  permissionSubject: (input) => input.command,
  async call(input, ctx) {
    const verdict = checkReadOnlyCommand(input.command, ctx);
    if (!verdict.readOnly) {
      return {
        output: `Refused: this agent may only run read-only commands, and this one is not: ${verdict.reason}. Use Read, Glob or Grep, or a read-only command inside the allowed directories; a command like this one needs an agent with the full Bash tool and permission to run it.`,
        isError: true,
      };
    }
    return runCommand(input, ctx, { readOnly: true });
  },
});

/** Runs the command: bash-command.ts, loaded with the first command. */
async function runCommand(
  input: BashInput,
  ctx: ToolContext,
  options: { readOnly: boolean },
): Promise<ToolOutput> {
  return (await import('./bash-command.js')).runCommand(input, ctx, options);
}
