// `warren -p`: assemble a run from flags and files, stream its events to the transcript and the
// chosen output, and turn the result into an exit code. The loop itself knows none of this.
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { type AgentLoadEntry, sourceLabel } from '../agents/definitions/agent-load-entry.js';
import { checkAgentName } from '../agents/definitions/agent-name.js';
import { loadAgentDefinitions } from '../agents/definitions/load-agent-definitions.js';
import { unknownToolWarnings } from '../agents/definitions/normalize-tools.js';
import { sessionDate } from '../agents/environment-prompt.js';
import { ProjectContext } from '../agents/project-context.js';
import type { RemotePort } from '../agents/remote-port.js';
import { ConfigError } from '../core/config-error.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { Message } from '../core/messages.js';
import type { Tool } from '../core/tool.js';
import { compileHookSettings } from '../hooks/hook-settings.js';
import { loadMcpConfig } from '../mcp/load-mcp-config.js';
import { serverConfigOf } from '../mcp/server-config.js';
import { mcpTrust } from '../mcp/trust-store.js';
import { isModelAlias } from '../model/model-alias.js';
import { loadPriceTable } from '../model/price-file.js';
import { modelName } from '../model/pricing.js';
import { checkReachable, type ResolveModelOptions, resolveModel } from '../model/resolve-model.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { parseRuleList } from '../permissions/permission-rule.js';
import { loadSettings } from '../permissions/settings-file.js';
import { query } from '../query.js';
import { prepareSessionDir } from '../session/session-dir.js';
import {
  defaultSessionDir,
  newSessionId,
  taskOutputDir,
  taskStorePath,
} from '../session/session-paths.js';
import { TranscriptWriter } from '../session/transcript-writer.js';
import { TaskManager } from '../tasks/task-manager.js';
import { TaskStore } from '../tasks/task-store.js';
import { AgentTree } from '../telemetry/agent-tree.js';
import type { CassetteRecorder } from '../telemetry/cassette.js';
import { otlpConfig } from '../telemetry/otlp-config.js';
import type { OtlpTracing } from '../telemetry/otlp-tracing.js';
import type { Replay } from '../telemetry/replay-model.js';
import { builtinTools } from '../tools/builtin-tools.js';
import type { PrintArgs } from './cli-args.js';
import { jsonOutput, type OutputSink, streamJsonOutput, textOutput } from './output-format.js';
import { packageVersion } from './package-version.js';
import { resultJson } from './result-json.js';
import { mainSystemPrompt } from './system-prompt.js';
import { terminalSafe } from './terminal-text.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  /** Aborts the run on Ctrl-C; returns a function that stops listening. */
  onInterrupt: (abort: () => void) => () => void;
}

