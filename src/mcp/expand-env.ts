// `${VAR}` and `${VAR:-default}` in MCP config strings, as Claude Code's `.mcp.json` has them.
// An unset variable without a default is a configuration error that names the variable, never
// its value (values are often tokens).

/** `${NAME}` or `${NAME:-default}`; the default may be empty and may hold anything but `}`. */
const REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

export class MissingVariableError extends Error {
  readonly variable: string;
  constructor(variable: string) {
    super(`uses \${${variable}}, which is not set`);
    this.variable = variable;
  }
}

/** The string with every reference replaced. @throws MissingVariableError */
export function expandVariables(text: string, env: NodeJS.ProcessEnv): string {
  return text.replace(REFERENCE, (_match, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && value !== '') return value;
    if (fallback !== undefined) return fallback;
    if (value !== undefined) return value;
    throw new MissingVariableError(name);
  });
}
