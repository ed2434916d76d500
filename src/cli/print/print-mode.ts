// `warren -p`: run one prompt of a session assembled by run-setup.ts, stream its events to the
// transcript and the chosen output, and turn the result into an exit code.
import { ConfigError } from '../../core/config-error.js';
import { newMainId } from '../../run/main-id.js';
import { runQuery } from '../../run/start-run.js';
import { EventFeed } from '../../session/event-feed.js';
import { TranscriptWriter } from '../../session/transcript-writer.js';
import { AgentTree } from '../../telemetry/agent-tree.js';
import type { PrintArgs } from '../parsed-args.js';
import { OpenFileFailures, openFileLimit } from '../run/open-file-limit.js';
import { setUpRun } from '../run/run-setup.js';
import { hostedRun } from './hosted-run.js';
import { jsonOutput, type OutputSink, streamJsonOutput, textOutput } from './output-format.js';
import { resultJson } from './result-json.js';

export interface CliIo {
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  readStdin: () => Promise<string>;
  /** stderr is a terminal (a person reads it), not a pipe or a file. */
  stderrIsTerminal?: boolean;
  /** Aborts the run on Ctrl-C; returns a function that stops listening. */
  onInterrupt: (abort: () => void) => () => void;
}

/** Runs a prompt to the end. Returns the exit code; throws ConfigError for bad input. */
export async function runPrintMode(args: PrintArgs, io: CliIo): Promise<number> {
  const prompt = (args.prompt ?? (await io.readStdin())).trim();
  if (!prompt) {
    throw new ConfigError('-p', 'no prompt given', 'warren -p "<prompt>", or pipe it on stdin');
  }
  const setup = await setUpRun(args, io);
  const { sessionId } = setup;
  const mainAgentId = newMainId(setup.runIds);
  // Untrusted project servers, tools definitions list that warren lacks, and problems with the
  // project's instructions and skills are reported once the run has said who the main agent is.
  const feed = new EventFeed({
    transcript: new TranscriptWriter({ sessionDir: setup.sessionDir, sessionId, mainAgentId }),
    warnings: setup.warnings,
  });
  const tree = new AgentTree({ transcriptOf: (agentId) => feed.transcript.pathFor(agentId) });
  const output = outputFor(args, { sessionId, permissionMode: setup.permissionMode, io });
  // Every event of the tree, background agents' included, is shown once, the moment it happens.
  const fileFailures = new OpenFileFailures();
  feed.subscribe((event) => {
    tree.observe(event);
    fileFailures.observe(event);
    setup.observe(event);
    output.event(event);
  });
  const result = await hostedRun({
    setup,
    io,
    feed,
    mainAgentId,
    resume: args.resume !== undefined,
    extra:
      args.outputFormat === 'stream-json'
        ? {
            onWorkflowEvent: (event) =>
              io.stdout(`${JSON.stringify({ ...event, session_id: sessionId })}\n`),
          }
        : {},
    start: (input) => runQuery(prompt, input),
  });
  // The server was never there: a setup mistake (exit 2), not a run that failed.
  const unreachable = result.isError ? setup.unreachable() : undefined;
  if (unreachable) throw unreachable;
  output.finish(resultJson({ result, sessionId, tree }));
  const descriptors = fileFailures.report(openFileLimit());
  if (descriptors) io.stderr(`warren: ${descriptors}\n`);
  // Paused at its budget (--pause-at-budget): resumable, as a paused workflow's exit 3.
  if (result.paused) return 3;
  return result.isError || fileFailures.agentsFailed ? 1 : 0;
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
    stderrIsTerminal: context.io.stderrIsTerminal,
  };
  if (args.outputFormat === 'json') return jsonOutput(options);
  if (args.outputFormat === 'stream-json') return streamJsonOutput(options);
  return textOutput(options);
}
