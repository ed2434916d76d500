// The A2A side of a run: one RemoteExecutor per `kind: remote` definition, made when its first
// child starts and kept for the run, so every child of it shares one client.
import type { AgentDefinition } from '../agents/definitions/agent-definition.js';
import type { RemoteAgentPorts, RemotePort } from '../agents/remote-port.js';
import { A2aRemoteExecutor } from './a2a-remote-executor.js';

export function remoteAgentPorts(env: NodeJS.ProcessEnv): RemoteAgentPorts {
  const ports = new Map<string, RemotePort>();
  return (definition: AgentDefinition) => {
    if (!definition.remote) return `${definition.name} is not a remote (A2A) agent`;
    let port = ports.get(definition.name);
    if (!port) {
      // The model runs on the remote side: this only names it in events and listings.
      port = {
        executor: new A2aRemoteExecutor(definition, env),
        modelSpec: `a2a:${definition.name}`,
      };
      ports.set(definition.name, port);
    }
    return port;
  };
}
