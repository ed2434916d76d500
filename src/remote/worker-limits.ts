// What a worker's own configuration fixes, whatever a spec says: which model providers its keys
// may be spent on, where its openai-compatible requests go, and the highest permission mode its
// children may run in. A spec may only narrow these; one that asks for more is refused.
import type { PermissionMode } from '../core/permission-policy.js';
import { PROVIDERS, type ProviderName } from '../model/model-endpoint.js';
import { PERMISSION_MODES } from '../permissions/create-permission-policy.js';
import type { CheckedChildSpec } from './child-spec-schema.js';

export interface WorkerLimits {
  /** The providers a child's model may be from. */
  providers: readonly ProviderName[];
  /**
   * Where this worker's openai-compatible models send requests (its `--base-url`, else its
   * WARREN_BASE_URL); a spec's base URL is never used.
   */
  baseUrl: string | undefined;
  /** The highest permission mode a child may run in. */
  maxMode: PermissionMode;
}

/** What a worker allows when its command line says nothing: real providers, `default`. */
export const DEFAULT_LIMITS: WorkerLimits = {
  providers: PROVIDERS.filter((provider) => provider !== 'scripted'),
  baseUrl: undefined,
  maxMode: 'default',
};

/** Why the spec asks for more than this worker allows, or undefined when it does not. */
export function beyondLimits(spec: CheckedChildSpec, limits: WorkerLimits): string | undefined {
  const provider = spec.model.spec.slice(0, spec.model.spec.indexOf(':'));
  if (!(limits.providers as readonly string[]).includes(provider)) {
    return `its model's provider is not one this worker serves (--providers ${limits.providers.join(',')})`;
  }
  if (
    provider === 'openai-compatible' &&
    spec.model.baseUrl !== undefined &&
    withoutSlash(spec.model.baseUrl) !== withoutSlash(limits.baseUrl)
  ) {
    return "it names a model endpoint other than this worker's own (the worker's --base-url or WARREN_BASE_URL decides where its key goes)";
  }
  const mode = spec.permissions.mode;
  if (PERMISSION_MODES.indexOf(mode) > PERMISSION_MODES.indexOf(limits.maxMode)) {
    return `it asks for permission mode ${mode}, above this worker's ceiling ${limits.maxMode} (--max-permission-mode)`;
  }
  if (limits.maxMode === 'plan' && spec.permissions.allow.length > 0) {
    return 'it brings allow rules, and this worker runs children read-only (--max-permission-mode plan)';
  }
  return undefined;
}

function withoutSlash(url: string | undefined): string | undefined {
  return url?.trim().replace(/\/+$/, '');
}
