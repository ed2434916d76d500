// The command hooks a project file declares (a settings file's `hooks`, a definition's `hooks:`),
// as trust items: one per command, with its event and matcher. A part that is not a command hook
// as expected is an item too, written out whole: what cannot be read is never trusted unseen.
import { namedProjectFiles } from './named-files.js';
import type { TrustItem } from './trust-item.js';

export interface HookSource {
  /** The file, relative to the project. */
  file: string;
  /** The `hooks` value as written. */
  value: unknown;
  /** Added to each action: ` while agent "reviewer" runs`. */
  during?: string;
}

export function hookItems(source: HookSource, projectDir: string): TrustItem[] {
  const items: TrustItem[] = [];
  const whole = (field: string, value: unknown) =>
    items.push({
      kind: 'hook',
      file: source.file,
      field,
      action: `use hooks written as ${JSON.stringify(value)}${source.during ?? ''}`,
      fields: { value: JSON.stringify(value) ?? 'undefined' },
      files: {},
    });
  if (!isRecord(source.value)) {
    whole('hooks', source.value);
    return items;
  }
  for (const [event, groups] of Object.entries(source.value)) {
    const eventField = `hooks.${event}`;
    if (!Array.isArray(groups)) {
      whole(eventField, groups);
      continue;
    }
    groups.forEach((group: unknown, g) => {
      if (!isRecord(group) || !Array.isArray(group.hooks)) {
        whole(`${eventField}[${g}]`, group);
        return;
      }
      const matcher = typeof group.matcher === 'string' ? group.matcher : undefined;
      group.hooks.forEach((hook: unknown, h) => {
        const field = `${eventField}[${g}].hooks[${h}]`;
        if (!isRecord(hook) || typeof hook.command !== 'string') {
          whole(field, hook);
          return;
        }
        const fields: Record<string, string> = { event, command: hook.command };
        if (matcher !== undefined) fields.matcher = matcher;
        for (const [key, value] of Object.entries(hook)) {
          if (key !== 'command')
            fields[key] = typeof value === 'string' ? value : JSON.stringify(value);
        }
        const on =
          matcher && matcher !== '*' ? `${event} (matcher ${JSON.stringify(matcher)})` : event;
        items.push({
          kind: 'hook',
          file: source.file,
          field,
          action: `run \`${hook.command}\` on ${on}${source.during ?? ''}`,
          fields,
          files: namedProjectFiles([hook.command], [projectDir], projectDir),
        });
      });
    });
  }
  return items;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
