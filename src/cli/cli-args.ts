// The command line as typed, checked flag by flag. Every mistake becomes a ConfigError that
// names the flag and the fix; nothing here touches the file system or the network.

import { parseArgs } from 'node:util';
import { ConfigError } from '../core/config-error.js';
import { messageOf } from '../core/error-message.js';
import { RUN_KNOBS } from '../core/run-knobs.js';
import { PERMISSION_MODES } from '../permissions/create-permission-policy.js';
import { BUDGET_OPTIONS, budgetArgs } from './budget-args.js';
import { canonicalFlags, didYouMeanCommand, didYouMeanFlag } from './flag-spelling.js';
import { oneOf, positiveInteger } from './flag-values.js';
import {
  type AcpArgs,
  type CliArgs,
  type InteractiveArgs,
  type McpArgs,
  type OutputFormat,
  type RunArgs,
  type SessionArgs,
  WORKTREE_ACTIONS,
  type WorktreesArgs,
} from './parsed-args.js';
import { executorArgs, RESTATE_OPTIONS, restateArgs } from './restate-args.js';
import { serveArgs } from './serve-args.js';
import { refuseWorkflowFlags, WORKFLOW_OPTIONS, workflowArgs } from './workflow-args.js';

const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

/** Every flag the command line takes, for node:util's parseArgs. */
export const OPTIONS = {
  print: { type: 'boolean', short: 'p' },
  model: { type: 'string' },
  'base-url': { type: 'string' },
  'output-format': { type: 'string' },
  'max-turns': { type: 'string' },
  'max-depth': { type: 'string' },
  'max-parallel': { type: 'string' },
  'time-budget': { type: 'string' },
  'token-budget': { type: 'string' },
  'stall-timeout': { type: 'string' },
  'request-timeout': { type: 'string' },
  'permission-mode': { type: 'string' },
  'allowed-tools': { type: 'string' },
  'disallowed-tools': { type: 'string' },
  'agents-dir': { type: 'string', multiple: true },
  'mcp-config': { type: 'string', multiple: true },
  'trust-project': { type: 'boolean' },
  'no-sandbox': { type: 'boolean' },
  agent: { type: 'string' },
  'system-prompt': { type: 'string' },
  'append-system-prompt': { type: 'string' },
  settings: { type: 'string' },
  cwd: { type: 'string' },
  'session-dir': { type: 'string' },
  resume: { type: 'string' },
  session: { type: 'string' },
  continue: { type: 'boolean' },
  json: { type: 'boolean' },
  force: { type: 'boolean' },
  verbose: { type: 'boolean' },
  record: { type: 'string' },
  replay: { type: 'string' },
  'replay-tools': { type: 'boolean' },
  html: { type: 'string' },
  http: { type: 'boolean' },
  'token-file': { type: 'string' },
  ...WORKFLOW_OPTIONS,
  ...BUDGET_OPTIONS,
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean', short: 'v' },
  ...RESTATE_OPTIONS,
} as const;

export function parseCliArgs(argv: readonly string[]): CliArgs {
  const { values, positionals } = parseOrExplain(argv);
  if (values.help) return { command: 'help' };
  if (values.version) return { command: 'version' };
  if (values.force && (positionals[0] !== 'worktrees' || values.print)) {
    throw new ConfigError(
      '--force',
      'is only for `warren worktrees remove` and `prune`',
      'leave it out',
    );
  }

  if (positionals[0] === 'agents') {
    if (positionals.length > 1) {
      throw new ConfigError(`agents ${positionals[1]}`, 'unexpected argument', 'run warren --help');
    }
    return {
      command: 'agents',
      json: values.json === true,
      agentsDirs: values['agents-dir'] ?? [],
      cwd: values.cwd,
    };
  }
  if (positionals[0] === 'tasks') {
    if (positionals.length > 1) {
      throw new ConfigError(`tasks ${positionals[1]}`, 'unexpected argument', 'run warren --help');
    }
    return {
      command: 'tasks',
      sessionId: values.session,
      sessionDir: values['session-dir'],
      json: values.json === true,
    };
  }
  if ((positionals[0] === 'workflow' || positionals[0] === 'workflows') && !values.print) {
    return workflowArgs(positionals, values, runArgs);
  }
  refuseWorkflowFlags(values);
  if (positionals[0] === 'usage' || positionals[0] === 'report') {
    return sessionArgs(positionals[0], positionals.slice(1), values);
  }
  if ((positionals[0] === 'mcp' || positionals[0] === 'a2a') && positionals[1] === 'serve') {
    return serveArgs(positionals[0], positionals.slice(2), values, {
      run: runArgs({ ...values, agent: undefined }),
      port: positiveInteger('--port', values.port, { allowZero: true }),
    });
  }
  if (positionals[0] === 'a2a') {
    throw new ConfigError(
      `a2a ${positionals[1] ?? ''}`.trim(),
      'is not an a2a command',
      'warren a2a serve --port <p>',
    );
  }
  if (positionals[0] === 'mcp' && !values.print) return mcpArgs(positionals, values);
  if (positionals[0] === 'trust' && !values.print) {
    if (positionals.length > 2) {
      throw new ConfigError(`trust ${positionals[2]}`, 'unexpected argument', 'warren trust');
    }
    return { command: 'trust', file: positionals[1], cwd: values.cwd };
  }
  if (positionals[0] === 'acp' && !values.print) return acpArgs(positionals, values);
  if (positionals[0] === 'restate' && !values.print)
    return restateArgs(positionals.slice(1), values);
  if (positionals[0] === 'worktrees' && !values.print) {
    return worktreesArgs(positionals.slice(1), values);
  }
  if (!values.print) {
    if (positionals.length === 0) return interactiveArgs(values);
    const guess = didYouMeanCommand(positionals[0] ?? '');
    throw new ConfigError(
      `"${positionals[0]}"`,
      'is not a command',
      `${guess ? `${guess} ` : ''}to run a prompt to the end, use -p "<prompt>"`,
    );
  }
  if (positionals.length > 1) {
    throw new ConfigError(
      '-p',
      `expected one prompt, got ${positionals.length} arguments`,
      'quote the prompt: warren -p "fix the failing test"',
    );
  }
  return {
    command: 'print',
    prompt: positionals[0],
    outputFormat: oneOf('--output-format', values['output-format'] ?? 'text', OUTPUT_FORMATS),
    verbose: values.verbose === true,
    ...runArgs(values),
  };
}

