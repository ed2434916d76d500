// What `warren agents [--json]` shows: every definition with its source, status and load
// problems, as a JSON-ready object and as a text table. Pure: the CLI only prints the result.
import path from 'node:path';
import type {
  AgentFileFormat,
  AgentSource,
  AgentSourceKind,
} from '../../definitions/agent-definition.js';
import type { AgentDiagnostic, AgentLoadStatus } from '../../definitions/agent-load-entry.js';
import type { AgentDefinitionsResult } from '../../definitions/load-agent-definitions.js';
import { unknownToolWarnings } from '../../definitions/normalize-tools.js';
import { terminalSafe } from '../terminal-text.js';
import { textTable } from '../text-table.js';
import { type AgentLimits, limitsOf, limitsSummary, missingSpawnTargets } from './agent-limits.js';
import type { AgentTrust } from './agent-trust.js';

export interface AgentsListingDiagnostic {
  message: string;
  /** 1-based line in the source file; null when not tied to a line. */
  line: number | null;
}

export interface AgentsListingItem {
  name: string;
  /** Null for error entries. */
  description: string | null;
  source: { kind: AgentSourceKind; path: string | null };
  /** The file format it was read as (`warren`, `claude-code`, `opencode`, `codex`, `gemini`); null for built-in and SDK definitions. */
  format: AgentFileFormat | null;
  /** `inherit` when the definition sets none. */
  model: string;
  /** Null: inherits all of the parent's tools. `[]`: no tools. */
  tools: string[] | null;
  disallowedTools: string[];
  /** Null: the Agent tool (if granted) may spawn any type. */
  spawnableAgents: string[] | null;
  /** Delegation targets (`delegate_to_<name>` tools). */
  agents: string[];
  status: AgentLoadStatus;
  /** What narrows what it may do; null for error entries. */
  limits: AgentLimits | null;
  /** Whether what the file may start is used (agent-trust.ts). */
  trust: AgentTrust;
  /** Set on a file that takes the name of a built-in (`explore`): the built-in it replaces. */
  replacesBuiltin: string | null;
  warnings: AgentsListingDiagnostic[];
  notes: AgentsListingDiagnostic[];
  error?: AgentsListingDiagnostic;
}

/** The `--json` output. */
export interface AgentsListing {
  /** Every definition seen, sorted by name; within a name the one in use first. */
  agents: AgentsListingItem[];
  /** Number of error entries. */
  errors: number;
  /** Number of warnings over all entries, the tool warnings included. */
  warnings: number;
  /** One per tool name that definitions list but warren lacks, naming those definitions. */
  toolWarnings: string[];
}

