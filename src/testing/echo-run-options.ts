// The options of a test run that needs nothing of its own: the echo tool, a fresh temp dir as
// its folder, and retries that do not wait. A test spreads its own options over them.
import type { RetryOptions } from '../core/inherited-options.js';
import type { Tool } from '../core/tool.js';
import { echoTool } from './stub-tools.js';
import { makeTempDir } from './temp-dir.js';

/** Retries at once: a test's failing model call is retried without the real back-off. */
export const NO_WAIT_RETRY: RetryOptions = { initialDelayMs: 1, maxDelayMs: 5 };

export async function echoRunOptions<Model>(
  model: Model,
): Promise<{ model: Model; tools: Tool[]; cwd: string; retry: RetryOptions }> {
  return { model, tools: [echoTool], cwd: await makeTempDir(), retry: NO_WAIT_RETRY };
}