/** Runs a prompt to the end. Returns the exit code; throws ConfigError for bad input. */
export async function runPrintMode(args: PrintArgs, io: CliIo): Promise<number> {
  const cwd = existingDirectory(args.cwd ?? process.cwd(), '--cwd');
  const prompt = (args.prompt ?? (await io.readStdin())).trim();
  if (!prompt) {
    throw new ConfigError('-p', 'no prompt given', 'warren -p "<prompt>", or pipe it on stdin');
  }
  // Bad tracing variables are bad input too: refused before anything runs.
  const tracingConfig = otlpConfig();
  // `--mcp-config` files are trusted (the person named them); the project's `.mcp.json` and
  // project definitions start servers only with --trust-project or a trust record.
  const trust = mcpTrust({ trustProject: args.trustProject });
  const [{ definitions, entries }, settings, mcp, prices, context] = await Promise.all([
    loadAgentDefinitions({ cwd, agentsDirs: args.agentsDirs }),
    loadSettings({ projectDir: cwd, homeDir: homedir(), settingsFile: args.settings }),
    loadMcpConfig({ cwd, configFiles: args.mcpConfigs, trust }),
    loadPriceTable(),
    ProjectContext.load({ projectDir: cwd, instructions: true, skills: true }),
  ]);
  reportUnusableDefinitions(entries, io);
  const settingsHooks = settings.hooks.map((section) => {
    const checked = compileHookSettings(section.value, { where: section.where, callbacks: false });
    for (const warning of checked.warnings) io.stderr(`warren: warning: ${warning}\n`);
    return checked.hooks;
  });
  const agentName = args.agent && (checkAgentName(args.agent).name ?? args.agent);
  const mainDefinition = agentName ? definitions.get(agentName) : undefined;
  if (args.agent && !mainDefinition) {
    const broken = entries.find((entry) => entry.name === agentName && entry.error);
    throw new ConfigError(
      `--agent ${args.agent}`,
      broken ? `cannot be used: ${broken.error?.message}` : 'no such agent',
      broken ? 'fix the definition file' : `use one of: ${[...definitions.keys()].join(', ')}`,
    );
  }
  const models = await modelsFor(args, fullModelSpec(mainDefinition?.model));
  const remote = await remoteFor(args, fullModelSpec(mainDefinition?.model));
  const { model } = models;
  const permissionMode =
    args.permissionMode ?? mainDefinition?.permissionMode ?? settings.defaultMode ?? 'default';
  const permissions = createPermissionPolicy({
    mode: permissionMode,
    allow: [...settings.allow, ...parseRuleList(args.allowedTools ?? '', '--allowed-tools')],
    deny: [...settings.deny, ...parseRuleList(args.disallowedTools ?? '', '--disallowed-tools')],
  });

  // A main agent run as a definition gets its sections from query(), with its memory.
  const mainContext = mainDefinition
    ? { sections: [], warnings: [] }
    : await context.agentContext(undefined, cwd, { skillTool: context.skillTool !== undefined });
  // One date for every system prompt of the session: a changing prompt defeats the cache.
  const date = sessionDate();
  const systemPrompt = mainSystemPrompt({
    cwd,
    subagents: args.maxDepth > 0,
    sections: mainContext.sections.map((section) => section.text),
    date,
  });
  const sessionDir = resolve(args.sessionDir ?? defaultSessionDir());
  let sessionId = newSessionId();
  let history: Message[] = [];
  const resume = args.continue ? await latestSession(sessionDir, cwd) : args.resume;
  if (resume) {
    const { loadSession } = await import('../session/read-transcript.js');
    const session = loadSession({ sessionDir, sessionId: resume });
    for (const warning of session.warnings) io.stderr(`warren: warning: ${warning}\n`);
    sessionId = resume;
    // The conversation goes on; the environment (cwd, date) in its system prompt is today's.
    history = session.messages.map((message) =>
      message.role === 'system' ? { role: 'system', content: systemPrompt } : message,
    );
  }

  prepareSessionDir({
    sessionDir,
    sessionId,
    where: args.sessionDir
      ? `--session-dir ${args.sessionDir}`
      : `the session folder ${sessionDir}`,
  });
  const tools = models.tools(builtinTools());
  const tracing = tracingConfig && (await startTracing(tracingConfig, io));
  const mainAgentId = `main_${randomUUID().slice(0, 8)}`;
  const transcript = new TranscriptWriter({ sessionDir, sessionId, mainAgentId });
  const tree = new AgentTree({ transcriptOf: (agentId) => transcript.pathFor(agentId) });
  const output = outputFor(args, { sessionId, permissionMode, io });
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  let result: RunResult | undefined;
  // Untrusted project servers, tools definitions list that warren lacks (once per tool, not per
  // file), and problems with the project's instructions and skills are reported once the run has
  // said who the main agent is.
  let pendingWarnings = [
    ...mcp.warnings,
    ...unknownToolWarnings(entries.filter((entry) => entry.status === 'ok')),
    ...mainContext.warnings,
  ];
  // Every event of the tree, background agents' included, is shown the moment it happens (the
  // run's onEvent), once; events made outside any loop (warnings) come only through the stream.
  const shown = new WeakSet<AgentEvent>();
  const show = (event: AgentEvent) => {
    if (shown.has(event) || transcript.closed) return;
    shown.add(event);
    // The transcript line goes to disk before anyone is shown the event.
    transcript.write(event);
    tree.observe(event);
    models.recorder?.observe(event);
    output.event(event);
    if (event.type === 'run_start' && event.agentId === mainAgentId) {
      for (const message of pendingWarnings) {
        show({ agentId: mainAgentId, parentId: null, depth: 0, type: 'warning', message });
      }
      pendingWarnings = [];
    }
  };
  const store = TaskStore.open(taskStorePath(sessionDir, sessionId));
  const tasks = new TaskManager({ store, signal: controller.signal, onEvent: show });
  try {
    const run = query({
      prompt,
      options: {
        model,
        baseUrl: args.baseUrl,
        systemPrompt,
        tools,
        definitions,
        agent: mainDefinition?.name,
        maxDepth: args.maxDepth,
        maxParallel: args.maxParallel,
        stallTimeoutMs: args.stallTimeoutMs,
        sessionDate: date,
        transcriptPathFor: (agentId) => transcript.pathFor(agentId),
        messages: history,
        cwd,
        maxTurns: args.maxTurns,
        timeBudgetMs: args.timeBudgetMs,
        tokenBudget: args.tokenBudget,
        requestTimeoutMs: args.requestTimeoutMs,
        signal: controller.signal,
        permissions,
        agentId: mainAgentId,
        onEvent: show,
        tasks,
        taskOutputDir: taskOutputDir(sessionDir, sessionId),
        ...(args.resume
          ? {
              resumeTasks: {
                warn: (warning: string) => io.stderr(`warren: warning: ${warning}\n`),
              },
            }
          : {}),
        settingsHooks,
        sessionId,
        mcpServers: Object.fromEntries(
          mcp.servers.map((server) => [server.name, serverConfigOf(server.config)]),
        ),
        trustProject: args.trustProject,
        projectContext: context,
        prices,
        resolveModel: models.resolveChild,
        ...(remote ? { remote: { ...remote, inboxKey: sessionId } } : {}),
        tracerProvider: tracing?.tracerProvider,
        traceContent: tracingConfig?.logContent,
      },
    });
    for await (const event of run) {
      show(event);
      if (event.type === 'result' && event.agentId === mainAgentId) result = event;
    }
  } finally {
    stopListening();
    // The main agent waits for its background work; what is left (it ended early) stops now.
    await tasks.shutdown();
    store.close();
    transcript.close();
    models.recorder?.close();
    // Spans are sent before the process exits, or they are lost.
    await tracing?.shutdown();
  }
  if (!result) throw new Error('the run ended without a result');
  output.finish(resultJson({ result, sessionId, tree }));
  return result.isError ? 1 : 0;
}

