// A flag's value checked as typed: one of a list, or a whole number, each mistake a ConfigError
// naming the flag and showing a value that works.
import { ConfigError } from '../core/config-error.js';

export function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new ConfigError(flag, `unknown value "${value}"`, `use one of: ${allowed.join(', ')}`);
}

export function positiveInteger(
  flag: string,
  value: string | undefined,
  { allowZero = false } = {},
): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  const min = allowZero ? 0 : 1;
  if (!/^\d+$/.test(value.trim()) || !Number.isSafeInteger(number) || number < min) {
    throw new ConfigError(
      flag,
      `expected ${allowZero ? 'a whole number' : 'a positive whole number'}, got "${value}"`,
      `e.g. ${flag}${flag.startsWith('-') ? ' ' : '='}${allowZero ? 0 : 10}`,
    );
  }
  return number;
}
