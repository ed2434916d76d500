// The command line as typed, checked flag by flag. Every mistake becomes a ConfigError that
// names the flag and the fix; nothing here touches the file system or the network.
import { parseArgs } from 'node:util';
import { ConfigError } from '../core/config-error.js';
import type { PermissionMode } from '../core/permission-policy.js';
import { PERMISSION_MODES } from '../permissions/create-permission-policy.js';
import {
  type ExecutorArgs,
  executorArgs,
  RESTATE_OPTIONS,
  type RestateArgs,
  restateArgs,
} from './restate-args.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

/** The flags that assemble a run: shared by `-p` and the interactive UI. */
export interface RunArgs extends ExecutorArgs {
  model: string | undefined;
  baseUrl: string | undefined;
  maxTurns: number | undefined;
  maxDepth: number;
  maxParallel: number;
  timeBudgetMs: number | undefined;
  tokenBudget: number | undefined;
  stallTimeoutMs: number | undefined;
  requestTimeoutMs: number | undefined;
  permissionMode: PermissionMode | undefined;
  allowedTools: string | undefined;
  disallowedTools: string | undefined;
  agentsDirs: string[];
  /** `--mcp-config` files, in the order given. */
  mcpConfigs: string[];
  trustProject: boolean;
  agent: string | undefined;
  /** A settings file read after the user's and the project's (permissions and hooks). */
  settings: string | undefined;
  cwd: string | undefined;
  sessionDir: string | undefined;
  resume: string | undefined;
  /** Resume the latest session of the working directory. */
  continue: boolean;
  /** Write every model call and tool result of the tree to this cassette. */
  record: string | undefined;
  /** Answer every model call from this cassette. */
  replay: string | undefined;
  /** With `replay`: tools answer with their recorded results instead of running. */
  replayTools: boolean;
}

export interface PrintArgs extends RunArgs {
  command: 'print';
  /** Undefined when the prompt is to be read from standard input. */
  prompt: string | undefined;
  outputFormat: OutputFormat;
  verbose: boolean;
}

/** `warren` with no prompt: the terminal UI, a conversation of many runs. */
export interface InteractiveArgs extends RunArgs {
  command: 'interactive';
}

/** `warren usage <session-id>` and `warren report <session-id>`: a finished session, read back. */
export interface SessionArgs {
  command: 'usage' | 'report';
  sessionId: string;
  sessionDir: string | undefined;
  json: boolean;
  /** `report`: where the HTML goes. */
  html: string | undefined;
}

export interface AgentsArgs {
  command: 'agents';
  json: boolean;
  agentsDirs: string[];
  cwd: string | undefined;
}

export interface TasksArgs {
  command: 'tasks';
  /** Undefined: the newest session that has tasks. */
  sessionId: string | undefined;
  sessionDir: string | undefined;
  json: boolean;
}

export const WORKTREE_ACTIONS = ['list', 'diff', 'merge', 'remove', 'prune'] as const;
export type WorktreeAction = (typeof WORKTREE_ACTIONS)[number];

export interface WorktreesArgs {
  command: 'worktrees';
  action: WorktreeAction;
  /** For diff, merge and remove. */
  agentId: string | undefined;
  json: boolean;
  /** remove and prune: discard changes that are not merged. */
  force: boolean;
  cwd: string | undefined;
}

export interface McpArgs {
  command: 'mcp';
  action: 'list' | 'tools';
  /** The server whose tools `tools` lists. */
  server: string | undefined;
  json: boolean;
  mcpConfigs: string[];
  trustProject: boolean;
  cwd: string | undefined;
}

export interface TrustArgs {
  command: 'trust';
  /** Default: the project's `.mcp.json`. */
  file: string | undefined;
  cwd: string | undefined;
}

export type CliArgs =
  | PrintArgs
  | AgentsArgs
  | TasksArgs
  | WorktreesArgs
  | SessionArgs
  | McpArgs
  | TrustArgs
  | RestateArgs
  | { command: 'help' }
  | { command: 'version' }
  | InteractiveArgs;

