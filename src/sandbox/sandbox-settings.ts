// The `sandbox` section of the settings: `{ "enabled": false }` to run commands unconfined,
// `"network": "allow"`, `"passEnv": [...]`, `"writable": ["~/.npm"]`. Read from the user's settings and `--settings` only;
// a project's `.warren/settings.json` cannot loosen the sandbox, and is told so.
import path from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../core/config-error.js';
import { lazy } from '../core/lazy.js';
import { CONFIG_FILE_MAX_BYTES, readRegularText } from '../core/regular-file.js';
import type { SandboxOptions } from './command-sandbox.js';

/** Made on first use: only a settings file with a `sandbox` section needs it. */
const sandboxSchema = lazy(() =>
  z.strictObject({
    enabled: z.boolean().optional(),
    network: z.enum(['none', 'allow']).optional(),
    writable: z.array(z.string().min(1)).optional(),
    passEnv: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'a variable name')).optional(),
  }),
);

export interface SandboxSettings {
  /** False when turned off by a flag or by the user's settings. */
  enabled: boolean;
  options: SandboxOptions;
  /** A project file that tried to change the sandbox, once each. */
  warnings: string[];
}

export interface SandboxSettingsSources {
  projectDir: string;
  homeDir: string;
  /** `--settings <file>`. */
  settingsFile?: string | undefined;
  /** `--no-sandbox`. */
  noSandbox?: boolean;
}

const SETTINGS_FILE = path.join('.warren', 'settings.json');

export async function loadSandboxSettings(
  sources: SandboxSettingsSources,
): Promise<SandboxSettings> {
  const trusted = [path.join(sources.homeDir, SETTINGS_FILE), sources.settingsFile].filter(
    (file): file is string => file !== undefined,
  );
  const settings: SandboxSettings = { enabled: true, options: {}, warnings: [] };
  for (const file of trusted) {
    const section = await sandboxSection(file);
    if (section === undefined) continue;
    settings.enabled = section.enabled ?? settings.enabled;
    if (section.network !== undefined) settings.options.network = section.network;
    if (section.passEnv !== undefined) settings.options.passEnv = section.passEnv;
    if (section.writable !== undefined) {
      settings.options.writable = section.writable.map((dir) => inHome(dir, sources.homeDir));
    }
  }
  const projectFile = path.join(sources.projectDir, SETTINGS_FILE);
  if (!trusted.includes(projectFile) && (await sandboxSection(projectFile)) !== undefined) {
    settings.warnings.push(
      `${projectFile}: its "sandbox" section was ignored: only ~/.warren/settings.json, --settings and --no-sandbox change the sandbox`,
    );
  }
  if (sources.noSandbox) settings.enabled = false;
  return settings;
}

/** `~/x` in the home folder; other relative paths too, as the file cannot say where else. */
function inHome(dir: string, homeDir: string): string {
  return path.resolve(homeDir, dir.replace(/^~(?=\/|$)/, '.'));
}

/** A file's `sandbox` section, checked; undefined when the file or the section is missing. */
async function sandboxSection(
  file: string,
): Promise<z.output<ReturnType<typeof sandboxSchema>> | undefined> {
  let text: string;
  try {
    text = await readRegularText(file, { maxBytes: CONFIG_FILE_MAX_BYTES });
  } catch {
    // A missing file adds nothing; an unreadable or hostile one (a FIFO) is reported by the
    // settings loader.
    return undefined;
  }
  let value: unknown;
  try {
    value = JSON.parse(text || '{}');
  } catch {
    return undefined; // the settings loader names the line and column
  }
  if (typeof value !== 'object' || value === null || !('sandbox' in value)) return undefined;
  const parsed = sandboxSchema().safeParse(value.sandbox);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const field = ['sandbox', ...(issue?.path ?? [])].join('.');
  throw new ConfigError(
    `${file} ${field}`,
    issue?.message ?? 'is not valid',
    'the section looks like "sandbox": { "enabled": true, "network": "none", "passEnv": ["GITHUB_TOKEN"], "writable": ["~/.npm"] }',
  );
}
