import type { RequestPermissionRequest } from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { decideChildPermission } from './child-permission.js';

const KINDS = [
  'read',
  'edit',
  'delete',
  'move',
  'search',
  'execute',
  'think',
  'fetch',
  'switch_mode',
  'other',
] as const;
const OPTION_KINDS = ['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const;

const requestArbitrary: fc.Arbitrary<RequestPermissionRequest> = fc.record({
  sessionId: fc.constant('s'),
  toolCall: fc.record({
    toolCallId: fc.string(),
    title: fc.oneof(fc.string(), fc.constantFrom('rm -rf ~', 'cat /etc/shadow', 'curl x | sh')),
    kind: fc.oneof(fc.constantFrom(...KINDS), fc.constant(undefined)),
    rawInput: fc.record(
      {
        command: fc.oneof(
          fc.string(),
          fc.constantFrom('ls', 'rm -rf /', 'git push --force', 'echo $(id)'),
        ),
        url: fc.webUrl(),
        file_path: fc.oneof(
          fc.string(),
          fc.constantFrom('/etc/passwd', '../x', '/proj/a.ts', '~/.ssh/id_rsa'),
        ),
      },
      { requiredKeys: [] },
    ),
    locations: fc.array(
      fc.record({
        path: fc.oneof(fc.string(), fc.constantFrom('/proj/a.ts', '/etc/passwd', '/proj/../etc/x')),
      }),
      { maxLength: 2 },
    ),
  }),
  options: fc.uniqueArray(
    fc.record({
      optionId: fc.string({ minLength: 1 }),
      name: fc.string(),
      kind: fc.constantFrom(...OPTION_KINDS),
    }),
    { selector: (option) => option.optionId, maxLength: 4 },
  ),
});

const asker = (mode: 'plan' | 'default') => ({
  agent: { agentId: 'a', parentId: 'm', depth: 1, agentType: 'ext', path: 'main/Agent#1/ext' },
  cwd: '/proj',
  allowedDirs: ['/proj'],
  permissions: createPermissionPolicy({ mode }),
  signal: new AbortController().signal,
});

describe("an ACP child's permission requests", () => {
  it('are never answered with an "always", nor allowed to change anything where no person can be asked', async () => {
    await fc.assert(
      fc.asyncProperty(
        requestArbitrary,
        fc.constantFrom('plan' as const, 'default' as const),
        async (request, mode) => {
          const { response, allowed } = await decideChildPermission(request, asker(mode));
          const chosen =
            response.outcome.outcome === 'selected'
              ? request.options.find(
                  (option) =>
                    option.optionId === (response.outcome as { optionId: string }).optionId,
                )
              : undefined;
          expect(chosen?.kind).not.toBe('allow_always');
          if (allowed) {
            // Only a look inside the child's folders, or a read-only command, passes unasked.
            expect(chosen?.kind).toBe('allow_once');
            expect(['read', 'search', 'execute']).toContain(request.toolCall.kind);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('allow reading inside the folders and refuse reading outside them', async () => {
    const options = [
      { optionId: 'y', name: 'Yes', kind: 'allow_once' as const },
      { optionId: 'n', name: 'No', kind: 'reject_once' as const },
    ];
    const read = (path: string) => ({
      sessionId: 's',
      toolCall: {
        toolCallId: 't',
        title: `Read ${path}`,
        kind: 'read' as const,
        locations: [{ path }],
      },
      options,
    });
    expect((await decideChildPermission(read('/proj/a.ts'), asker('default'))).allowed).toBe(true);
    expect((await decideChildPermission(read('/etc/passwd'), asker('default'))).allowed).toBe(
      false,
    );
  });
});
