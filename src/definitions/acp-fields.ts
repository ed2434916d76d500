// The fields of a `kind: acp` definition (an external ACP agent run as a child): `command`,
// `args` and `env` apply to it alone, and what an external agent brings itself (its model,
// tools, prompt) is said to be ignored rather than silently dropped.
import type { AgentDefinition, AgentFieldName } from './agent-definition.js';

/** What a `kind: acp` agent cannot use: the external agent has its own model, tools and prompt. */
const ACP_UNUSED_FIELDS = [
  'tools',
  'model',
  'hooks',
  'outputSchema',
  'forkContext',
  'mcpServers',
  'skills',
  'memory',
  'maxTurns',
  'effort',
  'temperature',
  'cacheTtl',
] as const satisfies readonly AgentFieldName[];

const ACP_FIELDS = ['command', 'args', 'env'] as const satisfies readonly AgentFieldName[];

/** The field a definition cannot do without besides its description, and how to add it. */
export function requiredBody(values: { kind?: unknown }): [AgentFieldName, string] {
  return values.kind === 'acp'
    ? ['command', 'add `command: <the program that starts the ACP agent>`']
    : ['prompt', 'add the system prompt'];
}

/** A definition's `kind`, `command`, `args` and `env`, as checked. */
export function acpFieldsOf(
  values: Pick<AgentDefinition, 'kind' | 'command' | 'args' | 'env'>,
): Pick<AgentDefinition, 'kind' | 'command' | 'args' | 'env'> {
  const { kind, command, args, env } = values;
  return { kind, command, args, env };
}

export function acpFieldWarnings(
  values: Partial<Record<AgentFieldName, unknown>>,
): { field: AgentFieldName; message: string }[] {
  const acp = values.kind === 'acp';
  const warnings: { field: AgentFieldName; message: string }[] = [];
  for (const field of acp ? ACP_UNUSED_FIELDS : ACP_FIELDS) {
    if (values[field] === undefined) continue;
    warnings.push({
      field,
      message: acp
        ? `\`${field}\` does not apply to a \`kind: acp\` agent (it brings its own); ignored`
        : `\`${field}\` applies to \`kind: acp\` agents only; ignored`,
    });
  }
  if (acp && values.isolation === 'remote') {
    warnings.push({
      field: 'isolation',
      message:
        '`isolation: remote` does not apply to a `kind: acp` agent (it runs beside warren); ignored',
    });
  }
  return warnings;
}

/** The definition without what a `kind: acp` agent does not use (warned about above). */
export function withoutAcpUnused(definition: AgentDefinition): void {
  if (definition.kind !== 'acp') {
    for (const field of ACP_FIELDS) delete definition[field];
    return;
  }
  for (const field of ACP_UNUSED_FIELDS) delete definition[field];
  if (definition.isolation === 'remote') delete definition.isolation;
}
