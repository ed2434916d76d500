// A worker's own limits against what a spec asks: a spec may narrow them, never widen them.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { PermissionMode } from '../core/permission-policy.js';
import { PERMISSION_MODES } from '../permissions/create-permission-policy.js';
import { checkChildSpec } from './child-spec-schema.js';
import { beyondLimits, DEFAULT_LIMITS, type WorkerLimits } from './worker-limits.js';

const OWN_URL = 'http://10.0.0.9:8000/v1';

function spec(model: { spec: string; baseUrl?: string }, mode: PermissionMode, allow = 0) {
  return checkChildSpec({
    agentId: 'agent_a',
    parentId: 'agent_p',
    depth: 1,
    agentPath: 'main/Agent#1/x',
    description: 'd',
    prompt: 'p',
    definition: { name: 'x', description: 'X.', prompt: '' },
    definitions: [],
    tools: ['Bash'],
    model,
    cwd: '/tmp',
    budget: { maxTurns: 3 },
    permissions: {
      mode,
      allow: Array.from({ length: allow }, () => ({ text: 'Bash', toolName: 'Bash', source: 'p' })),
      deny: [],
      ask: [],
    },
    maxDepth: 1,
    calls: {},
  });
}

const rank = (mode: PermissionMode) => PERMISSION_MODES.indexOf(mode);

describe("a worker's own limits", () => {
  it('refuse every mode above the ceiling and take every mode at or below it', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PERMISSION_MODES),
        fc.constantFrom(...PERMISSION_MODES),
        (ceiling, mode) => {
          const limits: WorkerLimits = { ...DEFAULT_LIMITS, maxMode: ceiling };
          const why = beyondLimits(spec({ spec: 'anthropic:m' }, mode), limits);
          if (rank(mode) > rank(ceiling))
            expect(why).toMatch(`above this worker's ceiling ${ceiling}`);
          else expect(why).toBeUndefined();
        },
      ),
    );
  });

  it("refuse any openai-compatible endpoint but the worker's own", () => {
    const limits: WorkerLimits = { ...DEFAULT_LIMITS, baseUrl: OWN_URL };
    fc.assert(
      fc.property(fc.webUrl(), (url) => {
        const why = beyondLimits(
          spec({ spec: 'openai-compatible:m', baseUrl: url }, 'default'),
          limits,
        );
        if (url.replace(/\/+$/, '') === OWN_URL) expect(why).toBeUndefined();
        else expect(why).toMatch(/names a model endpoint other than this worker's own/);
      }),
    );
    expect(
      beyondLimits(
        spec({ spec: 'openai-compatible:m', baseUrl: `${OWN_URL}/` }, 'default'),
        limits,
      ),
    ).toBeUndefined();
    expect(beyondLimits(spec({ spec: 'openai-compatible:m' }, 'default'), limits)).toBeUndefined();
  });

  it('refuse providers the worker does not serve, scripted by default', () => {
    expect(beyondLimits(spec({ spec: 'scripted:/etc/passwd' }, 'default'), DEFAULT_LIMITS)).toMatch(
      /provider/,
    );
    const only = { ...DEFAULT_LIMITS, providers: ['anthropic' as const] };
    expect(beyondLimits(spec({ spec: 'openai:gpt' }, 'default'), only)).toMatch(
      /--providers anthropic/,
    );
    expect(beyondLimits(spec({ spec: 'anthropic:m' }, 'default'), only)).toBeUndefined();
  });

  it('keep a read-only worker read-only: no allow rules under plan', () => {
    const plan = { ...DEFAULT_LIMITS, maxMode: 'plan' as const };
    expect(beyondLimits(spec({ spec: 'anthropic:m' }, 'plan', 1), plan)).toMatch(/read-only/);
    expect(beyondLimits(spec({ spec: 'anthropic:m' }, 'plan'), plan)).toBeUndefined();
    expect(
      beyondLimits(spec({ spec: 'anthropic:m' }, 'default', 1), DEFAULT_LIMITS),
    ).toBeUndefined();
  });
});
