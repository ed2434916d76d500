// What a session needs before its first event, from flags and files (definitions, settings, MCP
// servers, prices, model, permissions, system prompt, resumed conversation, task store), and each
// run's RunInput (src/run/) resolved from them, with nothing left for query() to default; shared
// by print mode, the terminal UI, `warren acp`, the protocol servers and `warren workflow`.

import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { remoteAgentPorts } from '../../a2a/remote-agent-ports.js';
import { ConfigError } from '../../core/config-error.js';
import type { AgentEvent } from '../../core/events.js';
import type { Message } from '../../core/messages.js';
import type { PermissionMode } from '../../core/permission-policy.js';
import { FRESH_IDS, type RunIds } from '../../core/run-ids.js';
import { runKnobs } from '../../core/run-knobs.js';
import type { AgentDefinition } from '../../definitions/agent-definition.js';
import { type AgentLoadEntry, sourceLabel } from '../../definitions/agent-load-entry.js';
import { checkAgentName } from '../../definitions/agent-name.js';
import {
  type AgentDefinitionsResult,
  loadAgentDefinitions,
} from '../../definitions/load-agent-definitions.js';
import { unknownToolWarnings } from '../../definitions/normalize-tools.js';
import { compileHookSettings } from '../../hooks/hook-settings.js';
import { loadMcpConfig } from '../../mcp/load-mcp-config.js';
import { serverConfigOf } from '../../mcp/server-config.js';
import { loadPriceTable } from '../../model/price-file.js';
import { modelName } from '../../model/pricing.js';
import {
  type CanUseTool,
  createPermissionPolicy,
  type RulePermissionPolicy,
} from '../../permissions/create-permission-policy.js';
import { parseRuleList } from '../../permissions/permission-rule.js';
import { readSettingsFiles } from '../../permissions/settings-file.js';
import { sessionDate } from '../../prompt/environment-prompt.js';
import { ProjectContext } from '../../prompt/project-context.js';
import { mainSystemPrompt } from '../../prompt/system-prompt.js';
import { mainBudget, mainPlace, mcpSettings, tighter } from '../../run/run-defaults.js';
import type { RunInput } from '../../run/run-plan.js';
import { runSandbox } from '../../sandbox/run-sandbox.js';
import { loadSandboxSettings } from '../../sandbox/sandbox-settings.js';
import { prepareSessionDir } from '../../session/session-dir.js';
import { newSessionId, taskOutputDir } from '../../session/session-paths.js';
import { type OpenTasks, openSessionTasks, type SessionTasks } from '../../tasks/session-tasks.js';
import { otlpConfig } from '../../telemetry/otlp-config.js';
import type { OtlpTracing } from '../../telemetry/otlp-tracing.js';
import { builtinTools } from '../../tools/builtin-tools.js';
import { projectFolders } from '../../tools/project-folders.js';
import { cwdFlag } from '../cwd-flag.js';
import { packageVersion } from '../package-version.js';
import type { RunArgs } from '../parsed-args.js';
import type { CliIo } from '../print/print-mode.js';
import { terminalSafe } from '../terminal-text.js';
import type { ClientMcpServers } from '../trust/client-server-items.js';
import type { ProjectTrust } from '../trust/project-trust.js';
import { maxParallelWithin } from './open-file-limit.js';
import { readProjectMcpFiles } from './project-mcp-files.js';
import type { QueryRun } from './query-run.js';
import { remoteFor } from './remote-children.js';
import { resumeConversation } from './resume-conversation.js';
import { rememberModel, sessionModelOf, sessionToRun } from './resumed-model.js';
import { fullModelSpec, modelsFor } from './run-models.js';
import { runProjectTrust } from './run-project-trust.js';
import { workflowRecordPort } from './workflow-record-port.js';

export type { QueryRun } from './query-run.js';

