// The text of `warren --help`: every command and flag; a test holds it in step with the parser.

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
  warren workflow run <file.js> [--args JSON] [--budget <tokens>] [flags]
                                    run a workflow script (docs/workflows.md): its agents are
                                    background children; exit 0 completed, 1 errors, 3 paused
  warren workflow resume <run-id> [--script <edited.js>] [--budget <tokens>]
                                    go on with a run: completed items are not run again
  warren workflows [--json]         saved workflows (.warren/workflows/, .claude/workflows/,
                                    bundled) and the runs of the session folder with their status
  warren usage [<session-id>] [--session-dir <dir>] [--json]
                                    tokens, cost and time of every agent of a session, as a tree
                                    (default: the newest session of this folder)
  warren report [<session-id>] [--session-dir <dir>] [--html <file>]
                                    a self-contained HTML timeline of the session's agent tree
  warren mcp [list | tools <server>] [--json]
                                    MCP servers: transport, status, tool count; a server's tools
  warren acp [flags]                warren as an ACP agent on stdin and stdout, for Zed and other
                                    ACP editors (docs/acp.md); takes the run flags below
  warren mcp serve [--agent a,b] [run flags]
                                    agent definitions (all, or those named) as MCP tools over
                                    stdio, for Claude Code's .mcp.json and other MCP clients
                                    (docs/mcp-serve.md)
      --http --port <p> [--host <addr>]
                                    Streamable HTTP at http://<addr>:<p>/mcp instead (host default
                                    127.0.0.1; port 0 picks one and prints it)
      --token-file <file>           the bearer token HTTP callers must send (else env
                                    WARREN_SERVE_TOKEN); --insecure-no-auth serves anyone
  warren a2a serve --port <p> [--agent a,b] [--host <addr>] [--token-file <file>]
                                    agent definitions as an A2A agent (agent card at
                                    /.well-known/agent-card.json, one skill each); callers send
                                    Authorization: Bearer <token> or X-API-Key (docs/a2a.md)
  warren restate serve --port <p> [--host <addr>]
                                    a worker: runs remote children (Restate services over HTTP/2);
                                    serves only requests signed with its remote key:
      --remote-key-file <file>      the key(s) shared with parents, one a line (else env
                                    WARREN_REMOTE_KEY); the first signs, all are accepted
      --insecure-no-auth            serve without a key: anyone who reaches the ingress (warned)
      --base-url <url>              where its openai-compatible models send requests (else its
                                    WARREN_BASE_URL); a spec naming another endpoint is refused
      --providers <list>            model providers children may use (default
                                    anthropic,openai,openai-compatible)
      --max-permission-mode <mode>  highest mode a child may run in (default: default); a spec
                                    asking for more is refused
      --restate-identity-key <key>  serve only requests restate-server signed (its publickeyv1_…
                                    key; comma-separated for several)
  warren restate register <worker-url> [--admin-url <admin>]
                                    register a worker with restate-server (docs/remote.md)
  warren restate keygen             print a new remote key for parents and workers
  warren trust                      list everything the project would run or allow (hooks, MCP
                                    servers, widening settings, remote A2A agents) in full, then
                                    trust it until any of it changes (docs/security.md)
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
  --max-budget-usd <dollars>        cost cap for the whole run (models with a known price)
  --pause-at-budget                 a spent --token-budget or --max-budget-usd pauses the run
                                    (no request after it, exit 3); --resume the session with a
                                    larger budget to go on
  --stall-timeout <ms>              stop a sub-agent with no model output and no tool activity
                                    for this long, as stalled (default 600000)
  --request-timeout <ms>            no answer (headers or next chunk) from the model in this long:
                                    abort, retry (default 120000; env WARREN_REQUEST_TIMEOUT_MS)
  --permission-mode default|acceptEdits|plan|bypassPermissions
  --allowed-tools <rules>           e.g. "Read,Bash(npm test:*),Edit(src/**)"
  --disallowed-tools <rules>        deny rules; they win over allow rules and modes
  --agents-dir <dir>                extra agent definition folder (repeatable)
  --agent <name>                    run the main agent as that definition
  --system-prompt <text>            the main agent's system prompt instead of warren's
  --append-system-prompt <text>     text added after the main agent's system prompt
  --settings <file>                 a settings file (permissions, hooks) read after
                                    ~/.warren/settings.json and .warren/settings.json
  --mcp-config <file>               MCP servers, in .mcp.json's shape (repeatable; trusted)
  --trust-project                   trust the project for this run: its hooks, MCP servers and
                                    widening permission settings apply without a trust record
  --no-sandbox                      run Bash commands unconfined: no bubblewrap sandbox, the full
                                    environment (also "sandbox": {"enabled": false} in
                                    ~/.warren/settings.json; a project's settings cannot)
  --executor local|restate          restate: every sub-agent runs on a worker (default local: only
                                    those with isolation "remote")
  --restate-url <ingress>           Restate ingress for remote sub-agents (env WARREN_RESTATE_URL)
  --restate-admin-url <admin>       its admin API, for TaskStop (env WARREN_RESTATE_ADMIN_URL;
                                    default port 9070 of the ingress host)
  --remote-key-file <file>          the remote key its workers accept (env WARREN_REMOTE_KEY);
                                    remote children need one
  --cwd <dir>                       working directory (default: the current one)
  --force                           worktrees remove/prune: also discard changes that are not merged
  --args <json>                     workflow run: the script's global args
  --budget <tokens>                 workflow run/resume: the run pauses when its items have spent it
  --script <file.js>                workflow resume: go on with an edited script
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
