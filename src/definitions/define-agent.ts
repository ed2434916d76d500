// `defineAgent`: checks a programmatic definition up front, so a library user learns about a
// bad field where they wrote it rather than when the agent is first spawned.
import { ConfigError } from '../core/config-error.js';
import type { AgentDefinitionInput } from './agent-definition.js';
import { buildAgentDefinition } from './build-agent-definition.js';

/**
 * Validates a definition for the `agents` option and returns it unchanged (typed).
 * @throws ConfigError naming the field and what it must be, e.g. "`maxTurns` must be a whole
 * number above 0 (got -1)".
 */
export function defineAgent<Input extends AgentDefinitionInput>(input: Input): Input {
  const name = input.name ?? 'unnamed';
  const built = buildAgentDefinition({
    fields: { ...input },
    origin: 'sdk',
    fallbackName: name,
    source: { kind: 'sdk' },
  });
  if (built.error) {
    throw new ConfigError(`agent definition "${name}"`, built.error.message);
  }
  return input;
}
