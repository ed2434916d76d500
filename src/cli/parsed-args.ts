// What the command line parses into: one shape per command, the flags each one takes.
import type { PermissionMode } from '../core/permission-policy.js';
import type { BudgetArgs } from './budget-args.js';
import type { ExecutorArgs, RestateArgs } from './restate-args.js';

export type OutputFormat = 'text' | 'json' | 'stream-json';

/** The flags that assemble a run: shared by `-p` and the interactive UI. */
export interface RunArgs extends ExecutorArgs, BudgetArgs {
  model: string | undefined;
  /** The model came from `WARREN_MODEL`, not `--model`: a resumed session keeps its own. */
  modelFromEnv?: boolean;
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
  /** `--no-sandbox`: commands run unconfined, with warren's whole environment. */
  noSandbox?: boolean;
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
  /** `--system-prompt`: the main agent's system prompt instead of warren's. */
  systemPrompt?: string;
  /** `--append-system-prompt`: text after the main agent's system prompt. */
  appendSystemPrompt?: string;
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
/** `warren acp`: warren as an ACP agent on stdin and stdout, for an editor to run. */
export interface AcpArgs extends RunArgs {
  command: 'acp';
}

export interface SessionArgs {
  command: 'usage' | 'report';
  /** Undefined: the newest session of `cwd` (the folder the command runs in). */
  sessionId: string | undefined;
  sessionDir: string | undefined;
  cwd: string | undefined;
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

/** `warren mcp serve` and `warren a2a serve`: chosen definitions published over a protocol. */
export interface ServeArgs extends RunArgs {
  command: 'serve';
  protocol: 'mcp' | 'a2a';
  /** `--agent a,b`: the definitions to publish; undefined publishes every one. */
  served: string[] | undefined;
  /** MCP: Streamable HTTP instead of stdio. A2A always serves HTTP. */
  http: boolean;
  host: string;
  /** 0 picks a free port (printed on stderr). */
  port: number;
  /** `--token-file`: the bearer token callers must send (else env WARREN_SERVE_TOKEN). */
  tokenFile: string | undefined;
  /** `--insecure-no-auth`: serve HTTP to anyone who reaches it. */
  insecureNoAuth: boolean;
}

export interface TrustArgs {
  command: 'trust';
  /** A file of the project (the older form): its project is trusted, as without it. */
  file: string | undefined;
  cwd: string | undefined;
}

/** `warren workflow run|resume` (a run of the session's main agent driving one Workflow call) and `warren workflows`. */
export interface WorkflowArgs extends RunArgs {
  command: 'workflow';
  action: 'run' | 'resume';
  /** run: the script file. */
  file: string | undefined;
  /** resume: the run to go on with. */
  runId: string | undefined;
  /** `--args`: the script's global `args`, as JSON text. */
  argsJson: string | undefined;
  /** `--budget`: tokens; on resume, the new total. */
  budget: number | undefined;
  /** resume `--script`: an edited script to go on with. */
  script: string | undefined;
  outputFormat: OutputFormat;
}

export interface WorkflowsArgs {
  command: 'workflows';
  json: boolean;
  cwd: string | undefined;
  sessionDir: string | undefined;
}

export type CliArgs =
  | PrintArgs
  | WorkflowArgs
  | WorkflowsArgs
  | AcpArgs
  | AgentsArgs
  | TasksArgs
  | WorktreesArgs
  | SessionArgs
  | McpArgs
  | TrustArgs
  | ServeArgs
  | RestateArgs
  | { command: 'help' }
  | { command: 'version' }
  | InteractiveArgs;
