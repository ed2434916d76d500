// The official A2A SDK client for one `kind: remote` definition: its card fetched (or read from
// the definition), its auth headers on every request it makes, the JSON-RPC and REST bindings,
// v0.3 agents (Gemini CLI's cards) included.
import type { AgentCard } from '@a2a-js/sdk';
import {
  type Client,
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
  RestTransportFactory,
} from '@a2a-js/sdk/client';
import type { RemoteAgent } from '../definitions/remote-agent-fields.js';
import { authHeaders } from './remote-agent-auth.js';

export async function openA2aClient(remote: RemoteAgent, env: NodeJS.ProcessEnv): Promise<Client> {
  const headers = authHeaders(remote.auth, env);
  const fetchImpl: typeof fetch = (input, init) =>
    fetch(input, {
      ...init,
      headers: { ...Object.fromEntries(new Headers(init?.headers)), ...headers },
    });
  const legacyCompat = { enabled: true };
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      transports: [
        new JsonRpcTransportFactory({ fetchImpl, legacyCompat }),
        new RestTransportFactory({ fetchImpl, legacyCompat }),
      ],
      cardResolver: new DefaultAgentCardResolver({ fetchImpl }),
    }),
  );
  if (remote.cardJson !== undefined) {
    return factory.createFromAgentCard(JSON.parse(remote.cardJson) as AgentCard);
  }
  // The URL is the card's own address, as Gemini CLI's `agent_card_url` is.
  return factory.createFromUrl(remote.cardUrl!, '');
}
