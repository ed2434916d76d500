// An MCP server a project file declares (`.mcp.json`, a definition's inline `mcpServers`) as a
// trust item: command, arguments, env, cwd, url and headers as written, and the project's files
// its command line names.
import { resolve } from 'node:path';
import { isRecord } from './hook-items.js';
import { namedProjectFiles } from './named-files.js';
import type { TrustItem } from './trust-item.js';

export function mcpServerItem(params: {
  file: string;
  field: string;
  name: string;
  config: unknown;
  projectDir: string;
  /** Added to the action: ` for agent "tooler"`. */
  owner?: string;
}): TrustItem {
  const { projectDir } = params;
  const config = isRecord(params.config) ? params.config : { value: params.config };
  const fields: Record<string, string> = {};
  for (const [key, value] of Object.entries(config)) {
    if ((key === 'env' || key === 'headers') && isRecord(value)) {
      for (const [name, inner] of Object.entries(value)) fields[`${key}.${name}`] = text(inner);
    } else {
      fields[key] = key === 'args' ? JSON.stringify(value) : text(value);
    }
  }
  const args = Array.isArray(config.args) ? config.args.map(text) : [];
  const env = isRecord(config.env) ? Object.entries(config.env) : [];
  const runs = typeof config.command === 'string';
  const cwd = typeof config.cwd === 'string' ? resolve(projectDir, config.cwd) : projectDir;
  const files = runs
    ? namedProjectFiles(
        [config.command as string, ...args, ...env.map(([, value]) => text(value))],
        [cwd, projectDir],
        projectDir,
      )
    : {};
  const what = runs
    ? `start MCP server "${params.name}": \`${[config.command as string, ...args].join(' ')}\`${
        env.length > 0 ? ` with env ${env.map(([k, v]) => `${k}=${text(v)}`).join(' ')}` : ''
      }${typeof config.cwd === 'string' ? ` in ${config.cwd}` : ''}`
    : `connect to MCP server "${params.name}" at ${text(config.url)}${
        isRecord(config.headers)
          ? ` with headers ${Object.entries(config.headers)
              .map(([k, v]) => `${k}: ${text(v)}`)
              .join(', ')}`
          : ''
      }`;
  return {
    kind: 'mcp-server',
    file: params.file,
    field: params.field,
    action: `${what}${params.owner ?? ''}`,
    fields,
    files,
  };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value));
}
