// What a project's settings file would widen: its hooks, a default mode above `default`, and its
// `allow` rules. Its `deny` rules and a narrower mode (`plan`) only take permissions away: they
// apply whether or not the project is trusted, and are no items.
import { relative } from 'node:path';
import type { PermissionMode } from '../../core/permission-policy.js';
import { PERMISSION_MODES } from '../../permissions/create-permission-policy.js';
import type { SettingsFile } from '../../permissions/settings-file.js';
import { hookItems } from './hook-items.js';
import type { TrustItem } from './trust-item.js';

export function settingsItems(file: SettingsFile, projectDir: string): TrustItem[] {
  const label = relative(projectDir, file.file);
  const { settings } = file;
  const items = settings.hooks.flatMap((section) =>
    hookItems({ file: label, value: section.value }, projectDir),
  );
  if (settings.defaultMode && widens(settings.defaultMode)) {
    items.push({
      kind: 'permission-mode',
      file: label,
      field: 'permissions.defaultMode',
      action: `start every run in permission mode ${settings.defaultMode}`,
      fields: { defaultMode: settings.defaultMode },
      files: {},
    });
  }
  settings.allow.forEach((rule, index) => {
    items.push({
      kind: 'allow-rule',
      file: label,
      field: `permissions.allow[${index}]`,
      action: `allow ${rule.text} without asking`,
      fields: { rule: rule.text },
      files: {},
    });
  });
  return items;
}

/** A mode that lets more run without a question than `default` does. */
export function widens(mode: PermissionMode): boolean {
  return (
    PERMISSION_MODES.indexOf(mode as (typeof PERMISSION_MODES)[number]) >
    PERMISSION_MODES.indexOf('default')
  );
}
