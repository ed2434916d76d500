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
