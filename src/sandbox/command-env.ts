// The environment a command gets: warren's own, without the keys it holds for its providers and
// tracing, so that a command (and whatever it sends out) never sees them. A setting may pass
// named variables through (`sandbox.passEnv`), for a `gh` that needs GITHUB_TOKEN, say.
import { KEY_VARIABLES } from '../model/model-endpoint.js';

/** Names that hold credentials by convention: `*_API_KEY`, `*_TOKEN`, `*_SECRET`, … */
const CREDENTIAL_NAME =
  /(?:API_?KEY|TOKEN|SECRET|SECRET_KEY|ACCESS_KEY|PASSWORD|PASSWD|CREDENTIALS?|PRIVATE_KEY|AUTH)$/i;

/** Variables that carry keys without saying so in their name. */
const CREDENTIAL_VARIABLES: ReadonlySet<string> = new Set([
  ...Object.values(KEY_VARIABLES).flat(),
  'OTEL_EXPORTER_OTLP_HEADERS',
  'OTEL_EXPORTER_OTLP_TRACES_HEADERS',
  'AWS_SESSION_TOKEN',
  'AWS_SECRET_ACCESS_KEY',
]);

export interface CommandEnvOptions {
  /** Variables to keep even though they look like credentials. */
  passEnv?: readonly string[];
  /** More variables to withhold: those the run's model configuration names. */
  withhold?: readonly string[];
}

/** Whether `name` is withheld from commands (before `passEnv`). */
export function isWithheld(name: string, withhold: readonly string[] = []): boolean {
  return CREDENTIAL_VARIABLES.has(name) || CREDENTIAL_NAME.test(name) || withhold.includes(name);
}

/** `base` without the credentials, plus `extra`. */
export function commandEnv(
  base: NodeJS.ProcessEnv,
  options: CommandEnvOptions,
  extra: Readonly<Record<string, string>> = {},
): NodeJS.ProcessEnv {
  const pass = new Set(options.passEnv ?? []);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (value === undefined) continue;
    if (!pass.has(name) && isWithheld(name, options.withhold)) continue;
    env[name] = value;
  }
  return { ...env, ...extra };
}
