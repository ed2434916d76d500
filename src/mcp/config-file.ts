// `.mcp.json` and `--mcp-config` files: read once (their text is also what trust is pinned to),
// checked against the shape, each server parsed with errors that point at file:line:column.
import { createHash } from 'node:crypto';
import { ConfigError } from '../core/config-error.js';
import {
  findNodeAtLocation,
  type JsonNode as Node,
  type JsonParseError as ParseError,
  parseTree,
} from '../core/json-tree.js';
import { CONFIG_FILE_MAX_BYTES, isRefusedFile, readRegularText } from '../core/regular-file.js';
import { CONFIG_SHAPE, type McpServerSpec, parseServerConfig } from './server-config.js';

/** The project's own server file, at the root of the working directory. */
export const PROJECT_MCP_FILE = '.mcp.json';

export interface McpConfigFile {
  /** Absolute: what the trust record is keyed by. */
  path: string;
  /** As a person refers to it in messages: as typed, or relative to the project. */
  label: string;
  text: string;
  sha256: string;
}

const FILE_SHAPE = `the file looks like {"mcpServers": {"<name>": {…}}}; ${CONFIG_SHAPE}`;

/** Reads a config file; undefined when it does not exist and `optional` (a project file). */
export async function readMcpConfigFile(
  path: string,
  label: string,
  { optional = false } = {},
): Promise<McpConfigFile | undefined> {
  let text: string;
  try {
    text = await readRegularText(path, { maxBytes: CONFIG_FILE_MAX_BYTES });
  } catch (error) {
    if (isRefusedFile(error)) throw new ConfigError(label, error.problem, error.fix);
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' && optional) return undefined;
    throw new ConfigError(
      label,
      code === 'ENOENT' ? 'no such file' : `cannot be read: ${(error as Error).message}`,
      'give the path of an MCP config file ({"mcpServers": {…}})',
    );
  }
  return { path, label, text, sha256: sha256Of(text) };
}

export function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/**
 * The servers of a file, variables expanded from `env` (left as written without it).
 * @throws ConfigError naming file:line:column, the field and the fix
 */
export function parseMcpConfigFile(
  file: McpConfigFile,
  env: NodeJS.ProcessEnv | undefined,
): McpServerSpec[] {
  const { value, tree } = parseJson(file);
  const at = (fieldPath: readonly (string | number)[]) =>
    locate(file, tree, ['mcpServers', ...fieldPath]);
  const servers = (value as { mcpServers?: unknown } | null)?.mcpServers;
  if (
    typeof value !== 'object' ||
    value === null ||
    Array.isArray(value) ||
    servers === undefined
  ) {
    throw new ConfigError(`${file.label}:1:1`, 'has no "mcpServers" object', FILE_SHAPE);
  }
  if (typeof servers !== 'object' || servers === null || Array.isArray(servers)) {
    throw new ConfigError(at([]), '"mcpServers" must be an object of named servers', FILE_SHAPE);
  }
  return Object.entries(servers).map(([name, raw]) => ({
    name,
    config: parseServerConfig(name, raw, { location: { at }, env }),
    source: file.label,
  }));
}

/**
 * The server names a file declares, without checking them: for a file that is not used. Made
 * printable (a name from an unknown file must not carry terminal escapes to the screen).
 */
export function serverNamesOf(file: McpConfigFile): string[] {
  let servers: unknown;
  try {
    servers = (JSON.parse(file.text) as { mcpServers?: unknown }).mcpServers;
  } catch {
    return [];
  }
  if (typeof servers !== 'object' || servers === null) return [];
  return Object.keys(servers).map((name) => name.replace(/[^\x20-\x7e]/g, '?').slice(0, 64));
}

/** JSON.parse decides what is valid; the syntax tree gives positions. */
function parseJson(file: McpConfigFile): { value: unknown; tree: Node | undefined } {
  try {
    return { value: JSON.parse(file.text), tree: parseTree(file.text) };
  } catch (error) {
    const errors: ParseError[] = [];
    parseTree(file.text, errors, { disallowComments: true, allowTrailingComma: false });
    const reason = (error as Error).message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/, (?:\.\.\.)?".*$/s, '');
    throw new ConfigError(
      `${file.label}:${lineAndColumn(file.text, errors[0]?.offset ?? file.text.length)}`,
      `not valid JSON: ${reason}`,
      'MCP config files are strict JSON: double-quoted names and strings, no comments, no trailing commas',
    );
  }
}

/** `file:line:column` of the field, or of the nearest enclosing field the file has. */
function locate(
  file: McpConfigFile,
  tree: Node | undefined,
  fieldPath: readonly (string | number)[],
): string {
  for (let depth = fieldPath.length; depth > 0 && tree; depth--) {
    const node = findNodeAtLocation(tree, [...fieldPath.slice(0, depth)]);
    if (!node) continue;
    const start = node.parent?.type === 'property' ? node.parent.offset : node.offset;
    return `${file.label}:${lineAndColumn(file.text, start)}`;
  }
  return `${file.label}:1:1`;
}

function lineAndColumn(text: string, offset: number): string {
  const before = text.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  return `${line}:${column}`;
}