const OUTPUT_FORMATS: readonly OutputFormat[] = ['text', 'json', 'stream-json'];

const OPTIONS = {
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
  agent: { type: 'string' },
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
  if (positionals[0] === 'usage' || positionals[0] === 'report') {
    return sessionArgs(positionals[0], positionals.slice(1), values);
  }
  if (positionals[0] === 'mcp' && !values.print) return mcpArgs(positionals, values);
  if (positionals[0] === 'trust' && !values.print) {
    if (positionals.length > 2) {
      throw new ConfigError(
        `trust ${positionals[2]}`,
        'unexpected argument',
        'warren trust [<file>]',
      );
    }
    return { command: 'trust', file: positionals[1], cwd: values.cwd };
  }
  if (positionals[0] === 'restate' && !values.print)
    return restateArgs(positionals.slice(1), values);
  if (positionals[0] === 'worktrees' && !values.print) {
    return worktreesArgs(positionals.slice(1), values);
  }
  if (!values.print) {
    if (positionals.length === 0) return interactiveArgs(values);
    throw new ConfigError(
      `"${positionals[0]}"`,
      'is not a command',
      'to run a prompt to the end, use -p "<prompt>"',
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

function runArgs(values: ParsedValues): RunArgs {
  if (values.continue && values.resume !== undefined) {
    throw new ConfigError(
      '--continue',
      'cannot be used with --resume',
      'pass --resume <session-id> for a given session, or --continue for the latest one of this directory',
    );
  }
  return {
    model: values.model ?? process.env.WARREN_MODEL,
    // WARREN_BASE_URL is read where the address is used, so messages name the variable.
    baseUrl: values['base-url'],
    maxTurns: positiveInteger('--max-turns', values['max-turns']),
    maxDepth: positiveInteger('--max-depth', values['max-depth'], { allowZero: true }) ?? 3,
    maxParallel: positiveInteger('--max-parallel', values['max-parallel']) ?? 10,
    timeBudgetMs: positiveInteger('--time-budget', values['time-budget']),
    tokenBudget: positiveInteger('--token-budget', values['token-budget']),
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
    agent: values.agent,
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
  values: { 'session-dir'?: string; json?: boolean; html?: string },
): SessionArgs {
  const [sessionId, extra] = rest;
  if (sessionId === undefined) {
    throw new ConfigError(
      command,
      'needs a session id',
      `warren ${command} <session-id> (the "session_id" of a run; the .jsonl names in the session folder)`,
    );
  }
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
    json: values.json === true,
    html: values.html,
  };
}

type ParsedValues = ReturnType<typeof parseOrExplain>['values'];

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
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const flag = /'([^']+)'/.exec(message)?.[1] ?? 'arguments';
    throw new ConfigError(flag, message.replace(/\. To specify.*$/s, ''), 'run warren --help');
  }
}

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(flag, `unknown value "${value}"`, `use one of: ${allowed.join(', ')}`);
}

function positiveInteger(
  flag: string,
  value: string | undefined,
  { allowZero = false } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  const min = allowZero ? 0 : 1;
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < min) {
    throw new ConfigError(
      flag,
      `expected ${allowZero ? 'a whole number' : 'a positive whole number'}, got "${value}"`,
      `e.g. ${flag}${flag.startsWith('-') ? ' ' : '='}${allowZero ? 0 : 10}`,
    );
  }
  return number;
}

