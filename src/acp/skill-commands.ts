// The session's skills as ACP slash commands (`available_commands_update`), and a prompt that
// starts with one (`/release-notes for 2.0`) as the request to use that skill, which the agent
// loads with its Skill tool, as Claude Code's `/skill` does.
import type { AvailableCommand } from '@agentclientprotocol/sdk';

const DESCRIPTION_CHARS = 200;

interface NamedSkill {
  name: string;
  description: string;
  /** False for `disable-model-invocation: true`: not one to offer. */
  listed: boolean;
}

export function skillCommands(skills: Iterable<NamedSkill>): AvailableCommand[] {
  const commands: AvailableCommand[] = [];
  for (const skill of skills) {
    if (!skill.listed) continue;
    const description =
      skill.description.length > DESCRIPTION_CHARS
        ? `${skill.description.slice(0, DESCRIPTION_CHARS - 1)}…`
        : skill.description;
    commands.push({ name: skill.name, description, input: { hint: 'what to use it for' } });
  }
  return commands;
}

/** `text` as warren's prompt: a leading `/<skill>` becomes the request to use that skill. */
export function withSkillCommand(text: string, skills: ReadonlySet<string>): string {
  const match = /^\/([a-z0-9][a-z0-9._-]{0,63})(?:\s+([\s\S]*))?$/.exec(text.trimStart());
  if (!match || !skills.has(match[1]!)) return text;
  const [, name, rest] = match;
  const task = rest?.trim();
  return task
    ? `Use the "${name}" skill (load it with the Skill tool first) for this: ${task}`
    : `Use the "${name}" skill (load it with the Skill tool first).`;
}