export interface RunSetup {
  cwd: string;
  /** Every definition file seen, with its load problems (for `/agents`). */
  agents: AgentDefinitionsResult;
  permissionMode: PermissionMode;
  /** The root policy; its decision store is the one the whole tree shares. */
  permissions: RulePermissionPolicy;
  /** The main model's name as prices and people know it. */
  modelName: string;
  systemPrompt: string;
  sessionDir: string;
  sessionId: string;
  /** The conversation to continue (`--resume`); empty for a new session. */
  history: Message[];
  /** The session's skills (what `warren acp` offers as slash commands). */
  skills: ProjectContext['skills']['skills'];
  /** MCP servers not started (untrusted project files): reported once the run has begun. */
  warnings: string[];
  /**
   * The background tasks of a session: a task manager over the task store in its folder. Every
   * `query()` of the session shares it; `close` stops what still runs and closes the store.
   */
  openTasks(params: OpenTasks): SessionTasks;
  /** Where agent and task ids come from: in a replay, the recording's. */
  runIds: RunIds;
  /** One run of this session, resolved: what `runQuery()` plans and starts. */
  runInput(run: QueryRun): RunInput;
  /** Every event of the session, after its transcript line is written (cassettes see it). */
  observe(event: AgentEvent): void;
  /** Flushes the cassette and the spans; call once, when the session ends. */
  close(): Promise<void>;
  /**
   * After a failed run: the setup mistake when the main model's server never answered (a
   * refused connection to `--base-url`), which print mode reports as bad configuration.
   */
  unreachable(): ConfigError | undefined;
}

export interface SetUpOptions {
  /** How a person is asked about a call no rule decides; without it such calls are denied. */
  canUseTool?: CanUseTool;
  /**
   * Asks a person whether to trust the project's items, before any of them runs (the terminal
   * UI); true records the trust. Without it (print mode), an untrusted project's items are left
   * out with one stderr line each.
   */
  askProjectTrust?: (trust: ProjectTrust) => Promise<boolean>;
  /**
   * MCP servers a client hands the session (`warren acp`): trust items of the project like its
   * `.mcp.json` servers, started only once the project is trusted, checked as a file's are.
   */
  clientMcpServers?: ClientMcpServers;
}

