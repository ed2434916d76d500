// A workflow's `export const meta = { name, description }`, read without running the script: the
// object literal is cut out of the source and evaluated alone in a fresh QuickJS context.
import { ConfigError } from '../core/config-error.js';
import { loadQuickJs } from './workflow-sandbox.js';

export interface WorkflowMeta {
  name: string;
  description: string;
  whenToUse?: string;
}

const META = /export\s+const\s+meta\s*=\s*\{/;

/** The script's meta, or a ConfigError naming `filename`, its line, and the fix. */
export async function readMeta(source: string, filename: string): Promise<WorkflowMeta> {
  const found = META.exec(source);
  if (!found) {
    throw new ConfigError(
      filename,
      'has no `export const meta = { name, description }`',
      'begin the script with it',
    );
  }
  const start = found.index + found[0].length - 1;
  const end = closingBrace(source, start);
  const line = source.slice(0, found.index).split('\n').length;
  if (end < 0)
    throw new ConfigError(
      `${filename}:${line}`,
      'meta is not a closed object literal',
      'close its braces',
    );
  const value = await evaluateLiteral(source.slice(start, end + 1));
  if (!value.ok)
    throw new ConfigError(
      `${filename}:${line}`,
      `meta cannot be read: ${value.error}`,
      'use plain values only',
    );
  const meta = value.value as Partial<WorkflowMeta> | null;
  if (typeof meta?.name !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/.test(meta.name)) {
    throw new ConfigError(
      `${filename}:${line}`,
      'meta.name must be letters, digits, ".", "_" or "-" (at most 64)',
      'name the workflow',
    );
  }
  if (typeof meta.description !== 'string' || meta.description.length === 0) {
    throw new ConfigError(
      `${filename}:${line}`,
      'meta.description must be a non-empty string',
      'say what the workflow does',
    );
  }
  return {
    name: meta.name,
    description: meta.description,
    ...(typeof meta.whenToUse === 'string' && { whenToUse: meta.whenToUse }),
  };
}

/** The index of the brace closing the one at `open`, skipping strings and comments; -1 if none. */
function closingBrace(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const char = source[i]!;
    if (char === '"' || char === "'" || char === '`') {
      for (i++; i < source.length && source[i] !== char; i++) if (source[i] === '\\') i++;
    } else if (char === '/' && source[i + 1] === '/') {
      while (i < source.length && source[i] !== '\n') i++;
    } else if (char === '/' && source[i + 1] === '*') {
      i = source.indexOf('*/', i + 2);
      if (i < 0) return -1;
      i++;
    } else if (char === '{') depth++;
    else if (char === '}' && --depth === 0) return i;
  }
  return -1;
}

async function evaluateLiteral(
  literal: string,
): Promise<{ ok: true; value: unknown } | { ok: false; error: string }> {
  const module = await loadQuickJs();
  const runtime = module.newRuntime();
  runtime.setMemoryLimit(16 * 1024 * 1024);
  const deadline = performance.now() + 1000;
  runtime.setInterruptHandler(() => performance.now() > deadline);
  const context = runtime.newContext();
  try {
    const result = context.evalCode(`JSON.stringify((${literal}))`, 'meta.js', {
      type: 'global',
      strict: true,
    });
    if (result.error) {
      const error = context.dump(result.error) as { message?: string };
      result.error.dispose();
      return { ok: false, error: error?.message ?? 'it threw' };
    }
    const text = context.dump(result.value);
    result.value.dispose();
    return typeof text === 'string'
      ? { ok: true, value: JSON.parse(text) }
      : { ok: false, error: 'not an object' };
  } finally {
    context.dispose();
    runtime.dispose();
  }
}
