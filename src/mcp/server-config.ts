// The MCP server configurations warren accepts, in the shape of Claude Code's `.mcp.json`
// (stdio, Streamable HTTP, legacy SSE) plus in-process SDK servers for the library, and their
// checked, expanded form. Every mistake is a ConfigError that names the field and the fix.
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { z } from 'zod';
import { ConfigError } from '../core/config-error.js';
import { lazy } from '../core/lazy.js';
import { expandVariables, MissingVariableError } from './expand-env.js';

/** A server started as a process and spoken to over its stdin and stdout. */
export interface McpStdioServerConfig {
  type?: 'stdio';
  command: string;
  args?: string[];
  env?: Record<string, string>;
  /** Relative to the agent's working directory. Default: that directory. */
  cwd?: string;
}

/**
 * A server reached over Streamable HTTP (`http`) or the legacy HTTP+SSE transport (`sse`).
 * Without a `type`, Streamable HTTP is tried first and SSE if the server refuses it.
 */
export interface McpRemoteServerConfig {
  type?: 'http' | 'sse';
  url: string;
  headers?: Record<string, string>;
}

/** Anything the SDK's client can be linked to in memory: an `McpServer` or a low-level `Server`. */
export interface McpServerObject {
  connect(transport: Transport): Promise<void>;
}

/** An in-process server: the library user's own tools, without a process or a socket. */
export interface McpInProcessServerConfig {
  type: 'sdk';
  instance: McpServerObject;
}

export type McpServerConfig =
  | McpStdioServerConfig
  | McpRemoteServerConfig
  | McpInProcessServerConfig;

/** What `query({ options: { mcpServers } })` takes for each name: a config, or the server object. */
export type McpServerInput = McpServerConfig | McpServerObject;

/** A server ready to start: named, checked, variables expanded. */
export interface McpServerSpec {
  name: string;
  config: ResolvedServerConfig;
  /** Where it was configured, for messages: a file, `mcpServers option`, an agent. */
  source: string;
}

export type ResolvedServerConfig =
  | {
      transport: 'stdio';
      command: string;
      args: string[];
      env: Record<string, string>;
      cwd: string | undefined;
    }
  | {
      transport: 'http';
      url: string;
      headers: Record<string, string>;
      /** No `type` was written: a server that refuses Streamable HTTP is tried as SSE. */
      sseFallback: boolean;
    }
  | { transport: 'sse'; url: string; headers: Record<string, string> }
  | { transport: 'in-process'; instance: McpServerObject };

export type McpTransportName = ResolvedServerConfig['transport'];

/** Server names: what a definition's `mcpServers` and a permission rule can refer to. */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const CONFIG_SHAPE =
  'a server is {"command": "npx", "args": ["-y", "some-server"], "env": {}} or {"type": "http", "url": "https://…", "headers": {}} or {"type": "sse", "url": "…"}';

const stringMap = () => z.record(z.string(), z.string());
// Loose objects: real files carry keys of other clients (`disabled`, `autoApprove`, `timeout`).
// Made on first use: a run without MCP servers never needs them.
const stdioSchema = lazy(() =>
  z.looseObject({
    type: z.literal('stdio').optional(),
    command: z.string().trim().min(1),
    args: z.array(z.string()).optional(),
    env: stringMap().optional(),
    cwd: z.string().optional(),
  }),
);
const remoteSchema = lazy(() =>
  z.looseObject({
    type: z.enum(['http', 'streamable-http', 'streamableHttp', 'sse']).optional(),
    url: z.string().trim().min(1),
    headers: stringMap().optional(),
  }),
);

export interface ConfigLocation {
  /** Where a field is, as a person finds it: `.mcp.json:4:7`, `agent x: mcpServers[1]`. */
  at(fieldPath: readonly (string | number)[]): string;
}

export interface ParseServerOptions {
  location: ConfigLocation;
  /** For `${VAR}` expansion; files expand, the library's objects are taken as they are. */
  env?: NodeJS.ProcessEnv;
}

function checkServerName(name: string, location: ConfigLocation): void {
  if (SERVER_NAME.test(name)) return;
  throw new ConfigError(
    location.at([name]),
    `the server name ${JSON.stringify(name.slice(0, 80))} cannot be used`,
    'name it with letters, digits, ".", "_" and "-" (at most 64, starting with a letter or digit)',
  );
}

