import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { runKnobs } from '../core/run-knobs.js';
import { defineTool, type Tool } from '../core/tool.js';
import type { AgentDefinition } from '../definitions/agent-definition.js';
import { runtimeDefaults } from '../run/run-defaults.js';
import { builtinTools } from '../tools/builtin-tools.js';
import { childTools } from './child-tools.js';
import { SpawnTools } from './spawn-tools.js';
import { SubagentRuntime } from './subagent-runtime.js';

function fakeTool(name: string, readOnly = false): Tool {
  return defineTool({
    name,
    description: name,
    inputSchema: z.object({}),
    isReadOnly: readOnly,
    isConcurrencySafe: readOnly,
    call: async () => name,
  });
}

const PLAIN = [
  ...builtinTools().map((tool) => tool.name),
  'mcp__fs__read',
  'mcp__fs__write',
  'mcp__git__log',
];
const READ_ONLY = new Set(['Read', 'Glob', 'Grep', 'mcp__fs__read', 'mcp__git__log']);
const parentTools = PLAIN.map((name) => fakeTool(name, READ_ONLY.has(name)));

const definition = (fields: Partial<AgentDefinition>): AgentDefinition => ({
  name: 'child',
  description: 'd',
  prompt: 'p',
  extra: {},
  source: { kind: 'sdk' },
  ...fields,
});

const names = (tools: readonly Tool[]) => tools.map((tool) => tool.name).sort();

describe('childTools', () => {
  it('inherits every plain tool when the definition names none', () => {
    expect(names(childTools(parentTools, definition({})).tools)).toEqual([...PLAIN].sort());
  });

  it('keeps only the allowlist, and nothing for an empty one', () => {
    expect(names(childTools(parentTools, definition({ tools: ['Read', 'Grep'] })).tools)).toEqual([
      'Grep',
      'Read',
    ]);
    expect(childTools(parentTools, definition({ tools: [] })).tools).toEqual([]);
  });

  it('never adds a tool the parent lacks, whatever the allowlist names', () => {
    const few = [fakeTool('Read', true)];
    expect(names(childTools(few, definition({ tools: ['Read', 'Write', 'Bash'] })).tools)).toEqual([
      'Read',
    ]);
  });

  it('filters MCP tools by the same rules, wildcards included', () => {
    const fsOnly = childTools(parentTools, definition({ tools: ['mcp__fs__*'] }));
    expect(names(fsOnly.tools)).toEqual(['mcp__fs__read', 'mcp__fs__write']);
    const noGit = childTools(parentTools, definition({ disallowedTools: ['mcp__git__*'] }));
    expect(names(noGit.tools)).not.toContain('mcp__git__log');
  });

  it('reads a bare mcp__<server> as every tool of that server, as permission rules do', () => {
    const fsOnly = childTools(parentTools, definition({ tools: ['mcp__fs'] }));
    expect(names(fsOnly.tools)).toEqual(['mcp__fs__read', 'mcp__fs__write']);
    const noFs = childTools(parentTools, definition({ disallowedTools: ['mcp__fs'] }));
    expect(names(noFs.tools)).toContain('mcp__git__log');
    expect(names(noFs.tools).some((name) => name.startsWith('mcp__fs__'))).toBe(false);
  });

  it('turns denylist entries with a specifier into permission deny rules, keeping the tool', () => {
    const narrowed = childTools(
      parentTools,
      definition({ disallowedTools: ['Bash(rm:*)', 'Write'] }),
    );
    expect(names(narrowed.tools)).toContain('Bash');
    expect(names(narrowed.tools)).not.toContain('Write');
    expect(narrowed.denyRules.map((rule) => rule.text)).toEqual(['Bash(rm:*)']);
  });

  it("turns an opencode `permission` block's rules into the child's deny and ask rules, named by file and key", () => {
    const narrowed = childTools(
      parentTools,
      definition({
        source: { kind: 'project', path: '.opencode/agents/builder.md' },
        permissionRules: [
          { behavior: 'deny', rule: 'Bash', except: ['Bash(git *)'], field: 'permission.bash' },
          { behavior: 'ask', rule: 'Bash(git *)', field: 'permission.bash' },
        ],
      }),
    );
    expect(names(narrowed.tools)).toContain('Bash');
    expect(narrowed.denyRules).toEqual([
      expect.objectContaining({
        text: 'Bash',
        source: '.opencode/agents/builder.md permission.bash',
        except: [expect.objectContaining({ text: 'Bash(git *)', specifier: 'git *' })],
      }),
    ]);
    expect(narrowed.askRules.map((rule) => rule.text)).toEqual(['Bash(git *)']);
  });

  it('gives a read-only agent only read-only tools, with the read-only Bash', () => {
    const readOnly = childTools(parentTools, definition({ readOnly: true }));
    expect(names(readOnly.tools)).toEqual([
      'Bash',
      'Glob',
      'Grep',
      'Read',
      'mcp__fs__read',
      'mcp__git__log',
    ]);
    const bash = readOnly.tools.find((tool) => tool.name === 'Bash')!;
    expect(bash).not.toBe(parentTools.find((tool) => tool.name === 'Bash'));
  });
});

