// One agent() call as the host takes it: its options checked (a script is project-supplied code,
// so every field is hostile), and its resume key: a hash of what it asks, never of when it ran.
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { EFFORTS, type Effort } from '../model/model-settings.js';

const optionsSchema = z
  .object({
    schema: z.record(z.string(), z.unknown()).optional(),
    label: z.string().max(200).optional(),
    agentType: z.string().min(1).max(128).optional(),
    model: z.string().min(1).max(256).optional(),
    effort: z.enum(EFFORTS).optional(),
    isolation: z.enum(['worktree']).optional(),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .max(24 * 3600_000)
      .optional(),
  })
  .strict();

export interface ItemRequest {
  prompt: string;
  agentType: string;
  model?: string;
  /** An object JSON Schema: the agent then returns a value of that shape. */
  schema?: Record<string, unknown>;
  /** Sent with every model request of the item's agent (as an Agent call's `effort`). */
  effort?: Effort;
  isolation?: 'worktree';
  /** Shown in progress and results; not part of the key. */
  label: string;
  /** Wall-clock limit of this item; not part of the key. */
  timeoutMs: number;
  /** Hash of the agent type, model, prompt, schema, effort and isolation. */
  key: string;
}

/** One item's default wall-clock limit, as Codex's agent jobs (30 min). */
export const DEFAULT_ITEM_TIMEOUT_MS = 30 * 60_000;

/** The request of `agent(prompt, options)`, or an Error naming the field that is wrong. */
export function itemRequest(prompt: string, options: unknown): ItemRequest {
  const parsed = optionsSchema.safeParse(options ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.join('.') || 'options';
    throw new Error(`agent(prompt, options): ${field}: ${issue.message}`);
  }
  const given = parsed.data;
  if (given.schema && given.schema.type !== 'object') {
    throw new Error(
      'agent(prompt, options): schema must be an object schema ({ type: "object", ... })',
    );
  }
  const agentType = given.agentType ?? 'general-purpose';
  const asked = {
    agentType,
    model: given.model ?? null,
    prompt,
    schema: given.schema ?? null,
    effort: given.effort ?? null,
    isolation: given.isolation ?? null,
  };
  return {
    prompt,
    agentType,
    model: given.model,
    schema: given.schema,
    effort: given.effort,
    isolation: given.isolation,
    label: given.label ?? prompt.replace(/\s+/g, ' ').slice(0, 60),
    timeoutMs: given.timeoutMs ?? DEFAULT_ITEM_TIMEOUT_MS,
    key: createHash('sha256').update(canonicalJson(asked)).digest('hex').slice(0, 32),
  };
}

/** JSON with object keys sorted, so the same request always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, field]) => field !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([name, field]) => `${JSON.stringify(name)}:${canonicalJson(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
