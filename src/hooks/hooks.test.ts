// Hooks end to end through query() and the scripted model: command hooks (small node scripts)
// and library callbacks fire for the main agent and inside children at every depth, and what
// they decide holds there.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent, RunResult } from '../core/events.js';
import { defineTool, type Tool } from '../core/tool.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { type QueryOptions, query } from '../query.js';
import { unframed } from '../testing/framed-output.js';
import { answer, writeHookScript } from '../testing/hook-scripts.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { echoTool, readOnlyTool } from '../testing/stub-tools.js';
import { useTempDir } from '../testing/temp-dir.js';
import type { HookSettings } from './hook-settings.js';

const dir = useTempDir('warren-hooks-');

const agentCall = (prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'Agent',
  input: { description: prompt.slice(0, 20), prompt, ...extra },
});
const shell = (command: string) => ({ name: 'Shell', input: { command } });

/** A tool that changes things (so permissions apply) and remembers every command it ran. */
function shellTool(ran: string[]): Tool {
  return defineTool({
    name: 'Shell',
    description: 'runs a command',
    inputSchema: z.object({ command: z.string() }),
    isReadOnly: false,
    isConcurrencySafe: false,
    async call({ command }) {
      ran.push(command);
      return `ran: ${command}`;
    },
  });
}

async function runTree(
  turns: ScriptTurn[],
  options: Partial<QueryOptions> = {},
  prompt = 'main task',
): Promise<{ result: RunResult; events: AgentEvent[]; ran: string[] }> {
  const ran: string[] = [];
  const { events, result } = await runToEnd(
    query({
      prompt,
      options: {
        model: scriptedModel(turns),
        tools: [echoTool, shellTool(ran)],
        cwd: dir(),
        permissions: createPermissionPolicy({ mode: 'bypassPermissions' }),
        ...options,
      },
    }),
  );
  return { result, events, ran };
}

const command = (cmd: string, timeout?: number) => ({
  type: 'command' as const,
  command: cmd,
  ...(timeout === undefined ? {} : { timeout }),
});

const toolResults = (events: AgentEvent[], depth: number) =>
  ofType(events, 'tool_end').filter((event) => event.depth === depth);
const warnings = (events: AgentEvent[]) => ofType(events, 'warning').map((event) => event.message);

describe('PreToolUse hooks', () => {
  it('deny a call in a child and in a grandchild, even under bypassPermissions', async () => {
    const guard = await writeHookScript(
      dir(),
      'guard',
      `if (input.tool_input.command.startsWith('rm')) {
  process.stderr.write('no rm, ' + input.agent_type + ' at depth ' + input.depth);
  process.exit(2);
}`,
    );
    const { events, ran } = await runTree(
      [
        { toolCalls: [agentCall('LEVEL-ONE')] },
        { match: { prompt: 'LEVEL-ONE' }, toolCalls: [shell('rm -rf one')] },
        {
          match: { lastToolResult: 'no rm, general-purpose at depth 1' },
          toolCalls: [agentCall('LEVEL-TWO')],
        },
        { match: { prompt: 'LEVEL-TWO' }, toolCalls: [shell('rm -rf two'), shell('ls')] },
        { match: { lastToolResult: 'ran: ls' }, text: 'two done' },
        { match: { lastToolResult: 'two done' }, text: 'one done' },
        { text: 'all done' },
      ],
      { hooks: { PreToolUse: [{ matcher: 'Shell', hooks: [command(guard.command)] }] } },
    );
    expect(ran).toEqual(['ls']);
    for (const depth of [1, 2]) {
      const denied = toolResults(events, depth).find((event) => event.output.includes('no rm'));
      expect(denied).toMatchObject({ isError: true, toolName: 'Shell' });
      expect(denied?.output).toContain('blocked by a PreToolUse hook');
    }
    const calls = guard.calls();
    expect(calls.map((call) => [call.depth, call.tool_name, call.agent_type])).toEqual([
      [1, 'Shell', 'general-purpose'],
      [2, 'Shell', 'general-purpose'],
      [2, 'Shell', 'general-purpose'],
    ]);
    expect(calls[0]).toMatchObject({
      hook_event_name: 'PreToolUse',
      tool_input: { command: 'rm -rf one' },
      cwd: dir(),
      parent_agent_id: expect.stringMatching(/^main_/),
    });
  });
});