export async function setUpRun(
  givenArgs: RunArgs,
  io: CliIo,
  options: SetUpOptions = {},
): Promise<RunSetup> {
  const cwd = existingDirectory(givenArgs);
  // A resumed session goes on with the model and server it ran with, unless told otherwise.
  const { args, sessionDir, resume } = await sessionToRun(givenArgs, cwd);
  // Bad tracing variables are bad input too: refused before anything runs.
  const tracingConfig = otlpConfig();
  const sources = { projectDir: cwd, homeDir: homedir(), settingsFile: args.settings };
  const [loaded, settingsFiles, sandboxSettings, projectMcpFiles, prices, context] =
    await Promise.all([
      loadAgentDefinitions({ cwd, agentsDirs: args.agentsDirs }),
      readSettingsFiles(sources),
      loadSandboxSettings({ ...sources, noSandbox: args.noSandbox }),
      readProjectMcpFiles(cwd),
      loadPriceTable(),
      ProjectContext.load({ projectDir: cwd, instructions: true, skills: true }),
    ]);
  // What the project's files would run or widen applies only once the project is trusted; the
  // person's own files and flags (`--settings`, `--mcp-config`, `--agents-dir`) always apply.
  const trust = await runProjectTrust({
    cwd,
    homeDir: sources.homeDir,
    settingsFiles,
    definitions: loaded.definitions,
    mcpFiles: projectMcpFiles,
    clientMcpServers: options.clientMcpServers,
    trustProject: args.trustProject,
    io,
    ask: options.askProjectTrust,
  });
  const { settings, hookCommandCheck } = trust;
  const agents = { ...loaded, definitions: trust.definitions };
  const mcp = await loadMcpConfig({
    cwd,
    projectDirs: projectFolders(cwd),
    configFiles: args.mcpConfigs,
    trust: trust.mcpTrust,
  });
  const { definitions, entries } = agents;
  reportUnusableDefinitions(entries, io);
  const settingsHooks = settings.hooks.map((section) => {
    const checked = compileHookSettings(section.value, { where: section.where, callbacks: false });
    for (const warning of checked.warnings) io.stderr(`warren: warning: ${warning}\n`);
    return checked.hooks;
  });
  const agentName = args.agent && (checkAgentName(args.agent).name ?? args.agent);
  const mainDefinition = agentName ? definitions.get(agentName) : undefined;
  if (mainDefinition?.remote) {
    throw new ConfigError(
      `--agent ${args.agent}`,
      'is a remote (A2A) agent, which runs only as a sub-agent',
      'run another agent as the main one, and let it call this one',
    );
  }
  if (args.agent && !mainDefinition) {
    const broken = entries.find((entry) => entry.name === agentName && entry.error);
    throw new ConfigError(
      `--agent ${args.agent}`,
      broken ? `cannot be used: ${broken.error?.message}` : 'no such agent',
      broken ? 'fix the definition file' : `use one of: ${[...definitions.keys()].join(', ')}`,
    );
  }
  // The main definition's own model, when --model does not name one.
  const definitionModel = fullModelSpec(mainDefinition?.model);
  const models = await modelsFor(args, definitionModel);
  const remote = await remoteFor(args, definitionModel, models);
  const workflowRecord = remote && (await workflowRecordPort(args));
  const permissionMode =
    args.permissionMode ?? mainDefinition?.permissionMode ?? settings.defaultMode ?? 'default';
  const { sandbox, warning: sandboxWarning } = runSandbox(
    { ...sandboxSettings.options, enabled: sandboxSettings.enabled },
    (line) => io.stderr(`warren: warning: ${terminalSafe(line)}\n`),
  );
  const permissions = createPermissionPolicy({
    sandbox,
    mode: permissionMode,
    allow: [...settings.allow, ...parseRuleList(args.allowedTools ?? '', '--allowed-tools')],
    deny: [...settings.deny, ...parseRuleList(args.disallowedTools ?? '', '--disallowed-tools')],
    canUseTool: options.canUseTool,
  });
  // A main agent run as a definition gets its sections from query(), with its memory.
  const mainContext = mainDefinition
    ? { sections: [], warnings: [] }
    : await context.agentContext(undefined, cwd, { skillTool: context.skillTool !== undefined });
  // One date for every system prompt of the session: a changing prompt defeats the cache.
  const date = sessionDate();
  const systemPrompt = withAppended(
    args.systemPrompt ??
      mainSystemPrompt({
        cwd,
        subagents: args.maxDepth > 0,
        sections: mainContext.sections.map((section) => section.text),
        date,
      }),
    args.appendSystemPrompt,
  );
  const resumed = resume
    ? await resumeConversation({ sessionDir, sessionId: resume, systemPrompt, io })
    : undefined;
  const sessionId = resumed?.sessionId ?? newSessionId();
  prepareSessionDir({
    sessionDir,
    sessionId,
    where: args.sessionDir
      ? `--session-dir ${args.sessionDir}`
      : `the session folder ${sessionDir}`,
  });
  const tools = models.tools(builtinTools());
  // `kind: remote` definitions reach their A2A agents through one client each for the session.
  const remoteAgents = remoteAgentPorts(process.env);
  const tracing = tracingConfig && (await startTracing(tracingConfig, io));
  // With --replay-tools the recorded results answer: no server is started.
  const mcpServers = models.replaysMcp
    ? {}
    : {
        ...Object.fromEntries(
          mcp.servers.map((server) => [server.name, serverConfigOf(server.config)]),
        ),
        ...trust.clientServers(),
      };
  // Agents past the open-file limit could not start: fewer at once, said once.
  const maxParallel = maxParallelWithin(args.maxParallel, io);
  const runIds = models.runIds ?? FRESH_IDS;
  const remember = rememberModel(sessionDir, sessionModelOf(args, definitionModel), io);

  return {
    cwd,
    agents,
    permissionMode,
    permissions,
    modelName: modelName(models.model),
    systemPrompt,
    sessionDir,
    sessionId,
    history: resumed?.history ?? [],
    skills: context.skills.skills,
    // Tools definitions list that warren lacks (once per tool, not per file), and problems with
    // the project's instructions and skills. An untrusted `.mcp.json` had its line at start.
    warnings: [
      ...sandboxSettings.warnings,
      ...(sandboxWarning ? [sandboxWarning] : []),
      ...(trust.trusted ? mcp.warnings : trust.clientWarnings),
      ...unknownToolWarnings(entries.filter((entry) => entry.status === 'ok')),
      ...mainContext.warnings,
    ],
    openTasks: (params) => {
      remember(params.sessionId);
      return openSessionTasks(sessionDir, { runIds, ...params });
    },
    runIds,
    runInput: (run) => {
      const main = run.mainDefinition ?? mainDefinition;
      return {
        model: models.model,
        runIds,
        baseUrl: args.baseUrl,
        systemPrompt,
        tools,
        // The session's one sandbox, or none at all (--no-sandbox).
        commandSandbox: sandbox,
        definitions: definitions as ReadonlyMap<string, AgentDefinition>,
        mainDefinition: main,
        ...mainPlace(cwd, main, {}),
        ...runKnobs({
          maxDepth: args.maxDepth,
          maxParallel,
          stallTimeoutMs: args.stallTimeoutMs,
          requestTimeoutMs: args.requestTimeoutMs,
          traceContent: tracingConfig?.logContent,
        }),
        sessionDate: date,
        transcriptPathFor: (agentId) => run.transcript.pathFor(agentId),
        messages: run.messages,
        cwd,
        maxTurns: args.maxTurns,
        budget: mainBudget(
          {
            timeBudgetMs: tighter(args.timeBudgetMs, run.limits?.timeBudgetMs),
            tokenBudget: tighter(args.tokenBudget, run.limits?.tokenBudget),
            costBudgetUsd: args.maxBudgetUsd,
          },
          main,
        ),
        pauseAtBudget: args.pauseAtBudget,
        signal: run.signal,
        permissions,
        agentId: run.agentId,
        onEvent: run.onEvent,
        tasks: run.tasks,
        taskOutputDir: taskOutputDir(sessionDir, run.sessionId),
        ...(run.resumeTasks ? { resumeTasks: run.resumeTasks } : {}),
        ...(run.waitForBackground === undefined
          ? {}
          : { waitForBackground: run.waitForBackground }),
        settingsHooks,
        hookCommandCheck,
        sessionId: run.sessionId,
        mcpServers,
        // Decided above: what reaches the run from an untrusted project has nothing left to trust.
        mcp: mcpSettings({ trustProject: trust.trusted }),
        projectContext: context,
        prices,
        resolveModel: models.resolveChild,
        remote: remote && { ...remote, inboxKey: run.sessionId },
        remoteAgents,
        tracerProvider: tracing?.tracerProvider,
        // The main agent gets Workflow; its runs live in the session's task store (and Restate).
        workflows: {
          ...(run.onWorkflowEvent && { onEvent: run.onWorkflowEvent }),
          ...(workflowRecord && { record: workflowRecord }),
        },
      };
    },
    observe: (event) => models.recorder?.observe(event),
    unreachable: models.unreachable,
    close: async () => {
      models.recorder?.close();
      // Spans are sent before the process exits, or they are lost.
      await tracing?.shutdown();
    },
  };
}

