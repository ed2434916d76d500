// The error for bad usage or configuration: the CLI prints its message on one line and exits 2.
import { hasErrorMark } from './error-mark.js';

/** Bad input from a person: a flag, a file, an environment variable. Never a bug. */
export class ConfigError extends Error {
  readonly isConfigError = true;
  readonly where: string;
  readonly problem: string;
  readonly fix: string | undefined;

  /**
   * @param where what was wrong, as a person finds it: `--max-turns`, `agents/x.md:3`, `OPENAI_API_KEY`.
   * @param problem what is wrong with it.
   * @param fix what to do about it.
   */
  constructor(where: string, problem: string, fix?: string) {
    super(`${where}: ${problem}${fix ? ` (${fix})` : ''}`);
    this.name = 'ConfigError';
    this.where = where;
    this.problem = problem;
    this.fix = fix;
  }

  static isInstance(error: unknown): error is ConfigError {
    return hasErrorMark(error, 'isConfigError');
  }
}