export const HELP = `warren — an agent runtime whose sub-agents are tool calls

Usage:
  warren [flags]                    the terminal UI: a conversation, its sub-agents live as a tree
                                    (needs a terminal; /help inside lists keys and commands)
  warren -p "<prompt>" [flags]      run to the end, print the result, exit
  warren agents [--json]            list agent definitions, their sources and load warnings
  warren tasks [--session <id>] [--session-dir <dir>] [--json]
                                    background tasks of a session (default: the newest with any)
  warren worktrees [list|diff|merge|remove|prune] [<agent-id>] [--json] [--force]
                                    agent worktrees kept for review (isolation: worktree): list
                                    them, show one's diff, merge its branch into the current
                                    one, remove one, or prune those with nothing unmerged
  warren usage <session-id> [--session-dir <dir>] [--json]
                                    tokens, cost and time of every agent of a session, as a tree
  warren report <session-id> [--session-dir <dir>] [--html <file>]
                                    a self-contained HTML timeline of the session's agent tree
  warren mcp [list | tools <server>] [--json]
                                    MCP servers: transport, status, tool count; a server's tools
  warren restate serve --port <p>   a worker: runs remote children (Restate services over HTTP/2)
  warren restate register <worker-url> [--admin-url <admin>]
                                    register a worker with restate-server (docs/remote.md)
  warren trust [<file>]             let a project file (.mcp.json, an agent definition) start its
                                    MCP servers, until it changes (default: .mcp.json)
  warren --help | --version

Flags:
  --model <provider:model>          anthropic:<id> | openai:<id> | openai-compatible:<id> | scripted:<file>
                                    (env WARREN_MODEL; keys from ANTHROPIC_API_KEY / OPENAI_API_KEY)
  --base-url <url>                  endpoint for openai-compatible (Ollama, vLLM, llama.cpp, LM Studio);
                                    env WARREN_BASE_URL
  --output-format text|json|stream-json
  --max-turns <n>                   turn cap of the main agent
  --max-depth <n>                   deepest sub-agent level (default 3; the main agent is depth 0)
  --max-parallel <n>                sub-agents running at once (default 10)
  --time-budget <ms>                wall-clock budget for the whole run; the run ends at most 60 s
                                    after it, however deep its tree
  --token-budget <n>                input+output tokens for the whole run
  --stall-timeout <ms>              stop a sub-agent with no model output and no tool activity
                                    for this long, as stalled (default 600000)
  --request-timeout <ms>            no answer (headers or next chunk) from the model in this long:
                                    abort, retry (default 120000; env WARREN_REQUEST_TIMEOUT_MS)
  --permission-mode default|acceptEdits|plan|bypassPermissions
  --allowed-tools <rules>           e.g. "Read,Bash(npm test:*),Edit(src/**)"
  --disallowed-tools <rules>        deny rules; they win over allow rules and modes
  --agents-dir <dir>                extra agent definition folder (repeatable)
  --agent <name>                    run the main agent as that definition
  --settings <file>                 a settings file (permissions, hooks) read after
                                    ~/.warren/settings.json and .warren/settings.json
  --mcp-config <file>               MCP servers, in .mcp.json's shape (repeatable; trusted)
  --trust-project                   start the project's MCP servers (.mcp.json, agent definitions)
                                    without a trust record
  --executor local|restate          restate: every sub-agent runs on a worker (default local: only
                                    those with isolation "remote")
  --restate-url <ingress>           Restate ingress for remote sub-agents (env WARREN_RESTATE_URL)
  --restate-admin-url <admin>       its admin API, for TaskStop (env WARREN_RESTATE_ADMIN_URL;
                                    default port 9070 of the ingress host)
  --cwd <dir>                       working directory (default: the current one)
  --force                           worktrees remove/prune: also discard changes that are not merged
  --session-dir <dir>               where transcripts go (default $WARREN_HOME/sessions, else
                                    ~/.warren/sessions)
  --resume <session-id>             continue a session, and the background tasks it was running
  --continue                        continue the latest session of the working directory
  --record <cassette>               write every model call and tool result of the tree (JSONL)
  --replay <cassette>               answer every model call from a recorded cassette; no network
  --replay-tools                    with --replay: use recorded tool results instead of running tools
  --verbose                         with text output: report progress on stderr

Tracing: set OTEL_EXPORTER_OTLP_ENDPOINT (OTLP/HTTP; OTEL_EXPORTER_OTLP_PROTOCOL http/protobuf
or http/json) to send OpenTelemetry spans of every agent, model call and tool call.

Environment: MCP_TIMEOUT (ms an MCP server may take to start, default 30000), MCP_TOOL_TIMEOUT
(ms one MCP tool call may take, default 600000).

Exit codes: 0 success, 1 the run ended in error, 2 bad usage or configuration.
`;
