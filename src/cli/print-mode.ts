// `warren -p`: assemble a run from flags and files, stream its events to the transcript and the
// chosen output, and turn the result into an exit code. The loop itself knows none of this.
import { randomUUID } from 'node:crypto';
import { statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import { loadAgentDefinitions } from '../agents/definitions/load-agent-definitions.js';
import { ConfigError } from '../core/config-error.js';
import type { AgentEvent, RunResult } from '../core/events.js';
import type { Message } from '../core/messages.js';
import { isModelAlias } from '../model/model-alias.js';
import { checkReachable, resolveModel } from '../model/resolve-model.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { parseRuleList } from '../permissions/permission-rule.js';
import { loadPermissionSettings } from '../permissions/settings-file.js';
import { query } from '../query.js';
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
import { builtinTools } from '../tools/builtin-tools.js';
import type { PrintArgs } from './cli-args.js';
import { jsonOutput, type OutputSink, streamJsonOutput, textOutput } from './output-format.js';
import { resultJson } from './result-json.js';
import { mainSystemPrompt } from './system-prompt.js';

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
  if (args.mcpConfig) {
    throw new ConfigError(
      '--mcp-config',
      'MCP servers are not supported yet',
      'leave the flag out',
    );
  }
  const [{ definitions, entries }, settings] = await Promise.all([
    loadAgentDefinitions({ cwd, agentsDirs: args.agentsDirs }),
    loadPermissionSettings({ projectDir: cwd, homeDir: homedir() }),
  ]);
  const mainDefinition = args.agent ? definitions.get(args.agent) : undefined;
  if (args.agent && !mainDefinition) {
    const broken = entries.find((entry) => entry.name === args.agent && entry.error);
    throw new ConfigError(
      `--agent ${args.agent}`,
      broken ? `cannot be used: ${broken.error?.message}` : 'no such agent',
      broken ? 'fix the definition file' : `use one of: ${[...definitions.keys()].join(', ')}`,
    );
  }
  const modelSpec = args.model ?? fullModelSpec(mainDefinition?.model);
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
  const permissionMode =
    args.permissionMode ?? mainDefinition?.permissionMode ?? settings.defaultMode ?? 'default';
  const permissions = createPermissionPolicy({
    mode: permissionMode,
    allow: [...settings.allow, ...parseRuleList(args.allowedTools ?? '', '--allowed-tools')],
    deny: [...settings.deny, ...parseRuleList(args.disallowedTools ?? '', '--disallowed-tools')],
  });

  const systemPrompt = mainSystemPrompt({ cwd, subagents: args.maxDepth > 0 });
  const sessionDir = resolve(args.sessionDir ?? defaultSessionDir());
  let sessionId = newSessionId();
  let history: Message[] = [];
  if (args.resume) {
    const { loadSession } = await import('../session/read-transcript.js');
    const session = loadSession({ sessionDir, sessionId: args.resume });
    for (const warning of session.warnings) io.stderr(`warren: warning: ${warning}\n`);
    sessionId = args.resume;
    // The conversation goes on; the environment (cwd, date) in its system prompt is today's.
    history = session.messages.map((message) =>
      message.role === 'system' ? { role: 'system', content: systemPrompt } : message,
    );
  }

  const tools = builtinTools();
  const mainAgentId = `main_${randomUUID().slice(0, 8)}`;
  const transcript = new TranscriptWriter({ sessionDir, sessionId, mainAgentId });
  const tree = new AgentTree({ transcriptOf: (agentId) => transcript.pathFor(agentId) });
  const output = outputFor(args, { sessionId, permissionMode, io });
  const controller = new AbortController();
  const stopListening = io.onInterrupt(() => controller.abort());
  // Every event of the tree, background agents' included, the moment it happens: the
  // transcript line goes to disk before anyone is shown the event.
  const record = (event: AgentEvent) => {
    if (transcript.closed) return;
    transcript.write(event);
    tree.observe(event);
    output.event(event);
  };
  const store = TaskStore.open(taskStorePath(sessionDir, sessionId));
  const tasks = new TaskManager({ store, signal: controller.signal, onEvent: record });

  let result: RunResult | undefined;
  try {
    const run = query({
      prompt,
      options: {
        model,
        baseUrl: args.baseUrl,
        systemPrompt,
        tools,
        definitions,
        agent: args.agent,
        maxDepth: args.maxDepth,
        maxParallel: args.maxParallel,
        stallTimeoutMs: args.stallTimeoutMs,
        transcriptPathFor: (agentId) => transcript.pathFor(agentId),
        messages: history,
        cwd,
        maxTurns: args.maxTurns,
        timeBudgetMs: args.timeBudgetMs,
        tokenBudget: args.tokenBudget,
        signal: controller.signal,
        permissions,
        agentId: mainAgentId,
        onEvent: record,
        tasks,
        taskOutputDir: taskOutputDir(sessionDir, sessionId),
        ...(args.resume
          ? {
              resumeTasks: {
                warn: (warning: string) => io.stderr(`warren: warning: ${warning}\n`),
              },
            }
          : {}),
      },
    });
    for await (const event of run) {
      if (event.type === 'result' && event.agentId === mainAgentId) result = event;
    }
  } finally {
    stopListening();
    // The main agent waits for its background work; what is left (it ended early) stops now.
    await tasks.shutdown();
    store.close();
    transcript.close();
  }
  if (!result) throw new Error('the run ended without a result');
  output.finish(resultJson({ result, sessionId, tree }));
  return result.isError ? 1 : 0;
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