function interactiveArgs(values: ParsedValues): InteractiveArgs {
  // Output flags without -p are most likely a forgotten -p: say so rather than ignore them.
  for (const flag of ['output-format', 'verbose'] as const) {
    if (values[flag] !== undefined) {
      throw new ConfigError(
        `--${flag}`,
        'applies to -p only',
        `add -p "<prompt>", or leave --${flag} out to open the terminal UI`,
      );
    }
  }
  return { command: 'interactive', ...runArgs(values) };
}

function acpArgs(positionals: readonly string[], values: ParsedValues): AcpArgs {
  if (positionals.length > 1) {
    throw new ConfigError(`acp ${positionals[1]}`, 'unexpected argument', 'warren acp [flags]');
  }
  for (const flag of ['resume', 'continue', 'output-format', 'verbose'] as const) {
    if (values[flag] !== undefined) {
      throw new ConfigError(
        `--${flag}`,
        'does not apply to warren acp',
        flag === 'resume' || flag === 'continue'
          ? 'the editor loads a session (session/load); leave the flag out'
          : 'leave it out: the editor shows the session',
      );
    }
  }
  return { command: 'acp', ...runArgs(values) };
}

export function runArgs(values: ParsedValues): RunArgs {
  for (const flag of ['system-prompt', 'append-system-prompt'] as const) {
    if (values[flag] !== undefined && values.agent !== undefined) {
      throw new ConfigError(
        `--${flag}`,
        "cannot be used with --agent: the definition's body is the main agent's prompt",
        'write the text into the definition, or leave --agent out',
      );
    }
  }
  if (values.continue && values.resume !== undefined) {
    throw new ConfigError(
      '--continue',
      'cannot be used with --resume',
      'pass --resume <session-id> for a given session, or --continue for the latest one of this directory',
    );
  }
  return {
    model: values.model ?? process.env.WARREN_MODEL,
    modelFromEnv: values.model === undefined && process.env.WARREN_MODEL !== undefined,
    // WARREN_BASE_URL is read where the address is used, so messages name the variable.
    baseUrl: values['base-url'],
    maxTurns: positiveInteger('--max-turns', values['max-turns']),
    maxDepth:
      positiveInteger('--max-depth', values['max-depth'], { allowZero: true }) ??
      RUN_KNOBS.maxDepth,
    maxParallel: positiveInteger('--max-parallel', values['max-parallel']) ?? RUN_KNOBS.maxParallel,
    timeBudgetMs: positiveInteger('--time-budget', values['time-budget']),
    tokenBudget: positiveInteger('--token-budget', values['token-budget']),
    ...budgetArgs(values),
    stallTimeoutMs: positiveInteger('--stall-timeout', values['stall-timeout']),
    requestTimeoutMs:
      values['request-timeout'] === undefined
        ? positiveInteger(
            'WARREN_REQUEST_TIMEOUT_MS',
            process.env.WARREN_REQUEST_TIMEOUT_MS || undefined,
          )
        : positiveInteger('--request-timeout', values['request-timeout']),
    permissionMode:
      values['permission-mode'] === undefined
        ? undefined
        : oneOf('--permission-mode', values['permission-mode'], PERMISSION_MODES),
    allowedTools: values['allowed-tools'],
    disallowedTools: values['disallowed-tools'],
    agentsDirs: values['agents-dir'] ?? [],
    mcpConfigs: values['mcp-config'] ?? [],
    trustProject: values['trust-project'] === true,
    noSandbox: values['no-sandbox'] === true,
    agent: values.agent,
    ...(values['system-prompt'] !== undefined && { systemPrompt: values['system-prompt'] }),
    ...(values['append-system-prompt'] !== undefined && {
      appendSystemPrompt: values['append-system-prompt'],
    }),
    settings: values.settings,
    cwd: values.cwd,
    sessionDir: values['session-dir'],
    resume: values.resume,
    continue: values.continue === true,
    ...cassetteFlags(values),
    ...executorArgs(values),
  };
}

