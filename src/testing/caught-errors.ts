// What a call threw, for tests that check an error's fields (a ConfigError's `where` and `fix`,
// an APICallError's status) rather than only its message.
import { ConfigError } from '../core/config-error.js';

/** The error `fn` throws; fails the test if it returns instead. */
export function captureError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

/** The ConfigError `fn` throws; fails the test if it throws anything else or returns. */
export function thrownConfigError(fn: () => unknown): ConfigError {
  const error = captureError(fn);
  if (!ConfigError.isInstance(error)) throw error;
  return error;
}

/** The reason the promise rejects with, or undefined when it resolves. */
export async function rejectionOf(promise: PromiseLike<unknown>): Promise<unknown> {
  return Promise.resolve(promise).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
}

/** The ConfigError the promise rejects with; fails the test on anything else. */
export async function configErrorOf(promise: PromiseLike<unknown>): Promise<ConfigError> {
  const error = await rejectionOf(promise);
  if (!ConfigError.isInstance(error)) throw new Error(`expected a ConfigError, got ${error}`);
  return error;
}