describe('PreToolUse hooks, more', () => {
  it('replace the input with updatedInput before the permission check and the call see it', async () => {
    const seen: unknown[] = [];
    const { ran } = await runTree([{ toolCalls: [shell('npm test')] }, { text: 'done' }], {
      hooks: {
        PreToolUse: [
          {
            matcher: 'Shell',
            hooks: [
              async (input) => ({
                hookSpecificOutput: {
                  hookEventName: 'PreToolUse',
                  updatedInput: {
                    command: `${(input.tool_input as { command: string }).command} --silent`,
                  },
                },
              }),
            ],
          },
        ],
      },
      permissions: createPermissionPolicy({
        mode: 'default',
        canUseTool: async (prompt) => {
          seen.push(prompt.input);
          return { behavior: 'allow' };
        },
      }),
    });
    expect(seen).toEqual([{ command: 'npm test --silent' }]);
    expect(ran).toEqual(['npm test --silent']);
  });

  it('refuse a call whose updatedInput does not fit the tool', async () => {
    const { ran, events } = await runTree([{ toolCalls: [shell('ls')] }, { text: 'done' }], {
      hooks: {
        PreToolUse: [
          {
            hooks: [async () => ({ hookSpecificOutput: { updatedInput: { command: 42 } } })],
          },
        ],
      },
    });
    expect(ran).toEqual([]);
    expect(toolResults(events, 0)[0]?.output).toContain('does not fit its schema');
  });

  it('ask for a person even where the mode allows the call, and with nobody to ask refuse it', async () => {
    const notified: unknown[] = [];
    const asked: string[] = [];
    const hooks: HookSettings = {
      PreToolUse: [
        {
          matcher: 'Shell',
          hooks: [
            async () => ({
              hookSpecificOutput: {
                permissionDecision: 'ask',
                permissionDecisionReason: 'deploys need a person',
              },
            }),
          ],
        },
      ],
      Notification: [{ hooks: [async (input) => void notified.push(input.notification_type)] }],
    };
    const withPerson = await runTree([{ toolCalls: [shell('deploy')] }, { text: 'done' }], {
      hooks,
      permissions: createPermissionPolicy({
        mode: 'bypassPermissions',
        canUseTool: async (prompt) => {
          asked.push(prompt.call);
          return { behavior: 'allow' };
        },
      }),
    });
    expect(asked).toEqual(['Shell']);
    expect(withPerson.ran).toEqual(['deploy']);
    expect(notified).toEqual(['permission_prompt']);

    const alone = await runTree([{ toolCalls: [shell('deploy')] }, { text: 'done' }], { hooks });
    expect(alone.ran).toEqual([]);
    expect(toolResults(alone.events, 0)[0]?.output).toContain('deploys need a person');
  });

  it('defined in a definition fire only for the agents that run it', async () => {
    const guard = await writeHookScript(dir(), 'guard', 'process.exit(2);');
    const { ran } = await runTree(
      [
        { toolCalls: [shell('main')] },
        {
          match: { lastToolResult: 'ran: main' },
          toolCalls: [
            agentCall('GUARDED go', { subagent_type: 'guarded' }),
            agentCall('FREE go', { subagent_type: 'general-purpose' }),
          ],
        },
        { match: { prompt: 'GUARDED' }, toolCalls: [shell('guarded')] },
        { match: { prompt: 'GUARDED' }, text: 'guarded done' },
        { match: { prompt: 'FREE' }, toolCalls: [shell('free')] },
        { match: { prompt: 'FREE' }, text: 'free done' },
        { text: 'all done' },
      ],
      {
        agents: {
          guarded: {
            description: 'a guarded agent',
            prompt: 'you are guarded',
            hooks: { PreToolUse: [{ hooks: [command(guard.command)] }] },
          },
        },
      },
    );
    expect(ran.sort()).toEqual(['free', 'main']);
    expect(guard.calls().map((call) => call.agent_type)).toEqual(['guarded']);
  });
});

