// The `warren` command: parse, dispatch, and map every outcome to an exit code. Bad input is
// one line on stderr and exit 2, never a stack trace. Signals: the first stops the run cleanly,
// a second leaves at once; either way no process a tool started outlives warren.
import { constants } from 'node:os';
import { ConfigError } from '../core/config-error.js';
import { killLiveGroups } from '../core/process-group.js';
import { parseCliArgs } from './cli-args.js';
import { HELP } from './help-text.js';
import { packageVersion } from './package-version.js';
import type { CliIo } from './print/print-mode.js';

export async function main(argv: readonly string[], io: CliIo): Promise<number> {
  try {
    const args = parseCliArgs(argv);
    switch (args.command) {
      case 'help':
        io.stdout(HELP);
        return 0;
      case 'version':
        io.stdout(`${packageVersion()}\n`);
        return 0;
      // Each command loads its own modules: start-up stays short for the one being run.
      case 'interactive':
        return await (await import('./tui/interactive-command.js')).runInteractive(args, io);
      case 'agents':
        return await (await import('./commands/agents-command.js')).runAgentsCommand(args, io);
      case 'tasks':
        return await (await import('./commands/tasks-command.js')).runTasksCommand(args, io);
      case 'worktrees':
        return await (await import('./commands/worktrees-command.js')).runWorktreesCommand(
          args,
          io,
        );
      case 'mcp':
        return await (await import('./commands/mcp-command.js')).runMcpCommand(args, io);
      case 'serve':
        try {
          return await (await import('./commands/serve-command.js')).runServeCommand(args, io);
        } finally {
          killLiveGroups();
        }
      case 'acp':
        try {
          return await (await import('./commands/acp-command.js')).runAcpCommand(args, io);
        } finally {
          killLiveGroups();
        }
      case 'restate':
        return await (await import('./commands/restate-command.js')).runRestateCommand(args, io);
      case 'trust':
        return await (await import('./commands/trust-command.js')).runTrustCommand(args, io);
      case 'print':
        try {
          return await (await import('./print/print-mode.js')).runPrintMode(args, io);
        } finally {
          // The run is over: a tool process still alive (one that ignored its stop, a
          // background job) was started by it, and must not outlive it.
          killLiveGroups();
        }
      case 'workflow':
        try {
          return await (await import('./commands/workflow-command.js')).runWorkflowCommand(
            args,
            io,
          );
        } finally {
          killLiveGroups();
        }
      case 'workflows':
        return await (await import('./commands/workflows-command.js')).runWorkflowsCommand(
          args,
          io,
        );
      case 'usage':
        return await (await import('./commands/usage-command.js')).runUsageCommand(args, io);
      case 'report':
        return await (await import('./commands/report-command.js')).runReportCommand(args, io);
    }
  } catch (error) {
    if (ConfigError.isInstance(error)) {
      io.stderr(`warren: ${error.message}\n`);
      return 2;
    }
    io.stderr(`warren: internal error: ${error instanceof Error ? error.stack : String(error)}\n`);
    return 1;
  }
}

/** Without a handler, SIGHUP (the terminal closed) would end node before tools are stopped. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

export const processIo: CliIo = {
  stdout: (text) => process.stdout.write(text),
  stderr: (text) => process.stderr.write(text),
  stderrIsTerminal: process.stderr.isTTY === true,
  async readStdin() {
    if (process.stdin.isTTY) return '';
    let text = '';
    for await (const chunk of process.stdin) text += chunk;
    return text;
  },
  onInterrupt(abort) {
    // The first Ctrl-C, SIGTERM or SIGHUP stops the run cleanly (the result is still printed);
    // a second one exits at once, 128 + the signal's number, as a shell reports a signal.
    let interrupted = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (interrupted) {
        killLiveGroups();
        process.exit(128 + constants.signals[signal]);
      }
      interrupted = true;
      abort();
    };
    for (const signal of STOP_SIGNALS) process.on(signal, onSignal);
    return () => {
      for (const signal of STOP_SIGNALS) process.off(signal, onSignal);
    };
  },
};