/**
 * One stderr line per definition file that cannot be used, so an agent the run lacks is never a
 * mystery; `warren agents` shows the details and the warnings too.
 */
function reportUnusableDefinitions(entries: readonly AgentLoadEntry[], io: CliIo): void {
  for (const { source, error } of entries) {
    if (!error) continue;
    const where = `${sourceLabel(source)}${error.line === undefined ? '' : `:${error.line}`}`;
    io.stderr(`${terminalSafe(`warren: skipped agent definition ${where}: ${error.message}`)}\n`);
  }
}

/** The OpenTelemetry SDK, loaded only now that tracing is on. */
async function startTracing(
  config: NonNullable<ReturnType<typeof otlpConfig>>,
  io: CliIo,
): Promise<OtlpTracing> {
  const { startOtlpTracing } = await import('../../telemetry/otlp-tracing.js');
  return startOtlpTracing({
    config,
    serviceVersion: packageVersion(),
    warn: (message) => io.stderr(`warren: warning: ${message}\n`),
  });
}

function existingDirectory(args: RunArgs): string {
  const absolute = cwdFlag(args);
  const stat = statSync(absolute, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) {
    const given = args.cwd ?? absolute;
    throw new ConfigError(`--cwd ${given}`, 'is not a directory', 'give an existing directory');
  }
  return absolute;
}

/** `--append-system-prompt`'s text after the prompt, a blank line between. */
function withAppended(prompt: string, appended: string | undefined): string {
  return appended?.trim() ? `${prompt}\n\n${appended.trim()}` : prompt;
}
