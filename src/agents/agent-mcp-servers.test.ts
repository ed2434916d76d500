// Per-agent MCP servers through query() and the scripted model: a child's own servers start
// with it, are seen only by it and its children, and stop however it ends; a server it shares
// with its parent is never closed by it. Real server-everything processes, checked by PID.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent, AgentEventOf } from '../core/events.js';
import { liveGroups } from '../core/process-group.js';
import { loadAgentDefinitions } from '../definitions/load-agent-definitions.js';
import { type ScriptedModel, scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { type QueryOptions, query } from '../query.js';
import { everythingServer } from '../testing/mcp-servers.js';
import { isAlive } from '../testing/process-liveness.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { echoTool, readOnlyTool } from '../testing/stub-tools.js';
import { makeTempDir } from '../testing/temp-dir.js';

const agentCall = (subagentType: string, prompt: string) => ({
  name: 'Agent',
  input: { description: prompt.slice(0, 20), prompt, subagent_type: subagentType },
});

/** The server process groups alive when each Snapshot call ran. */
let snapshots: number[][] = [];
const snapshotTool = readOnlyTool({
  name: 'Snapshot',
  description: 'records the live MCP server processes',
  async call() {
    snapshots.push(liveGroups().filter(isAlive));
    return 'noted';
  },
});

async function run(turns: ScriptTurn[], options: Partial<QueryOptions> = {}) {
  const model = scriptedModel(turns);
  const { events, result } = await runToEnd(
    query({
      prompt: 'MAIN task',
      options: {
        model,
        tools: [echoTool, snapshotTool],
        cwd: await makeTempDir(),
        permissions: undefined,
        ...options,
      },
    }),
  );
  return { result, events, model, results: ofType(events, 'result') };
}

const offered = (call: LanguageModelV4CallOptions | undefined) =>
  (call?.tools ?? []).map((tool) => tool.name);
const callsWith = (model: ScriptedModel, system: string) =>
  model.calls.filter((call) => JSON.stringify(call.prompt[0]).includes(system));
/** The main agent's options with one `worker` agent, whose system prompt is WORKER-PROMPT. */
const withWorker = (
  worker: Partial<NonNullable<QueryOptions['agents']>[string]>,
): Partial<QueryOptions> => ({
  systemPrompt: 'You are the main agent.',
  agents: { worker: { description: 'works', prompt: 'WORKER-PROMPT', ...worker } },
});
/** The main agent's first turn: it hands WORK to the worker. */
const handToWorker: ScriptTurn = {
  match: { system: 'You are' },
  toolCalls: [agentCall('worker', 'WORK')],
};
const toolOutputs = (events: AgentEvent[], agentType?: string) => {
  const ids = new Set(
    events
      .filter(
        (event) => event.type === 'run_start' && (!agentType || event.agentType === agentType),
      )
      .map((event) => event.agentId),
  );
  return ofType(events, 'tool_end')
    .filter((event) => ids.has(event.agentId))
    .map((event) => [event.toolName, event.output]);
};

beforeEach(() => {
  snapshots = [];
});

describe('a child with MCP servers of its own', () => {
  it('starts them when it starts, and they are gone when it ends (checked by PID)', async () => {
    const before = liveGroups().filter(isAlive);
    const { result, model, events } = await run(
      [
        { match: { system: 'You are' }, toolCalls: [{ name: 'Snapshot', input: {} }] },
        { match: { lastToolResult: 'noted' }, toolCalls: [agentCall('worker', 'WORK')] },
        {
          match: { system: 'WORKER-PROMPT' },
          toolCalls: [
            { name: 'mcp__own__echo', input: { message: 'from the child' } },
            { name: 'Snapshot', input: {} },
          ],
        },
        { match: { system: 'WORKER-PROMPT' }, text: 'worked' },
        { text: 'all done' },
      ],
      withWorker({ mcpServers: [{ own: everythingServer() }] }),
    );
    expect(result.status).toBe('completed');
    expect(toolOutputs(events, 'worker')).toContainEqual([
      'mcp__own__echo',
      'Echo: from the child',
    ]);
    const [atMainStart, inChild] = snapshots;
    const started = inChild!.filter((pid) => !atMainStart!.includes(pid) && !before.includes(pid));
    expect(started).toHaveLength(1);
    expect(isAlive(started[0]!)).toBe(false);
    // The parent never sees the child's server.
    for (const call of callsWith(model, 'You are the main agent')) {
      expect(offered(call).some((name) => name.startsWith('mcp__own__'))).toBe(false);
    }
  });

  it('reads both inline forms real files use, and applies its deny list to their tools', async () => {
    const { model } = await run(
      [handToWorker, { match: { system: 'WORKER-PROMPT' }, text: 'looked' }, { text: 'done' }],
      withWorker({
        // Claude Code's `- name: {config}` and the seed's `- name: x` with the config beside it.
        mcpServers: [{ cc: everythingServer() }, { name: 'seed', ...everythingServer() }],
        disallowedTools: ['mcp__seed__get-env', 'mcp__cc__get-env'],
      }),
    );
    const tools = offered(callsWith(model, 'WORKER-PROMPT')[0]);
    expect(tools).toEqual(expect.arrayContaining(['mcp__cc__echo', 'mcp__seed__echo']));
    expect(tools).not.toContain('mcp__seed__get-env');
    expect(tools).not.toContain('mcp__cc__get-env');
  });

  it('are seen by its own children, never by its parent or its siblings', async () => {
    const { model, result } = await run(
      [
        {
          match: { system: 'You are' },
          toolCalls: [agentCall('alpha', 'ALPHA task'), agentCall('beta', 'BETA task')],
        },
        {
          match: { prompt: 'ALPHA task' },
          toolCalls: [agentCall('general-purpose', 'GRANDCHILD')],
        },
        { match: { prompt: 'GRANDCHILD' }, text: 'grandchild done' },
        { match: { lastToolResult: 'grandchild done' }, text: 'alpha done' },
        { match: { prompt: 'BETA task' }, text: 'beta done' },
        { text: 'both done' },
      ],
      {
        systemPrompt: 'You are the main agent.',
        agents: {
          alpha: { description: 'a', prompt: 'ALPHA', mcpServers: [{ a: everythingServer() }] },
          beta: { description: 'b', prompt: 'BETA', mcpServers: [{ b: everythingServer() }] },
        },
      },
    );
    expect(result.status).toBe('completed');
    const toolsOf = (system: string) => offered(callsWith(model, system)[0]);
    expect(toolsOf('ALPHA')).toContain('mcp__a__echo');
    expect(toolsOf('ALPHA').some((name) => name.startsWith('mcp__b__'))).toBe(false);
    expect(toolsOf('BETA')).toContain('mcp__b__echo');
    expect(toolsOf('BETA').some((name) => name.startsWith('mcp__a__'))).toBe(false);
    const grandchild = model.calls.find((call) =>
      JSON.stringify(call.prompt).includes('GRANDCHILD'),
    );
    expect(offered(grandchild)).toContain('mcp__a__echo');
    expect(offered(model.calls[0]).some((name) => name.startsWith('mcp__'))).toBe(false);
  });

  it('shares a session server it names, and never closes it', async () => {
    const { result, events } = await run(
      [
        { match: { system: 'You are' }, toolCalls: [agentCall('reader', 'READ')] },
        {
          match: { system: 'READER-PROMPT' },
          toolCalls: [{ name: 'mcp__shared__echo', input: { message: 'child call' } }],
        },
        { match: { system: 'READER-PROMPT' }, text: 'read' },
        {
          match: { lastToolResult: 'read' },
          toolCalls: [
            { name: 'mcp__shared__echo', input: { message: 'parent call after the child' } },
            { name: 'Snapshot', input: {} },
          ],
        },
        { text: 'done' },
      ],
      {
        systemPrompt: 'You are the main agent.',
        mcpServers: { shared: everythingServer() },
        agents: {
          // Its allow list names no MCP tool: naming the server is what grants its tools.
          reader: {
            description: 'reads',
            prompt: 'READER-PROMPT',
            tools: ['Read'],
            mcpServers: ['shared'],
          },
        },
      },
    );
    expect(result.status).toBe('completed');
    expect(toolOutputs(events, 'reader')).toContainEqual(['mcp__shared__echo', 'Echo: child call']);
    expect(toolOutputs(events, 'main')).toContainEqual([
      'mcp__shared__echo',
      'Echo: parent call after the child',
    ]);
    // Alive after the child ended; gone once the run ended.
    const [afterChild] = snapshots;
    expect(afterChild!.length).toBeGreaterThan(0);
    for (const pid of afterChild!) expect(isAlive(pid)).toBe(false);
  });

  it("closes a child's own server when the child is cancelled", async () => {
    const controller = new AbortController();
    const before = new Set(liveGroups());
    const watching = (async () => {
      for (let i = 0; i < 500 && !controller.signal.aborted; i++) {
        const started = liveGroups().filter((pid) => !before.has(pid));
        if (started.length > 0) {
          await delay(300);
          controller.abort();
          return started;
        }
        await delay(20);
      }
      return [];
    })();
    const { results } = await run(
      [handToWorker, { match: { system: 'WORKER-PROMPT' }, text: 'never', delayMs: 15_000 }],
      {
        ...withWorker({ mcpServers: [{ own: everythingServer() }] }),
        signal: controller.signal,
      },
    );
    expect(results.map((event) => event.status)).toEqual(['cancelled', 'cancelled']);
    const started = await watching;
    expect(started).toHaveLength(1);
    expect(isAlive(started[0]!)).toBe(false);
  });

  it("closes a child's own server when the child fails", async () => {
    const before = new Set(liveGroups());
    const { results } = await run(
      [
        handToWorker,
        { match: { system: 'WORKER-PROMPT' }, toolCalls: [{ name: 'Snapshot', input: {} }] },
        { match: { system: 'WORKER-PROMPT' }, error: { status: 400, message: 'bad request' } },
        { text: 'the worker failed' },
      ],
      withWorker({ mcpServers: [{ own: everythingServer() }] }),
    );
    expect(results[0]?.status).toBe('failed');
    const started = snapshots[0]!.filter((pid) => !before.has(pid));
    expect(started).toHaveLength(1);
    expect(isAlive(started[0]!)).toBe(false);
  });

  it('goes on without a server that cannot start, with a warning event naming it', async () => {
    const { result, events } = await run(
      [
        handToWorker,
        { match: { system: 'WORKER-PROMPT' }, text: 'worked without it' },
        { text: 'done' },
      ],
      withWorker({
        mcpServers: [{ missing: { command: 'warren-no-such-server' } }, 'not-configured'],
      }),
    );
    expect(result.status).toBe('completed');
    const worker = events.find(
      (event) => event.type === 'run_start' && event.agentType === 'worker',
    )!;
    const warnings = events.filter((event) => event.type === 'warning');
    expect(warnings.map((event) => [event.agentId, event.depth])).toEqual([
      [worker.agentId, 1],
      [worker.agentId, 1],
    ]);
    expect(warnings.map((event) => (event as AgentEventOf<'warning'>).message)).toEqual([
      'MCP server "not-configured" named by agent "worker" is not available to it; left out',
      'MCP server "missing" of agent "worker" did not start: the command "warren-no-such-server" was not found; going on without it',
    ]);
  });
});

describe('inline servers of project definitions', () => {
  let home: string;
  let project: string;
  beforeEach(async () => {
    home = await makeTempDir('warren-trust-home-');
    vi.stubEnv('WARREN_HOME', home);
    project = await makeTempDir('warren-trust-project-');
    await mkdir(join(project, '.warren', 'agents'), { recursive: true });
    const everything = everythingServer();
    await writeFile(
      join(project, '.warren', 'agents', 'tooler.md'),
      [
        '---',
        'name: tooler',
        'description: uses its server',
        'mcpServers:',
        `  - own: { command: "${everything.command}", args: ["${everything.args![0]}", stdio] }`,
        '---',
        'TOOLER-PROMPT',
      ].join('\n'),
    );
  });
  afterEach(() => {
    vi.unstubAllEnvs();
  });

  /** The main agent hands TOOL to `tooler`, loaded from its file in the project. */
  async function runTooler(options: Partial<QueryOptions> = {}) {
    const { definitions } = await loadAgentDefinitions({ cwd: project, homeDir: home });
    const turns: ScriptTurn[] = [
      { match: { system: 'You are' }, toolCalls: [agentCall('tooler', 'TOOL')] },
      { match: { system: 'TOOLER-PROMPT' }, text: 'ok' },
      { text: 'done' },
    ];
    return run(turns, {
      systemPrompt: 'You are the main agent.',
      definitions,
      cwd: project,
      ...options,
    });
  }

  it('start nothing until the file is trusted, and say how to trust it', async () => {
    const { model, events } = await runTooler();
    expect(
      offered(callsWith(model, 'TOOLER-PROMPT')[0]).some((name) => name.startsWith('mcp__')),
    ).toBe(false);
    const warning = events.find((event) => event.type === 'warning') as AgentEventOf<'warning'>;
    expect(warning.message).toContain('MCP servers of agent "tooler"');
    expect(warning.message).toContain(
      `warren trust ${join(project, '.warren', 'agents', 'tooler.md')}`,
    );
  });

  it('start with trustProject', async () => {
    const { model, events } = await runTooler({ trustProject: true });
    expect(offered(callsWith(model, 'TOOLER-PROMPT')[0])).toContain('mcp__own__echo');
    expect(events.some((event) => event.type === 'warning')).toBe(false);
  });
});
