// The commands typed at the prompt: `/help`, `/clear`, `/cost`, `/agents`, `/tasks`, `/resume`,
// `/exit`. Each writes what it has to say into the conversation; none of them talks to the model.
import { homedir } from 'node:os';
import { ConfigError } from '../../core/config-error.js';
import { savedSessions } from '../../session/saved-sessions.js';
import { agentsListing, formatAgentsListing } from '../commands/agents-listing.js';
import { terminalSafe } from '../terminal-text.js';
import { textTable } from '../text-table.js';
import type { InteractiveSession } from './interactive-session.js';
import { runTasksCommand, TASKS_USAGE } from './tasks-command.js';

export interface CommandContext {
  session: InteractiveSession;
  /** Clears the terminal and what the UI has written to it (`/clear`). */
  clearScreen: () => void;
  exit: () => void;
}

interface SlashCommand {
  name: string;
  usage: string;
  summary: string;
  run(context: CommandContext, argument: string): void | Promise<void>;
}

const KEYS_HELP = [
  ['Enter', 'send the prompt (while a turn runs, it waits for it)'],
  ['Shift+Enter, Alt+Enter, \\ Enter', 'a new line in the prompt'],
  ['Up / Down', 'earlier prompts'],
  ['Esc', "end the main agent's turn (background tasks go on)"],
  ['Ctrl+B', 'send the running sub-agents to the background'],
  ['Ctrl+O', 'the result of the background task that ended last'],
  ['Tab', 'answer a question from a background agent'],
  ['Ctrl+C twice', 'exit: everything running is stopped'],
  ['y / a / n', 'answer a permission question: once, always (every agent), no'],
] as const;

const COMMANDS: readonly SlashCommand[] = [
  {
    name: 'help',
    usage: '/help',
    summary: 'keys and commands',
    run({ session }) {
      const width = Math.max(...KEYS_HELP.map(([key]) => key.length));
      const keys = KEYS_HELP.map(([key, what]) => `  ${key.padEnd(width)}  ${what}`);
      const usageWidth = Math.max(...COMMANDS.map((command) => command.usage.length));
      const commands = COMMANDS.map(
        (command) => `  ${command.usage.padEnd(usageWidth)}  ${command.summary}`,
      );
      session.view.add({
        kind: 'output',
        title: 'Keys and commands',
        text: ['Keys:', ...keys, '', 'Commands:', ...commands].join('\n'),
      });
    },
  },
  {
    name: 'clear',
    usage: '/clear',
    summary: 'forget the conversation and start a new session',
    async run({ session, clearScreen }) {
      if (refuseWhileBusy(session, '/clear')) return;
      await session.clear();
      clearScreen();
      session.view.add({ kind: 'notice', tone: 'info', text: `New session ${session.sessionId}.` });
    },
  },
  {
    name: 'cost',
    usage: '/cost',
    summary: 'tokens, cost and time of every agent of this session, as a tree',
    run({ session }) {
      session.view.add({ kind: 'output', title: 'Usage', text: session.costTable() });
    },
  },
  {
    name: 'agents',
    usage: '/agents',
    summary: 'agent definitions, where they come from, and their load warnings',
    run({ session }) {
      const { cwd, agents } = session.setup;
      session.view.add({
        kind: 'output',
        title: 'Agents',
        text: formatAgentsListing(agentsListing(agents), { cwd, homeDir: homedir() }),
      });
    },
  },
  {
    name: 'tasks',
    usage: TASKS_USAGE,
    summary: 'background tasks: list them, open one (result, transcript), stop one',
    run({ session }, argument) {
      return runTasksCommand(session, argument);
    },
  },
  {
    name: 'resume',
    usage: '/resume [<session-id>]',
    summary: 'go on with a saved session; without an id, list the latest',
    async run({ session, clearScreen }, argument) {
      if (!argument) {
        session.view.add({
          kind: 'output',
          title: 'Latest sessions',
          text: latestSessions(session.setup.sessionDir),
        });
        return;
      }
      if (refuseWhileBusy(session, '/resume')) return;
      try {
        await session.resume(argument);
        clearScreen();
      } catch (error) {
        if (!ConfigError.isInstance(error)) throw error;
        session.view.add({ kind: 'notice', tone: 'error', text: error.message });
      }
    },
  },
  {
    name: 'exit',
    usage: '/exit',
    summary: 'stop everything and leave (as Ctrl+C twice)',
    run({ exit }) {
      exit();
    },
  },
];

/** Runs `/name argument`; an unknown name says which exist. */
export async function runSlashCommand(context: CommandContext, line: string): Promise<void> {
  const [word = '', ...rest] = line.trim().slice(1).split(/\s+/);
  const command = COMMANDS.find((candidate) => candidate.name === word.toLowerCase());
  if (!command) {
    const known = COMMANDS.map((candidate) => `/${candidate.name}`).join(', ');
    context.session.view.add({
      kind: 'notice',
      tone: 'error',
      text: `Unknown command /${word}. Commands: ${known}.`,
    });
    return;
  }
  await command.run(context, rest.join(' '));
}

/** The session's conversation and tasks stay while a turn or a background task runs. */
function refuseWhileBusy(session: InteractiveSession, command: string): boolean {
  const text = session.busy
    ? `${command} waits for the turn to end: press Esc to stop it first.`
    : session.hasRunningTasks
      ? `${command} waits for the background tasks: /tasks stop <n> stops one.`
      : undefined;
  if (text === undefined) return false;
  session.view.add({ kind: 'notice', tone: 'warning', text });
  return true;
}

/** The ten newest sessions with a prompt, newest first: id, age, folder and first prompt. */
function latestSessions(sessionDir: string): string {
  const sessions = savedSessions(sessionDir, 10);
  if (sessions.length === 0) return `No sessions in ${sessionDir} yet.`;
  const now = Date.now();
  const rows = sessions.map((session) => [
    session.id,
    ageOf(now - session.modifiedAt),
    terminalSafe(shownFolder(session.cwd)),
    terminalSafe(oneLine(session.firstPrompt)),
  ]);
  const table = textTable(rows).map((line) => `  ${line}`);
  return [...table, '', 'Resume one with /resume <session-id>.'].join('\n');
}

function ageOf(ms: number): string {
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  return hours < 48 ? `${hours}h ago` : `${Math.floor(hours / 24)}d ago`;
}

function shownFolder(cwd: string | undefined): string {
  if (cwd === undefined) return '?';
  const home = homedir();
  return cwd === home || cwd.startsWith(`${home}/`) ? `~${cwd.slice(home.length)}` : cwd;
}

/** The first line, at most 60 characters. */
function oneLine(text: string): string {
  const line = text.trim().split('\n', 1)[0] ?? '';
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}