function cassetteFlags(values: {
  record?: string;
  replay?: string;
  'replay-tools'?: boolean;
}): Pick<RunArgs, 'record' | 'replay' | 'replayTools'> {
  const { record, replay } = values;
  const replayTools = values['replay-tools'] === true;
  if (record !== undefined && replay !== undefined) {
    throw new ConfigError(
      '--record',
      'cannot be used with --replay',
      'record a run, or replay one: to record a replayed run again, copy the cassette',
    );
  }
  if (replayTools && replay === undefined) {
    throw new ConfigError(
      '--replay-tools',
      'needs --replay <cassette>',
      'add --replay with the cassette whose tool results to use',
    );
  }
  return { record, replay, replayTools };
}

function sessionArgs(
  command: 'usage' | 'report',
  rest: readonly string[],
  values: { 'session-dir'?: string; json?: boolean; html?: string; cwd?: string },
): SessionArgs {
  const [sessionId, extra] = rest;
  if (extra !== undefined) {
    throw new ConfigError(`${command} ${extra}`, 'unexpected argument', 'run warren --help');
  }
  if (command === 'usage' && values.html !== undefined) {
    throw new ConfigError('--html', 'belongs to warren report', 'leave it out of warren usage');
  }
  return {
    command,
    sessionId,
    sessionDir: values['session-dir'],
    cwd: values.cwd,
    json: values.json === true,
    html: values.html,
  };
}

export type ParsedValues = ReturnType<typeof parseOrExplain>['values'];

function mcpArgs(positionals: readonly string[], values: ParsedValues): McpArgs {
  const [, action = 'list', server, extra] = positionals;
  const usage = 'warren mcp [list | tools <server>] [--json]';
  if (action !== 'list' && action !== 'tools') {
    throw new ConfigError(`mcp ${action}`, 'is not an mcp command', usage);
  }
  if (action === 'tools' && server === undefined) {
    throw new ConfigError('mcp tools', 'names no server', usage);
  }
  const unexpected = action === 'list' ? server : extra;
  if (unexpected !== undefined) {
    throw new ConfigError(`mcp ${action} ${unexpected}`, 'unexpected argument', usage);
  }
  return {
    command: 'mcp',
    action,
    server,
    json: values.json === true,
    mcpConfigs: values['mcp-config'] ?? [],
    trustProject: values['trust-project'] === true,
    cwd: values.cwd,
  };
}

/** `warren worktrees [list|diff|merge|remove|prune] [<agent-id>] [--json] [--force]`. */
function worktreesArgs(
  words: readonly string[],
  values: { json?: boolean; force?: boolean; cwd?: string },
): WorktreesArgs {
  const action = oneOf('warren worktrees', words[0] ?? 'list', WORKTREE_ACTIONS);
  const needsId = action === 'diff' || action === 'merge' || action === 'remove';
  const agentId = needsId ? words[1] : undefined;
  if (needsId && agentId === undefined) {
    throw new ConfigError(
      `warren worktrees ${action}`,
      'needs an agent id',
      `warren worktrees ${action} <agent-id>; \`warren worktrees\` lists them`,
    );
  }
  const extra = words.slice(needsId ? 2 : 1);
  if (extra.length > 0) {
    throw new ConfigError(
      `warren worktrees ${action} ${extra.join(' ')}`,
      'unexpected argument',
      'run warren --help',
    );
  }
  if (values.force && action !== 'remove' && action !== 'prune') {
    throw new ConfigError(
      `warren worktrees ${action} --force`,
      '--force is only for remove and prune',
      'leave it out',
    );
  }
  return {
    command: 'worktrees',
    action,
    agentId,
    json: values.json === true,
    force: values.force === true,
    cwd: values.cwd,
  };
}

function parseOrExplain(argv: readonly string[]) {
  try {
    return parseArgs({
      args: canonicalFlags(argv, OPTIONS),
      options: OPTIONS,
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    const message = messageOf(error);
    const flag = /'([^']+)'/.exec(message)?.[1] ?? 'arguments';
    const guess = message.startsWith('Unknown option') ? didYouMeanFlag(flag, OPTIONS) : '';
    throw new ConfigError(
      flag,
      message.replace(/\. To specify.*$/s, ''),
      guess ? `${guess}; run warren --help for all flags` : 'run warren --help',
    );
  }
}