/** `--continue`: the latest session of this directory (session/latest-session.ts). */
async function latestSession(sessionDir: string, cwd: string): Promise<string> {
  const { findLatestSession } = await import('../session/latest-session.js');
  return findLatestSession({ sessionDir, cwd });
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

interface RunModels {
  model: LanguageModelV4;
  /** How a child with a model of its own gets it. */
  resolveChild: (spec: string, options: ResolveModelOptions) => Promise<LanguageModelV4>;
  /** The run's tools: the given ones, or with `--replay-tools` their recorded results. */
  tools(tools: Tool[]): Tool[];
  recorder?: CassetteRecorder;
  replay?: Replay;
}

/** The main model and how children get theirs: for real, recorded to a cassette, or replayed. */
async function modelsFor(args: PrintArgs, definitionModel: string | undefined): Promise<RunModels> {
  if (args.replay) {
    const [{ Cassette }, { Replay }, { replayTools }] = await Promise.all([
      import('../telemetry/cassette.js'),
      import('../telemetry/replay-model.js'),
      import('../telemetry/replay-tools.js'),
    ]);
    const cassette = Cassette.read(args.replay, `--replay ${args.replay}`);
    const replay = new Replay(cassette);
    // Named as recorded, so prices, names and provider-specific prompts come out the same.
    return {
      model: replay.model(cassette.header.model ?? args.model),
      resolveChild: async (spec) => replay.model(spec),
      tools: (tools) => (args.replayTools ? replayTools(tools, cassette) : tools),
      replay,
    };
  }
  const modelSpec = args.model ?? definitionModel;
  if (!modelSpec) {
    throw new ConfigError(
      '--model',
      'no model given',
      'pass --model anthropic:claude-sonnet-4-5 (or openai:…, openai-compatible:… with --base-url, scripted:<file>), or set WARREN_MODEL',
    );
  }
  // The server check overlaps loading the provider package: start-up is what people feel.
  const [model] = await Promise.all([
    resolveModel(modelSpec, { baseUrl: args.baseUrl }),
    checkReachable(modelSpec, { baseUrl: args.baseUrl }),
  ]);
  if (!args.record) return { model, resolveChild: resolveModel, tools: (tools) => tools };
  const [{ CassetteRecorder }, { recordModel }] = await Promise.all([
    import('../telemetry/cassette.js'),
    import('../telemetry/record-model.js'),
  ]);
  let recorder: CassetteRecorder;
  try {
    recorder = new CassetteRecorder({ file: args.record, model: modelName(model) });
  } catch (error) {
    throw new ConfigError(
      `--record ${args.record}`,
      `cannot write the cassette: ${(error as Error).message}`,
      'give a path in a folder that exists and you can write to',
    );
  }
  return {
    model: recordModel(model, recorder),
    resolveChild: async (spec, options) => recordModel(await resolveModel(spec, options), recorder),
    tools: (tools) => tools,
    recorder,
  };
}

/**
 * Children on Restate workers (`--restate-url`; all of them with `--executor restate`): the
 * ingress is checked first, so a wrong URL or no registered worker is one line at start.
 */
async function remoteFor(
  args: PrintArgs,
  definitionModel: string | undefined,
): Promise<Omit<RemotePort, 'inboxKey'> | undefined> {
  const { restateUrl, restateAdminUrl } = args;
  if (restateUrl === undefined || restateAdminUrl === undefined) return undefined;
  const [{ RestateExecutor }, { checkIngress }, { SUBAGENT_SERVICE }] = await Promise.all([
    import('../remote/restate-executor.js'),
    import('../remote/restate-admin.js'),
    import('../remote/restate-services.js'),
  ]);
  await checkIngress({ ingressUrl: restateUrl, where: '--restate-url', service: SUBAGENT_SERVICE });
  return {
    executor: new RestateExecutor({ ingressUrl: restateUrl, adminUrl: restateAdminUrl }),
    all: args.executor === 'restate',
    modelSpec: args.model ?? definitionModel,
  };
}

/** The OpenTelemetry SDK, loaded only now that tracing is on. */
async function startTracing(
  config: NonNullable<ReturnType<typeof otlpConfig>>,
  io: CliIo,
): Promise<OtlpTracing> {
  const { startOtlpTracing } = await import('../telemetry/otlp-tracing.js');
  return startOtlpTracing({
    config,
    serviceVersion: packageVersion(),
    warn: (message) => io.stderr(`warren: warning: ${message}\n`),
  });
}

function outputFor(
  args: PrintArgs,
  context: { sessionId: string; permissionMode: string; io: CliIo },
): OutputSink {
  const options = {
    sessionId: context.sessionId,
    permissionMode: context.permissionMode,
    stdout: context.io.stdout,
    stderr: context.io.stderr,
    verbose: args.verbose,
  };
  if (args.outputFormat === 'json') return jsonOutput(options);
  if (args.outputFormat === 'stream-json') return streamJsonOutput(options);
  return textOutput(options);
}

function existingDirectory(path: string, flag: string): string {
  const absolute = resolve(path);
  const stat = statSync(absolute, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) {
    throw new ConfigError(`${flag} ${path}`, 'is not a directory', 'give an existing directory');
  }
  return absolute;
}

/** A definition's model when it names one outright; `inherit` and aliases need a session model. */
function fullModelSpec(model: string | undefined): string | undefined {
  if (!model || model === 'inherit' || isModelAlias(model)) return undefined;
  return model;
}