/** @throws ConfigError naming the field and the fix */
export function parseServerConfig(
  name: string,
  raw: unknown,
  options: ParseServerOptions,
): ResolvedServerConfig {
  const { location } = options;
  checkServerName(name, location);
  if (isServerObject(raw)) return { transport: 'in-process', instance: raw };
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) {
    throw new ConfigError(location.at([name]), `server "${name}" must be an object`, CONFIG_SHAPE);
  }
  const fields = raw as Record<string, unknown>;
  const type = fields.type;
  if (type === 'sdk') {
    if (isServerObject(fields.instance))
      return { transport: 'in-process', instance: fields.instance };
    throw new ConfigError(
      location.at([name, 'instance']),
      `server "${name}": "instance" must be an McpServer object`,
      'pass the McpServer from @modelcontextprotocol/sdk/server/mcp.js itself',
    );
  }
  const expand = (value: string, field: (string | number)[]) =>
    options.env ? expandField(value, options.env, location.at([name, ...field]), name) : value;
  if (type === 'stdio' || (type === undefined && 'command' in fields)) {
    const stdio = check(stdioSchema(), fields, name, location);
    return {
      transport: 'stdio',
      command: expand(stdio.command, ['command']),
      args: (stdio.args ?? []).map((arg, i) => expand(arg, ['args', i])),
      env: mapValues(stdio.env ?? {}, (value, key) => expand(value, ['env', key])),
      cwd: stdio.cwd === undefined ? undefined : expand(stdio.cwd, ['cwd']),
    };
  }
  if (type === undefined && !('url' in fields)) {
    throw new ConfigError(
      location.at([name]),
      `server "${name}" has neither "command" nor "url"`,
      CONFIG_SHAPE,
    );
  }
  if (type !== undefined && !remoteSchema().shape.type.safeParse(type).success) {
    throw new ConfigError(
      location.at([name, 'type']),
      `server "${name}": type ${JSON.stringify(type)} is not supported`,
      'use "stdio" (or leave it out with a "command"), "http" or "sse"',
    );
  }
  const remote = check(remoteSchema(), fields, name, location);
  const url = expand(remote.url, ['url']);
  checkUrl(url, name, location.at([name, 'url']));
  const headers = mapValues(remote.headers ?? {}, (value, key) => expand(value, ['headers', key]));
  if (remote.type === 'sse') return { transport: 'sse', url, headers };
  return { transport: 'http', url, headers, sseFallback: remote.type === undefined };
}

/**
 * The library's `mcpServers` option, checked: field errors name `mcpServers.<name>.<field>`.
 * Strings are taken as written (no `${VAR}` expansion: the program has its variables at hand).
 */
export function serverSpecsOf(
  servers: Readonly<Record<string, McpServerInput>>,
  source = 'the mcpServers option',
): McpServerSpec[] {
  const location: ConfigLocation = {
    at: (fieldPath) => `mcpServers.${fieldPath.join('.')}`,
  };
  return Object.entries(servers).map(([name, raw]) => ({
    name,
    config: parseServerConfig(name, raw, { location }),
    source,
  }));
}

/** A checked config in the input shape again: how the CLI hands file servers to `query()`. */
export function serverConfigOf(config: ResolvedServerConfig): McpServerConfig {
  switch (config.transport) {
    case 'stdio':
      return { command: config.command, args: config.args, env: config.env, cwd: config.cwd };
    case 'http':
      return config.sseFallback
        ? { url: config.url, headers: config.headers }
        : { type: 'http', url: config.url, headers: config.headers };
    case 'sse':
      return { type: 'sse', url: config.url, headers: config.headers };
    case 'in-process':
      return { type: 'sdk', instance: config.instance };
  }
}

function isServerObject(value: unknown): value is McpServerObject {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { connect?: unknown }).connect === 'function'
  );
}

function check<T>(
  schema: z.ZodType<T>,
  fields: Record<string, unknown>,
  name: string,
  location: ConfigLocation,
): T {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  const path = issue.path.filter((key): key is string | number => typeof key !== 'symbol');
  const field = path.length > 0 ? ` field "${path.join('.')}"` : '';
  throw new ConfigError(
    location.at([name, ...path]),
    `server "${name}"${field}: ${issue.message}`,
    CONFIG_SHAPE,
  );
}

function expandField(value: string, env: NodeJS.ProcessEnv, where: string, name: string): string {
  try {
    return expandVariables(value, env);
  } catch (error) {
    if (!(error instanceof MissingVariableError)) throw error;
    throw new ConfigError(
      where,
      `server "${name}" ${error.message}`,
      `set ${error.variable}, or give a default: \${${error.variable}:-value}`,
    );
  }
}

function checkUrl(url: string, name: string, where: string): void {
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  if (parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:')) return;
  throw new ConfigError(
    where,
    `server "${name}": the url is not an http(s) address`,
    'write the full address, e.g. "https://example.com/mcp"',
  );
}

function mapValues(
  record: Record<string, string>,
  map: (value: string, key: string) => string,
): Record<string, string> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value, key)]));
}
