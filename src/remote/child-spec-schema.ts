// What a worker accepts as a child's spec (core/remote-executor.ts), checked field by field: a
// workflow's input comes from whoever can reach the ingress, so it is treated as hostile.
import { z } from 'zod';
import type { RemoteChildSpec } from '../core/remote-executor.js';
import { type AgentDefinition, agentDefinitionSchema } from '../definitions/agent-definition.js';

const text = (max: number) => z.string().max(max);
const positive = z.number().int().positive().max(Number.MAX_SAFE_INTEGER);

interface RuleShape {
  text: string;
  toolName: string;
  specifier?: string;
  source: string;
  except?: RuleShape[];
}

const ruleSchema: z.ZodType<RuleShape> = z.lazy(() =>
  z.object({
    text: text(2000),
    toolName: text(300),
    specifier: text(2000).optional(),
    source: text(500),
    except: z.array(ruleSchema).max(100).optional(),
  }),
);

const rules = z.array(ruleSchema).max(1000);

/** A definition as JSON: the fields every loader fills, the rest checked by the definition schema. */
const definitionSchema = agentDefinitionSchema().extend({
  // What only the parent's machine has never travels; were it sent, it is ignored.
  hooks: z
    .unknown()
    .optional()
    .transform(() => undefined),
  mcpServers: z
    .unknown()
    .optional()
    .transform(() => undefined),
  outputSchema: z.record(z.string(), z.unknown()).optional(),
  extra: z.record(z.string(), z.unknown()).default({}),
  source: agentDefinitionSchema().shape.source.default({ kind: 'sdk' }),
});

const childSpecSchema = z.object({
  // Also a workflow key: kept path-safe.
  agentId: z.string().regex(/^agent_[A-Za-z0-9-]{1,64}$/, 'agent_<letters, digits, ->'),
  parentId: text(200).min(1),
  depth: z.number().int().min(1).max(100),
  agentPath: text(4000).min(1),
  description: text(4000),
  prompt: text(1_000_000),
  definition: definitionSchema,
  definitions: z.array(definitionSchema).max(1000),
  tools: z.array(text(300)).max(1000),
  model: z.object({
    spec: text(500).regex(/^[a-z-]+:.+/, 'provider:model'),
    baseUrl: z
      .url({ protocol: /^https?$/ })
      .max(2000)
      .optional(),
  }),
  cwd: text(4000).refine((value) => value.startsWith('/'), 'an absolute path'),
  worktree: z.object({ base: text(1000).optional() }).optional(),
  budget: z.object({
    deadline: positive.optional(),
    windDownMs: positive.optional(),
    tokens: z.number().finite().optional(),
    costUsd: z.number().finite().optional(),
    maxTurns: z.number().int().min(1).max(100_000),
  }),
  permissions: z.object({
    mode: z.enum(['default', 'acceptEdits', 'plan', 'bypassPermissions']),
    allow: rules,
    deny: rules,
    ask: rules,
  }),
  maxDepth: z.number().int().min(0).max(100),
  calls: z.object({
    requestTimeoutMs: positive.optional(),
    toolTimeoutMs: positive.optional(),
    maxOutputTokens: positive.optional(),
    graceTurn: z.boolean().optional(),
  }),
  notify: z.object({ inbox: text(300).min(1), taskId: text(200).min(1) }).optional(),
}) satisfies z.ZodType<RemoteChildSpec>;

/** A spec the worker has checked: its definitions are ready to run. */
export type CheckedChildSpec = Omit<
  z.output<typeof childSpecSchema>,
  'definition' | 'definitions'
> & {
  definition: AgentDefinition;
  definitions: AgentDefinition[];
};

/**
 * The spec, checked, or an error that names the first bad field (never echoing the value: it
 * may be large, and it is not ours to print).
 */
export function checkChildSpec(input: unknown): CheckedChildSpec {
  const parsed = childSpecSchema.safeParse(input);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(
      `not a warren child spec: ${issue.path.join('.') || '(input)'}: ${issue.message}`,
    );
  }
  return parsed.data as CheckedChildSpec;
}