export function agentsListing(
  result: AgentDefinitionsResult,
  trustOf: (source: AgentSource) => AgentTrust = () => 'trusted',
): AgentsListing {
  const builtins = new Set(
    result.entries.filter((entry) => entry.source.kind === 'builtin').map((entry) => entry.name),
  );
  const agents = result.entries
    .map((entry): AgentsListingItem => {
      const definition = entry.definition;
      const missing = definition ? missingSpawnTargets(definition, result.definitions) : [];
      const replaces =
        entry.source.kind !== 'builtin' && entry.status === 'ok' && builtins.has(entry.name);
      return {
        name: entry.name,
        description: definition?.description ?? null,
        source: { kind: entry.source.kind, path: entry.source.path ?? null },
        format: entry.source.format ?? null,
        model: definition?.model ?? 'inherit',
        tools: definition?.tools ?? null,
        disallowedTools: definition?.disallowedTools ?? [],
        spawnableAgents: definition?.spawnableAgents ?? null,
        agents: definition?.agents ?? [],
        status: entry.status,
        limits: definition ? limitsOf(definition) : null,
        trust: trustOf(entry.source),
        replacesBuiltin: replaces ? entry.name : null,
        warnings: [
          ...entry.warnings.map(listingDiagnostic),
          ...missing.map((name) => ({
            message: `it may start \`${name}\`, which no definition provides; that call will fail`,
            line: null,
          })),
        ],
        notes: entry.notes.map(listingDiagnostic),
        ...(entry.error && { error: listingDiagnostic(entry.error) }),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
  const toolWarnings = unknownToolWarnings(result.entries);
  return {
    agents,
    errors: agents.filter((agent) => agent.status === 'error').length,
    warnings: agents.reduce((sum, agent) => sum + agent.warnings.length, toolWarnings.length),
    toolWarnings,
  };
}

function listingDiagnostic(diagnostic: AgentDiagnostic): AgentsListingDiagnostic {
  return { message: diagnostic.message, line: diagnostic.line ?? null };
}

export interface FormatAgentsListingOptions {
  /** Paths under it are shown relative to it. */
  cwd?: string;
  /** Paths under it are shown as `~/…`. */
  homeDir?: string;
}

/**
 * A table (name, source, format, model, tools, warnings, status), then each error and warning
 * with file:line. Names, paths and messages come from files: every one is made terminal-safe.
 */
export function formatAgentsListing(
  listing: AgentsListing,
  options: FormatAgentsListingOptions = {},
): string {
  const show = (source: AgentsListingItem['source']) =>
    terminalSafe(displaySource(source, options));
  const rows = [
    ['NAME', 'SOURCE', 'FORMAT', 'MODEL', 'TOOLS', 'LIMITS', 'TRUSTED', 'WARNINGS', 'STATUS'],
    ...listing.agents.map((agent) => [
      terminalSafe(agent.name),
      agent.source.path === null
        ? show(agent.source)
        : `${agent.source.kind} ${show(agent.source)}`,
      agent.format ?? '-',
      agent.status === 'error' ? '-' : terminalSafe(agent.model),
      agent.status === 'error' ? '-' : agent.tools === null ? 'all' : String(agent.tools.length),
      agent.limits === null ? '-' : terminalSafe(limitsSummary(agent.limits)),
      agent.trust === 'trusted' ? 'yes' : agent.trust === 'changed' ? 'changed' : 'no',
      String(agent.warnings.length),
      agent.replacesBuiltin === null ? agent.status : `${agent.status}, replaces built-in`,
    ]),
  ];
  const lines = textTable(rows);

  const problems = (kind: 'errors' | 'warnings') =>
    listing.agents.flatMap((agent) => {
      const list = kind === 'errors' ? (agent.error ? [agent.error] : []) : agent.warnings;
      return list.map(
        (d) =>
          `  ${show(agent.source)}${d.line === null ? '' : `:${d.line}`}: ${terminalSafe(d.message)}`,
      );
    });
  const errors = problems('errors');
  const warnings = [
    ...listing.toolWarnings.map((message) => `  ${message}`),
    ...problems('warnings'),
  ];
  if (errors.length > 0) lines.push('', 'Errors:', ...errors);
  if (warnings.length > 0) lines.push('', 'Warnings:', ...warnings);

  const inUse = listing.agents.filter((agent) => agent.status === 'ok').length;
  const overridden = listing.agents.filter((agent) => agent.status === 'overridden').length;
  lines.push(
    '',
    `${inUse} agent${inUse === 1 ? '' : 's'} in use, ${overridden} overridden, ${plural(listing.errors, 'error')}, ${plural(listing.warnings, 'warning')}`,
  );
  return `${lines.join('\n')}\n`;
}

function displaySource(
  source: AgentsListingItem['source'],
  options: FormatAgentsListingOptions,
): string {
  if (source.path === null) return source.kind === 'builtin' ? 'built-in' : source.kind;
  return shortenPath(source.path, options);
}

function shortenPath(file: string, { cwd, homeDir }: FormatAgentsListingOptions): string {
  if (cwd && isInside(file, cwd)) return path.relative(cwd, file);
  if (homeDir && isInside(file, homeDir)) return path.join('~', path.relative(homeDir, file));
  return file;
}

function isInside(file: string, dir: string): boolean {
  const relative = path.relative(dir, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}

function plural(count: number, word: string): string {
  return `${count} ${word}${count === 1 ? '' : 's'}`;
}
