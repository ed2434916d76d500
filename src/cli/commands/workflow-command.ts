// `warren workflow run <file.js>` and `warren workflow resume <run>`: a session whose main agent
// is a driver making one Workflow call (workflow-driver.ts), so items are ordinary background
// children in the session's task store, and a resume is `--resume` of that session: items that
// were running restart from their transcripts, the journal answers the completed ones.
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { isAbsolute, relative, resolve } from 'node:path';
import { ConfigError } from '../../core/config-error.js';
import type { RunResult } from '../../core/events.js';
import { newMainId } from '../../run/main-id.js';
import { runQuery } from '../../run/start-run.js';
import { EventFeed } from '../../session/event-feed.js';
import { defaultSessionDir } from '../../session/session-paths.js';
import { TranscriptWriter } from '../../session/transcript-writer.js';
import type { WorkflowEvent } from '../../workflows/workflow-events.js';
import { readMeta } from '../../workflows/workflow-meta.js';
import { cwdFlag } from '../cwd-flag.js';
import type { WorkflowArgs } from '../parsed-args.js';
import { hostedRun } from '../print/hosted-run.js';
import type { CliIo } from '../print/print-mode.js';
import { setUpRun } from '../run/run-setup.js';
import { DRIVER_PROMPT, WorkflowDriver } from './workflow-driver.js';
import { sessionOfRun } from './workflow-sessions.js';

/** Exit codes: 0 completed, 1 failed or completed with errors, 3 paused (resumable). */
const EXIT: Record<string, number> = {
  completed: 0,
  completed_with_errors: 1,
  failed: 1,
  paused: 3,
};

export async function runWorkflowCommand(args: WorkflowArgs, io: CliIo): Promise<number> {
  const cwd = cwdFlag(args);
  const input = await workflowInput(args, cwd);
  const resumeSession =
    args.action === 'resume'
      ? sessionOfRun(resolve(args.sessionDir ?? defaultSessionDir()), args.runId!)
      : undefined;
  const setup = await setUpRun({ ...args, resume: resumeSession, continue: false }, io);
  const { sessionId } = setup;
  const mainAgentId = newMainId(setup.runIds);
  const feed = new EventFeed({
    transcript: new TranscriptWriter({ sessionDir: setup.sessionDir, sessionId, mainAgentId }),
    warnings: setup.warnings,
  });
  const line = (value: unknown) => io.stdout(`${JSON.stringify(value)}\n`);
  const onEvent = (event: WorkflowEvent) => {
    if (args.outputFormat === 'stream-json') line({ ...event, session_id: sessionId });
    else if (args.outputFormat === 'text') io.stderr(describeEvent(event));
  };
  feed.subscribe((event) => {
    setup.observe(event);
    if (event.type === 'warning') io.stderr(`warren: warning: ${event.message}\n`);
    else if (event.type === 'result' && event.depth === 0 && event.isError) {
      io.stderr(`warren: ${event.error}\n`);
    }
  });
  const result = await hostedRun({
    setup,
    io,
    feed,
    mainAgentId,
    resume: resumeSession !== undefined,
    start: async (run) =>
      runQuery(
        args.action === 'run'
          ? `${DRIVER_PROMPT} Run the workflow in ${args.file}.`
          : `${DRIVER_PROMPT} Resume the workflow run ${args.runId}.`,
        {
          ...run,
          model: new WorkflowDriver(input, randomUUID().slice(0, 8), await run.model),
          // The driver's one call waits for the end: the summary is the command's output.
          workflows: { onEvent, wait: true },
        },
      ),
  });
  return report(result, sessionId, args, io);
}

/** The Workflow call to make: the script and args to run, or the run to resume. */
async function workflowInput(args: WorkflowArgs, cwd: string): Promise<Record<string, unknown>> {
  const budget = args.budget === undefined ? {} : { budget: args.budget };
  if (args.action === 'resume') {
    const script =
      args.script === undefined
        ? {}
        : await scriptInput(cwd, args.script, `--script ${args.script}`);
    return { resumeFromRunId: args.runId, ...script, ...budget };
  }
  const script = await scriptInput(cwd, args.file!, args.file!);
  return {
    ...script,
    args: args.argsJson === undefined ? {} : JSON.parse(args.argsJson),
    ...budget,
  };
}

/** A file in the project goes by path (errors then name it); one outside it, by its text. */
async function scriptInput(
  cwd: string,
  file: string,
  where: string,
): Promise<Record<string, string>> {
  const path = resolve(cwd, file);
  const source = await readScript(path, where);
  const inside = relative(cwd, path);
  return inside.startsWith('..') || isAbsolute(inside)
    ? { script: source }
    : { scriptPath: inside };
}

async function readScript(path: string, where: string): Promise<string> {
  let source: string;
  try {
    source = readFileSync(path, 'utf8');
  } catch (error) {
    throw new ConfigError(
      where,
      `cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
      'give the path of a workflow script (.js)',
    );
  }
  await readMeta(source, where);
  return source;
}

function report(result: RunResult, sessionId: string, args: WorkflowArgs, io: CliIo): number {
  let summary: Record<string, unknown>;
  try {
    summary = JSON.parse(result.result) as Record<string, unknown>;
  } catch {
    io.stderr(`warren: the workflow did not run: ${result.error ?? result.result}\n`);
    return 1;
  }
  if (args.outputFormat === 'text') {
    io.stdout(`${describeSummary(summary)}\n`);
  } else {
    const value = { type: 'workflow_result', session_id: sessionId, ...summary };
    io.stdout(
      args.outputFormat === 'json'
        ? `${JSON.stringify(value, null, 2)}\n`
        : `${JSON.stringify(value)}\n`,
    );
  }
  return EXIT[String(summary.status)] ?? 1;
}

function describeSummary(summary: Record<string, unknown>): string {
  const items = (summary.items ?? {}) as Record<string, number>;
  const lines = [
    `workflow ${String(summary.workflow_name)} (${String(summary.run_id)}): ${String(summary.status)}${summary.reason ? ` — ${String(summary.reason)}` : ''}`,
    `items: ${items.total ?? 0} (${items.completed ?? 0} completed, ${items.failed ?? 0} failed, ${items.no_progress ? `${items.no_progress} no progress, ` : ''}${items.paused ?? 0} paused; ${items.from_journal ?? 0} from the journal)`,
  ];
  const failures = (summary.failed_items ?? []) as {
    label: string;
    status?: string;
    error: string;
  }[];
  for (const failure of failures) {
    lines.push(`  ${failure.status ?? 'failed'}: ${failure.label}: ${failure.error}`);
  }
  if (summary.output_csv_path) lines.push(`results: ${String(summary.output_csv_path)}`);
  if (summary.resume) lines.push(String(summary.resume));
  lines.push(JSON.stringify(summary.result ?? null, null, 2));
  return lines.join('\n');
}

function describeEvent(event: WorkflowEvent): string {
  switch (event.type) {
    case 'workflow_phase':
      return `phase: ${event.title}\n`;
    case 'workflow_log':
      return `log: ${event.message}\n`;
    case 'workflow_warning':
      return `warren: warning: ${event.message}\n`;
    case 'workflow_item': {
      if (event.status === 'running') return '';
      const why = event.error ?? (event.blockedOn && `waiting for ${event.blockedOn}`);
      return `item ${event.label}: ${event.status}${why ? ` (${why})` : ''}\n`;
    }
    default:
      return '';
  }
}
