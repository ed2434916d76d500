// Secrets kept out of what warren writes down (transcripts, the task store, the Restate
// journal): the values of secret-named environment variables, provider API keys and bearer
// tokens, each replaced with `[REDACTED]`. One place, so every record redacts alike.

export const REDACTED = '[REDACTED]';

/** OpenAI (`sk-…`, `sk-proj-…`) and Anthropic (`sk-ant-…`) keys; `\b` spares words like `task-…`. */
const PROVIDER_KEY = /\bsk-[A-Za-z0-9_-]{16,}/g;
/** A bearer credential; 16+ characters so prose such as "Bearer authentication" stays. */
const BEARER_TOKEN = /\b(Bearer)\s+[A-Za-z0-9._~+/=-]{16,}/gi;
const SECRET_VARIABLE = /_(?:KEY|TOKEN|SECRET|PASSWORD)$/i;
/** Shorter values ("1", "true") would blank out ordinary words everywhere. */
const MIN_SECRET_LENGTH = 8;

/** Current values of variables whose names say they hold a secret (`*_API_KEY`, `*_TOKEN`, …). */
export function secretValuesFromEnv(env: NodeJS.ProcessEnv): string[] {
  const values: string[] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && SECRET_VARIABLE.test(name)) {
      values.push(value);
    }
  }
  // Longest first, so a secret that contains another is replaced whole.
  return values.sort((a, b) => b.length - a.length);
}

export interface RedactSecretsOptions {
  /** Exact values to redact wherever they appear, e.g. from `secretValuesFromEnv`. */
  secrets?: readonly string[];
}

/** Replaces API keys, bearer tokens and the given secret values with `[REDACTED]`. */
export function redactSecrets(text: string, options: RedactSecretsOptions = {}): string {
  let redacted = text;
  for (const secret of options.secrets ?? []) redacted = redacted.replaceAll(secret, REDACTED);
  return redacted
    .replace(PROVIDER_KEY, REDACTED)
    .replace(BEARER_TOKEN, (_match, bearer: string) => `${bearer} ${REDACTED}`);
}

/** A JSON.stringify replacer that redacts every string value. */
export function redactingReplacer(
  secrets: readonly string[],
): (key: string, value: unknown) => unknown {
  return (_key, value) => (typeof value === 'string' ? redactSecrets(value, { secrets }) : value);
}

/** A JSON value with every string in it redacted (a copy; the value itself is left alone). */
export function redactJson<T>(value: T, secrets: readonly string[]): T {
  if (value === undefined) return value;
  return JSON.parse(JSON.stringify(value, redactingReplacer(secrets))) as T;
}
