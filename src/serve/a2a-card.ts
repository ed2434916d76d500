// The agent card `warren a2a serve` publishes: one skill per served definition, the JSON-RPC
// interface, and the security scheme its callers must meet (a bearer token or X-API-Key).
import { A2A_PROTOCOL_VERSION, type AgentCard } from '@a2a-js/sdk';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { API_KEY_HEADER } from './bearer-auth.js';

export function servedAgentCard(params: {
  definitions: readonly AgentDefinition[];
  url: string;
  version: string;
  authenticated: boolean;
}): AgentCard {
  const { definitions } = params;
  return {
    name: definitions.length === 1 ? definitions[0]!.name : 'warren',
    description:
      definitions.length === 1
        ? definitions[0]!.description
        : `warren agents: ${definitions.map((definition) => definition.name).join(', ')}. Name one in the message's metadata as "skillId".`,
    supportedInterfaces: [
      {
        url: params.url,
        protocolBinding: 'JSONRPC',
        tenant: '',
        protocolVersion: A2A_PROTOCOL_VERSION,
      },
    ],
    provider: undefined,
    version: params.version,
    capabilities: {
      streaming: true,
      pushNotifications: false,
      extensions: [],
      extendedAgentCard: false,
    },
    securitySchemes: params.authenticated
      ? {
          bearer: {
            scheme: {
              $case: 'httpAuthSecurityScheme',
              value: {
                description: 'the token warren a2a serve was given',
                scheme: 'Bearer',
                bearerFormat: '',
              },
            },
          },
          apiKey: {
            scheme: {
              $case: 'apiKeySecurityScheme',
              value: {
                description: 'the same token as an API key',
                location: 'header',
                name: API_KEY_HEADER,
              },
            },
          },
        }
      : {},
    securityRequirements: params.authenticated
      ? [{ schemes: { bearer: { list: [] } } }, { schemes: { apiKey: { list: [] } } }]
      : [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: definitions.map((definition) => ({
      id: definition.name,
      name: definition.name,
      description: definition.description,
      tags: ['warren'],
      examples: [],
      inputModes: ['text/plain'],
      outputModes:
        definition.outputSchema === undefined ? ['text/plain'] : ['application/json', 'text/plain'],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