describe('tool isolation at any depth (property)', () => {
  const toolEntry = fc.oneof(
    fc.constantFrom(...PLAIN, 'Agent', 'mcp__fs__*', 'mcp__*', 'Nonexistent'),
    fc.constantFrom('Bash(git:*)', 'Write(src/**)', 'Agent(explore)'),
  );
  const definitionArbitrary = fc.record(
    {
      tools: fc.option(fc.array(toolEntry, { maxLength: 6 }), { nil: undefined }),
      disallowedTools: fc.option(fc.array(toolEntry, { maxLength: 4 }), { nil: undefined }),
      readOnly: fc.option(fc.boolean(), { nil: undefined }),
    },
    { requiredKeys: [] },
  );

  it('gives every agent a subset of its parent tools, and Agent only below the depth limit', () => {
    fc.assert(
      fc.property(
        fc.array(definitionArbitrary, { minLength: 1, maxLength: 4 }),
        fc.integer({ min: 0, max: 4 }),
        (chain, maxDepth) => {
          const spawn = new SpawnTools(
            new SubagentRuntime({
              ...runKnobs({ maxDepth }),
              ...runtimeDefaults(process.cwd(), {}),
              definitions: new Map([['explore', definition({ name: 'explore' })]]),
            }),
          );
          let tools: Tool[] = [
            ...parentTools,
            ...spawn.spawnTools({
              depth: 0,
              definition: undefined,
              parentTools: 'root',
              mayUseAgent: true,
            }),
          ];
          for (const [index, fields] of chain.entries()) {
            const depth = index + 1;
            const own = definition(fields);
            const narrowed = childTools(tools, own);
            const child = [
              ...narrowed.tools,
              ...spawn.spawnTools({
                depth,
                definition: own,
                parentTools: tools,
                mayUseAgent: narrowed.mayUseAgent,
              }),
            ];
            const parentNames = new Set(tools.map((tool) => tool.name));
            for (const tool of child) expect(parentNames.has(tool.name)).toBe(true);
            if (depth >= maxDepth) expect(child.some((tool) => tool.name === 'Agent')).toBe(false);
            if (own.readOnly) {
              expect(
                child.every(
                  (tool) =>
                    tool.name === 'Bash' || tool.name === 'Agent' || tool.isReadOnly === true,
                ),
              ).toBe(true);
            }
            tools = child;
          }
        },
      ),
      { numRuns: 500 },
    );
  });
});

describe('the tool lists SpawnTools makes', () => {
  const spawnTools = () =>
    new SpawnTools(
      new SubagentRuntime({
        ...runKnobs({ maxDepth: 3 }),
        ...runtimeDefaults(process.cwd(), {}),
        definitions: new Map([['explore', definition({ name: 'explore' })]]),
      }),
    );

  it('gives the children of one turn one list, and each definition, depth and parent list its own', () => {
    const spawn = spawnTools();
    const explore = definition({ name: 'explore', tools: ['Read', 'Grep'] });
    const plan = definition({ name: 'plan', tools: ['Read'] });
    const first = spawn.toolsFor({ depth: 1, definition: explore, parentTools });
    expect(spawn.toolsFor({ depth: 1, definition: explore, parentTools })).toBe(first);
    expect(names(first.tools)).toEqual(['Grep', 'Read']);
    expect(names(spawn.toolsFor({ depth: 1, definition: plan, parentTools }).tools)).toEqual([
      'Read',
    ]);
    expect(spawn.toolsFor({ depth: 2, definition: explore, parentTools })).not.toBe(first);
    const fewer = parentTools.filter((tool) => tool.name !== 'Grep');
    expect(
      names(spawn.toolsFor({ depth: 1, definition: explore, parentTools: fewer }).tools),
    ).toEqual(['Read']);
  });
});