describe('hooks with MCP servers', () => {
  it('hold for MCP tools in a child, and the session hooks wrap the servers', async () => {
    const server = new McpServer({ name: 'db', version: '1.0.0' });
    server.registerTool(
      'drop',
      { description: 'drops a table', inputSchema: { table: z.string() } },
      async ({ table }) => ({ content: [{ type: 'text', text: `dropped ${table}` }] }),
    );
    const seen: string[] = [];
    const { events } = await runTree(
      [
        { toolCalls: [agentCall('CHILD clean up')] },
        {
          match: { prompt: 'CHILD', tools: ['mcp__db__drop'] },
          toolCalls: [{ name: 'mcp__db__drop', input: { table: 'users' } }],
        },
        { match: { lastToolResult: 'no dropping' }, text: 'could not drop' },
        { text: 'done' },
      ],
      {
        mcpServers: { db: server },
        hooks: {
          SessionStart: [{ hooks: [async () => void seen.push('start')] }],
          PreToolUse: [
            {
              matcher: 'mcp__db__.*',
              hooks: [
                async (input) => ({
                  hookSpecificOutput: {
                    permissionDecision: 'deny',
                    permissionDecisionReason: `no dropping at ${input.agent_path}`,
                  },
                }),
              ],
            },
          ],
          SessionEnd: [{ hooks: [async () => void seen.push('end')] }],
        },
      },
    );
    expect(toolResults(events, 1)[0]).toMatchObject({
      isError: true,
      denial:
        'mcp__db__drop was blocked by a PreToolUse hook: no dropping at main/Agent#1/general-purpose',
    });
    expect(seen).toEqual(['start', 'end']);
  });
});

describe('PostToolUse hooks', () => {
  it("add a blocking hook's reason to the tool result the model reads next", async () => {
    const lint = await writeHookScript(
      dir(),
      'lint',
      answer({ decision: 'block', reason: 'lint failed: missing semicolon' }),
    );
    const { result } = await runTree(
      [
        { toolCalls: [agentCall('CHILD edit')] },
        { match: { prompt: 'CHILD' }, toolCalls: [shell('edit file')] },
        {
          match: { lastToolResult: 'lint failed: missing semicolon' },
          text: 'fixed the semicolon',
        },
        { text: 'done' },
      ],
      { hooks: { PostToolUse: [{ matcher: 'Shell', hooks: [command(lint.command)] }] } },
    );
    expect(result.status).toBe('completed');
    expect(lint.calls()[0]).toMatchObject({ tool_response: 'ran: edit file', depth: 1 });
  });

  it('give PostToolUseFailure hooks the error, and their context to the model', async () => {
    const failing = readOnlyTool({
      name: 'Flaky',
      description: 'fails',
      async call() {
        return { output: 'disk full', isError: true };
      },
    });
    const errors: string[] = [];
    const { result } = await runTree(
      [
        { toolCalls: [{ name: 'Flaky', input: {} }] },
        { match: { lastToolResult: 'try the scratch disk' }, text: 'will do' },
      ],
      {
        tools: [failing],
        hooks: {
          PostToolUseFailure: [
            {
              hooks: [
                async (input) => {
                  errors.push(input.error);
                  return { hookSpecificOutput: { additionalContext: 'try the scratch disk' } };
                },
              ],
            },
          ],
        },
      },
    );
    expect(errors).toEqual(['disk full']);
    expect(result.result).toBe('will do');
  });
});

