// Whether a model's server ever answered. A first request that cannot connect at all (refused,
// no such host) means the address is wrong or the server is not running: a setup mistake, told
// as one, found by the run's own first request instead of a GET /models sent before it.
import { ConfigError } from '../core/config-error.js';
import { connectionFailure } from './describe-model-error.js';
import type { Endpoint } from './model-endpoint.js';

export class FirstContact {
  #answered = false;
  #failure: { message: string; hint: string } | undefined;
  readonly #fetch: typeof fetch;

  constructor(inner: typeof fetch = globalThis.fetch) {
    this.#fetch = inner;
  }

  /** The fetch to hand the provider: it passes every call on and watches the first answers. */
  readonly fetch: typeof fetch = async (input, init) => {
    try {
      const response = await this.#fetch(input, init);
      this.#answered = true;
      return response;
    } catch (error) {
      if (!this.#answered) this.#failure ??= connectionFailure(error);
      throw error;
    }
  };

  /**
   * The setup mistake, when the server at an address someone set (`--base-url`, a variable)
   * never answered and the first attempt could not connect; undefined otherwise.
   */
  unreachable(endpoint: Endpoint | undefined): ConfigError | undefined {
    const failure = this.#failure;
    if (this.#answered || !failure || !endpoint?.url || endpoint.isDefault) return undefined;
    return new ConfigError(
      endpoint.where,
      `${endpoint.url} is unreachable: ${failure.message}`,
      failure.hint,
    );
  }
}
