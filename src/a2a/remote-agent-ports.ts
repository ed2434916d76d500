// The A2A side of a run: one RemoteExecutor per `kind: remote` definition, made when its first
// child starts and kept for the run, so every child of it shares one client. The A2A SDK (and
// the JOSE library under its client) loads with that first child, not with every run.

import type { RemoteAgentPorts, RemotePort } from '../agents/remote-port.js';
import type { RemoteExecutor } from '../core/remote-executor.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';

export function remoteAgentPorts(env: NodeJS.ProcessEnv): RemoteAgentPorts {
  const ports = new Map<string, RemotePort>();
  return (definition: AgentDefinition) => {
    if (!definition.remote) return `${definition.name} is not a remote (A2A) agent`;
    let port = ports.get(definition.name);
    if (!port) {
      // The model runs on the remote side: this only names it in events and listings.
      port = { executor: a2aExecutorOnUse(definition, env), modelSpec: `a2a:${definition.name}` };
      ports.set(definition.name, port);
    }
    return port;
  };
}

/** The definition's A2aRemoteExecutor, its module loaded by the first call that needs it. */
function a2aExecutorOnUse(definition: AgentDefinition, env: NodeJS.ProcessEnv): RemoteExecutor {
  let loaded: Promise<RemoteExecutor> | undefined;
  const executor = () => {
    loaded ??= import('./a2a-remote-executor.js').then(
      ({ A2aRemoteExecutor }) => new A2aRemoteExecutor(definition, env),
    );
    return loaded;
  };
  return {
    name: 'a2a',
    submit: async (spec, signal) => (await executor()).submit(spec, signal),
    result: async (agentId, signal) => (await executor()).result(agentId, signal),
    progress: async (agentId, signal) => (await executor()).progress(agentId, signal),
    cancel: async (agentId) => (await executor()).cancel(agentId),
    send: async (agentId, text) => (await executor()).send(agentId, text),
    inbox: async (key) => (await executor()).inbox(key),
    acknowledge: async (key, taskId) => (await executor()).acknowledge(key, taskId),
  };
}
