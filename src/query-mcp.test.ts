// query() with MCP servers, as a library user writes it: session servers around the run, an
// in-process McpServer for one's own tools, the server's JSON Schema sent to the model as it is,
// permission rules on MCP tools, and warnings as events.
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEventOf } from './core/events.js';
import { liveGroups } from './core/process-group.js';
import { scriptedModel } from './model/scripted-model.js';
import type { ScriptTurn } from './model/scripted-script.js';
import { createPermissionPolicy } from './permissions/create-permission-policy.js';
import { parseRuleList } from './permissions/permission-rule.js';
import { type QueryOptions, query } from './query.js';
import { everythingServer } from './testing/mcp-servers.js';
import { isAlive } from './testing/process-liveness.js';
import { ofType, runToEnd } from './testing/run-events.js';
import { makeTempDir } from './testing/temp-dir.js';

async function run(turns: ScriptTurn[], options: Partial<QueryOptions>) {
  const model = scriptedModel(turns);
  const { events } = await runToEnd(
    query({
      prompt: 'use the servers',
      options: { model, tools: [], cwd: await makeTempDir(), ...options },
    }),
  );
  const outputs = ofType(events, 'tool_end').map((event) => [event.toolName, event.output]);
  return { model, events, outputs };
}

function shouter(): McpServer {
  const server = new McpServer({ name: 'mine', version: '1.0.0' });
  server.registerTool(
    'shout',
    {
      description: 'Upper-cases text',
      inputSchema: { text: z.string().describe('what to shout') },
      annotations: { readOnlyHint: true },
    },
    async ({ text }) => ({ content: [{ type: 'text', text: text.toUpperCase() }] }),
  );
  return server;
}

describe('query() with mcpServers', () => {
  it('starts the session servers before the main agent and stops them when it ends', async () => {
    const before = new Set(liveGroups());
    let during: number[] = [];
    const outputs: string[][] = [];
    for await (const event of query({
      prompt: 'use them',
      options: {
        model: scriptedModel([
          {
            toolCalls: [
              { name: 'mcp__everything__echo', input: { message: 'stdio' } },
              { name: 'mcp__mine__shout', input: { text: 'in process' } },
            ],
          },
          { text: 'done' },
        ]),
        tools: [],
        cwd: await makeTempDir(),
        mcpServers: { everything: everythingServer(), mine: shouter() },
      },
    })) {
      if (event.type !== 'tool_end') continue;
      outputs.push([event.toolName, event.output]);
      during = liveGroups().filter((pid) => !before.has(pid) && isAlive(pid));
    }
    expect(outputs).toContainEqual(['mcp__everything__echo', 'Echo: stdio']);
    expect(outputs).toContainEqual(['mcp__mine__shout', 'IN PROCESS']);
    expect(during).toHaveLength(1);
    expect(isAlive(during[0]!)).toBe(false);
  });

  it("sends each MCP tool to the model with the server's JSON Schema as the server gave it", async () => {
    const { model } = await run([{ text: 'looked' }], { mcpServers: { e: everythingServer() } });
    const spec = model.calls[0]?.tools?.find(
      (tool) => tool.name === 'mcp__e__get-annotated-message',
    );
    expect(spec).toMatchObject({
      description: 'Demonstrates how annotations can be used to provide metadata about content.',
      inputSchema: {
        $schema: 'http://json-schema.org/draft-07/schema#',
        type: 'object',
        properties: {
          messageType: { type: 'string', enum: ['error', 'success', 'debug'] },
          includeImage: { type: 'boolean', default: false },
        },
        required: ['messageType'],
      },
    });
  });

  it('applies permission rules to MCP tools as to built-ins; only readOnlyHint tools run unasked', async () => {
    const calls = [
      { name: 'mcp__e__echo', input: { message: 'read-only' } },
      { name: 'mcp__e__toggle-simulated-logging', input: {} },
    ];
    const turns = (): ScriptTurn[] => [{ toolCalls: calls }, { text: 'done' }];
    const policy = (allow: string, deny = '') =>
      createPermissionPolicy({
        mode: 'default',
        allow: parseRuleList(allow, 'allow'),
        deny: parseRuleList(deny, 'deny'),
      });

    const plain = await run(turns(), {
      mcpServers: { e: everythingServer() },
      permissions: policy(''),
    });
    expect(plain.outputs[0]).toEqual(['mcp__e__echo', 'Echo: read-only']);
    expect(plain.outputs[1]?.[1]).toMatch(
      /^Permission to use mcp__e__toggle-simulated-logging was not granted/,
    );

    const allowed = await run(turns(), {
      mcpServers: { e: everythingServer() },
      permissions: policy('mcp__e__*', 'mcp__e__echo'),
    });
    expect(allowed.outputs[0]?.[1]).toMatch(/not granted|denied/i);
    expect(allowed.outputs[1]?.[1]).toMatch(/logging/i);
  });

  it('reports a server that does not start as a warning event right after run_start, and goes on', async () => {
    const { events } = await run([{ text: 'fine without it' }], {
      mcpServers: { gone: { command: 'warren-no-such-server' }, mine: shouter() },
    });
    expect(events[0]?.type).toBe('run_start');
    expect((events[0] as AgentEventOf<'run_start'>).tools).toEqual([
      'mcp__mine__shout',
      'Agent',
      'TaskOutput',
      'TaskStop',
      'SendMessage',
      'ListAgents',
    ]);
    expect(events[1]).toMatchObject({
      type: 'warning',
      agentId: events[0]?.agentId,
      message:
        'MCP server "gone" did not start: the command "warren-no-such-server" was not found; going on without it',
    });
    expect(events.at(-1)).toMatchObject({ type: 'result', status: 'completed' });
  });

  it('stops the session servers when the caller stops reading early', async () => {
    const before = new Set(liveGroups());
    const generator = query({
      prompt: 'x',
      options: {
        model: scriptedModel([{ text: 'hello' }]),
        tools: [],
        mcpServers: { e: everythingServer() },
        cwd: await makeTempDir(),
      },
    });
    const first = await generator.next();
    expect(first.value).toMatchObject({ type: 'run_start' });
    const started = liveGroups().filter((pid) => !before.has(pid));
    expect(started).toHaveLength(1);
    await generator.return(undefined as never);
    expect(isAlive(started[0]!)).toBe(false);
  });

  it('starts the servers of the definition the main agent runs as, for the whole run', async () => {
    const before = new Set(liveGroups());
    const { outputs, events } = await run(
      [{ toolCalls: [{ name: 'mcp__own__echo', input: { message: 'lead' } }] }, { text: 'done' }],
      {
        agent: 'lead',
        agents: {
          lead: { description: 'leads', prompt: 'LEAD', mcpServers: [{ own: everythingServer() }] },
        },
      },
    );
    expect(outputs).toEqual([['mcp__own__echo', 'Echo: lead']]);
    expect((events[0] as AgentEventOf<'run_start'>).agentType).toBe('lead');
    expect(liveGroups().filter((pid) => !before.has(pid) && isAlive(pid))).toEqual([]);
  });

  it('refuses a bad server config on the first next(), naming the field', async () => {
    const generator = query({
      prompt: 'x',
      options: { model: scriptedModel([]), mcpServers: { bad: { command: 42 } as never } },
    });
    await expect(generator.next()).rejects.toThrow(
      /^mcpServers\.bad\.command: server "bad" field "command"/,
    );
  });
});