describe('SubagentStart and SubagentStop hooks', () => {
  it("SubagentStart context reaches the child's model with its task", async () => {
    const context = await writeHookScript(
      dir(),
      'context',
      answer({
        hookSpecificOutput: {
          hookEventName: 'SubagentStart',
          additionalContext: 'the repo uses pnpm',
        },
      }),
    );
    const { result } = await runTree(
      [
        { toolCalls: [agentCall('CHILD install', { subagent_type: 'explore' })] },
        { match: { prompt: 'the repo uses pnpm' }, text: 'pnpm install' },
        { text: 'done' },
      ],
      { hooks: { SubagentStart: [{ matcher: 'explore', hooks: [command(context.command)] }] } },
    );
    expect(result.status).toBe('completed');
    expect(context.calls()[0]).toMatchObject({
      hook_event_name: 'SubagentStart',
      agent_type: 'explore',
      depth: 1,
      prompt: 'CHILD install',
    });
  });

  it('SubagentStop sends a child back to work once, and lets it stop once stop_hook_active', async () => {
    const check = await writeHookScript(
      dir(),
      'check',
      `if (!input.stop_hook_active) {
  process.stdout.write(JSON.stringify({ decision: 'block', reason: 'also run the tests' }));
}`,
    );
    const { result, events } = await runTree(
      [
        { toolCalls: [agentCall('CHILD fix it')] },
        { match: { prompt: 'CHILD' }, text: 'fixed' },
        { match: { prompt: 'also run the tests' }, toolCalls: [shell('npm test')] },
        { match: { prompt: 'also run the tests' }, text: 'fixed, tests pass' },
        { text: 'done' },
      ],
      { hooks: { SubagentStop: [{ hooks: [command(check.command)] }] } },
    );
    expect(result.status).toBe('completed');
    expect(
      check.calls().map((call) => [call.stop_hook_active, call.last_assistant_message]),
    ).toEqual([
      [false, 'fixed'],
      [true, 'fixed, tests pass'],
    ]);
    expect(check.calls()[0]).toMatchObject({
      hook_event_name: 'SubagentStop',
      status: 'completed',
    });
    expect(unframed(toolResults(events, 0)[0]!.output)).toBe('fixed, tests pass');
  });

  it('a stop hook that never lets go cannot keep an agent working forever', async () => {
    const { result, events } = await runTree(
      Array.from({ length: 12 }, (_, i) => ({ text: `attempt ${i}` })),
      {
        hooks: {
          Stop: [{ hooks: [async () => ({ decision: 'block' as const, reason: 'again' })] }],
        },
      },
    );
    expect(result).toMatchObject({ status: 'completed', numTurns: 11 });
    expect(warnings(events).at(-1)).toContain('back to work 10 times');
  });
});

describe('command hooks', () => {
  it('a hook that hangs is stopped at its timeout and the run goes on with a warning', async () => {
    const hang = await writeHookScript(dir(), 'hang', 'setInterval(() => {}, 1000);');
    const started = Date.now();
    const { ran, events } = await runTree([{ toolCalls: [shell('ls')] }, { text: 'done' }], {
      hooks: { PreToolUse: [{ hooks: [command(hang.command, 0.5)] }] },
    });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(ran).toEqual(['ls']);
    expect(warnings(events)).toEqual([
      expect.stringMatching(/hooks\.PreToolUse\[0\]\.hooks\[0\]: it did not finish within 0\.5 s/),
    ]);
  });

  it('output that is not the JSON it claims to be is a warning, not a decision', async () => {
    const broken = await writeHookScript(dir(), 'broken', 'process.stdout.write("{ not json");');
    const { ran, events } = await runTree([{ toolCalls: [shell('ls')] }, { text: 'done' }], {
      hooks: { PreToolUse: [{ hooks: [command(broken.command)] }] },
    });
    expect(ran).toEqual(['ls']);
    expect(warnings(events)[0]).toContain('is not valid JSON');
  });
});

describe('session and prompt hooks', () => {
  it('SessionStart and UserPromptSubmit context reach the main model; SessionEnd runs last', async () => {
    const order: string[] = [];
    const log = (name: string) => async () => void order.push(name);
    const { result } = await runTree(
      [{ match: { prompt: '/use tabs[\\s\\S]*ticket 42/' }, text: 'ok' }],
      {
        hooks: {
          SessionStart: [
            {
              hooks: [
                log('SessionStart'),
                async () => ({ hookSpecificOutput: { additionalContext: 'use tabs' } }),
              ],
            },
          ],
          UserPromptSubmit: [
            {
              hooks: [
                log('UserPromptSubmit'),
                async () => ({ hookSpecificOutput: { additionalContext: 'ticket 42' } }),
              ],
            },
          ],
          Stop: [{ hooks: [log('Stop')] }],
          SessionEnd: [{ hooks: [log('SessionEnd')] }],
        },
      },
    );
    expect(result.result).toBe('ok');
    expect(order).toEqual(['SessionStart', 'UserPromptSubmit', 'Stop', 'SessionEnd']);
  });

  it('a UserPromptSubmit block ends the run before the model is called', async () => {
    const model = scriptedModel([{ text: 'never' }]);
    const { result } = await runToEnd(
      query({
        prompt: 'delete production',
        options: {
          model,
          tools: [],
          cwd: dir(),
          hooks: {
            UserPromptSubmit: [
              { hooks: [async () => ({ decision: 'block' as const, reason: 'not today' })] },
            ],
          },
        },
      }),
    );
    expect(result).toMatchObject({
      status: 'failed',
      error: 'The prompt was blocked by a UserPromptSubmit hook: not today',
    });
    expect(model.calls).toHaveLength(0);
  });
});
