// The paths no mode short of bypassPermissions writes without asking: what warren and other agent
// tools read on their next run as agents, settings, hooks, MCP servers or instructions, and .git,
// whose hooks and config run code. A change there would outlive the run and widen what it may do.
import path from 'node:path';
import { warrenHome } from '../core/warren-home.js';
import { canonicalLocation, isInside } from '../tools/allowed-path.js';

/** Protected names, matched case-insensitively as any component of a path, with what they hold. */
const PROTECTED: ReadonlyMap<string, string> = new Map([
  ['.git', 'git hooks and config, which run code'],
  ['.warren', "warren's agents and settings"],
  ['.claude', "Claude Code's agents, settings, commands and hooks"],
  ['.opencode', "opencode's agents and config"],
  ['.codex', "Codex's config"],
  ['.gemini', "Gemini CLI's settings"],
  ['.mcp.json', 'the MCP servers agent tools start'],
  ['opencode.json', "opencode's config"],
  ['opencode.jsonc', "opencode's config"],
  ['AGENTS.md', 'instructions agent tools follow'],
  ['CLAUDE.md', 'instructions Claude Code follows'],
  ['CLAUDE.local.md', 'instructions Claude Code follows'],
  ['GEMINI.md', 'instructions Gemini CLI follows'],
  ['WARREN.md', 'instructions warren follows'],
]);

const BY_LOWER_CASE = new Map([...PROTECTED.keys()].map((name) => [name.toLowerCase(), name]));

export interface ProtectedPath {
  /** The protected name as listed: `.claude`, `AGENTS.md`. */
  name: string;
  /** What it holds, for messages. */
  holds: string;
}

/**
 * The protected name among the components of `relativePath`, if any. Case-insensitive, since
 * macOS and Windows file systems are.
 */
export function protectedComponent(relativePath: string): ProtectedPath | undefined {
  for (const component of relativePath.split(/[\\/]/)) {
    const name = BY_LOWER_CASE.get(component.toLowerCase());
    if (name !== undefined) return { name, holds: PROTECTED.get(name) ?? '' };
  }
  return undefined;
}

/**
 * Whether writing `filePath` (relative to `cwd`) would change a protected path, through symlinks
 * too: one holding a protected name, or anything in warren's home (`$WARREN_HOME`, `~/.warren`). Components are counted from the innermost of `bases` (cwd, the allowed folders) holding
 * the file, so an agent working inside `.warren/worktrees/x` may still write its own files.
 */
export async function protectedWrite(
  filePath: string,
  cwd: string,
  bases: readonly string[],
): Promise<ProtectedPath | undefined> {
  const requested = path.resolve(cwd, filePath);
  const real = await canonicalLocation(requested);
  const home = path.resolve(warrenHome());
  const realHome = (await canonicalLocation(home)) ?? home;
  if (isInside(requested, home) || isInside(real ?? requested, realHome)) {
    const holds = "warren's own files: user settings and agents, the MCP trust record, sessions";
    return { name: path.basename(home), holds };
  }
  const realBases = await Promise.all(
    bases.map((base) => canonicalLocation(path.resolve(cwd, base))),
  );
  const checks: [string, readonly string[]][] = [
    [requested, bases.map((base) => path.resolve(cwd, base))],
    [
      real ?? requested,
      realBases.map((base, index) => base ?? path.resolve(cwd, bases[index] ?? '')),
    ],
  ];
  for (const [file, candidates] of checks) {
    const found = protectedComponent(path.relative(innermostBase(file, candidates), file));
    if (found !== undefined) return found;
  }
  return undefined;
}

/** The deepest base that holds `file`; the root when none does. */
function innermostBase(file: string, bases: readonly string[]): string {
  const holding = bases.filter((base) => {
    const relative = path.relative(base, file);
    return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
  });
  return holding.sort((a, b) => b.length - a.length)[0] ?? path.parse(file).root;
}

/**
 * The protected name a Bash command mentions as a path component, with quotes and backslashes
 * taken out (`.cl""aude` is `.claude` to bash). A command that builds the name from variables,
 * braces or patterns is not seen here.
 */
export function protectedInCommand(command: string): ProtectedPath | undefined {
  const unquoted = command.replaceAll(/["'\\]/g, '');
  for (const token of unquoted.split(/[\s;&|<>()=:,`$]+/)) {
    const found = protectedComponent(token);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** Whether a rule's specifier names the protected path, as `Edit(.claude/**)` names `.claude`. */
export function namesProtected(
  specifier: string | undefined,
  protectedPath: ProtectedPath,
): boolean {
  if (specifier === undefined) return false;
  return specifier
    .toLowerCase()
    .split(/[\s/()'"=:]+/)
    .includes(protectedPath.name.toLowerCase());
}
