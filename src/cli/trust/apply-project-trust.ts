// What a run uses of the project's files once its trust is decided: all of it when trusted;
// otherwise the settings without the project's hooks, allow rules and wider default mode (its
// deny rules and narrower modes stay), the definitions without their hooks, inline servers and
// wider modes, and no `.mcp.json` servers.
import type { AgentDefinition } from '../../definitions/agent-definition.js';
import type { McpTrust } from '../../mcp/trust-store.js';
import {
  mergeSettings,
  type Settings,
  type SettingsFile,
} from '../../permissions/settings-file.js';
import { isProjectDefinition, runsProjectCommand, withoutTrustItems } from './definition-items.js';
import type { ProjectTrust } from './project-trust.js';
import { widens } from './settings-items.js';

export function trustedSettings(trust: ProjectTrust, files: readonly SettingsFile[]): Settings {
  if (trust.trusted) return mergeSettings(files);
  return mergeSettings(
    files.map((file) =>
      file.scope !== 'project'
        ? file
        : {
            ...file,
            settings: {
              allow: [],
              deny: file.settings.deny,
              defaultMode:
                file.settings.defaultMode && widens(file.settings.defaultMode)
                  ? undefined
                  : file.settings.defaultMode,
              hooks: [],
            },
          },
    ),
  );
}

export function trustedDefinitions(
  trust: ProjectTrust,
  definitions: ReadonlyMap<string, AgentDefinition>,
): Map<string, AgentDefinition> {
  if (trust.trusted) return new Map(definitions);
  // An ACP agent of the project is its command: without trust there is nothing left to run.
  return new Map(
    [...definitions]
      .filter(([, definition]) => !runsProjectCommand(definition))
      // An untrusted project's remote agent is left out whole: it is nothing but where it sends.
      .filter(([, definition]) => !(definition.remote && isProjectDefinition(definition)))
      .map(([name, definition]) => [name, withoutTrustItems(definition)]),
  );
}

/** The gate `.mcp.json` goes through: the project's one decision. */
export function projectMcpTrust(trust: ProjectTrust): McpTrust {
  return { trustOf: () => (trust.trusted ? 'trusted' : 'untrusted') };
}
