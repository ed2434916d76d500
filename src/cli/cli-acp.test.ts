import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  type ContentBlock,
  type McpServer,
  methods,
  type SessionNotification,
  type ToolCall,
} from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AcpWarren, agentText, startAcpWarren } from '../testing/acp-client.js';
import { homeEnv } from '../testing/cli-process.js';
import { everythingServer } from '../testing/mcp-servers.js';
import { useTempDir } from '../testing/temp-dir.js';

const home = useTempDir('warren-acp-home-');
const project = useTempDir('warren-acp-project-');
let running: AcpWarren | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

async function acpWarren(
  turns: unknown[],
  answer?: Parameters<typeof startAcpWarren>[0]['answer'],
  extraArgs: string[] = [],
) {
  const script = join(home(), 'script.json');
  await writeFile(script, JSON.stringify({ turns }));
  running = await startAcpWarren({
    args: [
      '--model',
      `scripted:${script}`,
      '--session-dir',
      join(home(), 'sessions'),
      ...extraArgs,
    ],
    env: homeEnv(home()),
    cwd: project(),
    answer,
  });
  return running;
}

const text = (prompt: string): ContentBlock[] => [{ type: 'text', text: prompt }];

function toolUpdates(updates: readonly SessionNotification[], id: string) {
  return updates
    .map(({ update }) => update)
    .filter(
      (update) =>
        (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') &&
        update.toolCallId === id,
    );
}

function toolCallTitled(updates: readonly SessionNotification[], suffix: string): ToolCall {
  for (const { update } of updates) {
    if (update.sessionUpdate === 'tool_call' && update.title.endsWith(suffix)) return update;
  }
  throw new Error(`no tool call titled …${suffix}`);
}

/** Two children from one message: Agent#1 in the foreground, Agent#2 in the background. */
const TWO_CHILDREN = [
  {
    match: { agent: '/^main$/' },
    toolCalls: [
      { name: 'Agent', id: 'fg', input: { description: 'write fg', prompt: 'Write fg.txt.' } },
      {
        name: 'Agent',
        id: 'bg',
        input: { description: 'write bg', prompt: 'Write bg.txt.', run_in_background: true },
      },
    ],
  },
  {
    match: { agent: '/Agent#1/' },
    toolCalls: [{ name: 'Write', id: 'w1', input: { file_path: 'fg.txt', content: 'front\n' } }],
  },
  { match: { agent: '/Agent#1/' }, text: 'fg written' },
  {
    match: { agent: '/Agent#2/' },
    // Slower than the main agent's next turn: it waits for the background child's notification.
    delayMs: 500,
    toolCalls: [{ name: 'Write', id: 'w2', input: { file_path: 'bg.txt', content: 'back\n' } }],
  },
  { match: { agent: '/Agent#2/' }, text: 'bg refused' },
  { match: { agent: '/^main$/' }, text: 'Both started.' },
  { match: { agent: '/^main$/' }, text: 'All done.' },
];

describe('warren acp', () => {
  it('answers initialize with its capabilities and the permission modes as session modes', async () => {
    const warren = await acpWarren([{ text: 'hi' }]);
    const session = await warren.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    expect(session.modes?.currentModeId).toBe('default');
    expect(session.modes?.availableModes.map((mode) => mode.id)).toEqual([
      'plan',
      'default',
      'acceptEdits',
      'bypassPermissions',
    ]);
  });

  it('runs a prompt with two sub-agents, one in the background, asking the client for each write', async () => {
    const warren = await acpWarren(TWO_CHILDREN, (request) => ({
      outcome: {
        outcome: 'selected',
        // Yes to the foreground child, no to the background one.
        optionId: request.toolCall.title?.includes('Agent#1') ? 'allow_once' : 'reject_once',
      },
    }));
    const { sessionId } = await warren.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    const response = await warren.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: text('write both files'),
    });
    expect(response.stopReason).toBe('end_turn');
    expect(agentText(warren.updates)).toBe('Both started.All done.');
    // Each question names the agent that asks, background included.
    const titles = warren.questions.map((question) => question.toolCall.title).sort();
    expect(titles).toEqual([
      'main/Agent#1/general-purpose asks to run Write(fg.txt)',
      'main/Agent#2/general-purpose (background) asks to run Write(bg.txt)',
    ]);
    expect(await readFile(join(project(), 'fg.txt'), 'utf8')).toBe('front\n');
    expect(existsSync(join(project(), 'bg.txt'))).toBe(false);
    // The children's calls sit inside the Agent calls that started them, Write with its diff.
    const fgWrite = toolCallTitled(warren.updates, 'Write: fg.txt');
    expect(fgWrite).toMatchObject({
      kind: 'edit',
      content: [{ type: 'diff', path: 'fg.txt', oldText: null, newText: 'front\n' }],
    });
    const { parentToolCallId } = (fgWrite._meta as { warren: { parentToolCallId: string } }).warren;
    const container = toolUpdates(warren.updates, parentToolCallId);
    expect(container[0]).toMatchObject({ sessionUpdate: 'tool_call', title: 'Agent: write fg' });
    expect(JSON.stringify(container.at(-1))).toContain(
      'main/Agent#1/general-purpose: Write: fg.txt',
    );
    expect(toolUpdates(warren.updates, fgWrite.toolCallId).at(-1)).toMatchObject({
      status: 'completed',
    });
    const bgWrite = toolCallTitled(warren.updates, 'Write: bg.txt');
    expect(toolUpdates(warren.updates, bgWrite.toolCallId).at(-1)).toMatchObject({
      status: 'failed',
    });
  });

  it('stops a prompt on session/cancel and answers cancelled', async () => {
    const warren = await acpWarren(
      [
        {
          match: { agent: '/^main$/' },
          toolCalls: [{ name: 'Bash', input: { command: 'sleep 30' } }],
        },
        { text: 'never' },
      ],
      () => new Promise(() => {}),
    );
    const { sessionId } = await warren.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    const prompt = warren.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: text('sleep'),
    });
    // Cancelled while the client has the question about the command.
    while (warren.questions.length === 0) await new Promise((r) => setTimeout(r, 20));
    await warren.agent.notify(methods.agent.session.cancel, { sessionId });
    expect((await prompt).stopReason).toBe('cancelled');
  });

  it('loads a session: its history is replayed as updates and the next prompt goes on with it', async () => {
    const first = await acpWarren([{ text: 'The answer is 42.' }, { text: 'You asked about 42.' }]);
    const { sessionId } = await first.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    await first.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('answer?') });
    await first.close();
    const second = await acpWarren([
      { match: { prompt: 'what did I ask' }, text: 'You asked about 42.' },
    ]);
    await second.agent.request(methods.agent.session.load, {
      sessionId,
      cwd: project(),
      mcpServers: [],
    });
    expect(second.updates.map(({ update }) => update.sessionUpdate)).toEqual([
      'user_message_chunk',
      'agent_message_chunk',
    ]);
    expect(agentText(second.updates)).toBe('The answer is 42.');
    const before = second.updates.length;
    await second.agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: text('what did I ask?'),
    });
    expect(agentText(second.updates.slice(before))).toBe('You asked about 42.');
  });

  it('shows TodoWrite as the plan, and edits without asking once the client sets acceptEdits', async () => {
    const todos = [
      { content: 'Write the file', status: 'in_progress', activeForm: 'Writing the file' },
      { content: 'Check it', status: 'pending', activeForm: 'Checking it' },
    ];
    const warren = await acpWarren([
      { toolCalls: [{ name: 'TodoWrite', input: { todos } }] },
      { toolCalls: [{ name: 'Write', input: { file_path: 'plan.txt', content: 'x' } }] },
      { text: 'written' },
    ]);
    const { sessionId } = await warren.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    await warren.agent.request(methods.agent.session.setMode, { sessionId, modeId: 'acceptEdits' });
    await warren.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('go') });
    const updates = warren.updates.map(({ update }) => update);
    expect(updates).toContainEqual({
      sessionUpdate: 'current_mode_update',
      currentModeId: 'acceptEdits',
    });
    expect(updates).toContainEqual({
      sessionUpdate: 'plan',
      entries: [
        { content: 'Write the file', status: 'in_progress', priority: 'medium' },
        { content: 'Check it', status: 'pending', priority: 'medium' },
      ],
    });
    expect(warren.questions).toEqual([]);
    expect(await readFile(join(project(), 'plan.txt'), 'utf8')).toBe('x');
  });

  describe("the client's MCP servers", () => {
    const turns = [
      { match: { tools: ['mcp__everything__echo'] }, text: 'echo offered' },
      { text: 'no echo' },
    ];
    const servers = (): McpServer[] => {
      const { command, args } = everythingServer();
      return [{ name: 'everything', command, args, env: [] }];
    };

    it('are not started in a project that is not trusted, and the client is told why', async () => {
      const warren = await acpWarren(turns);
      const { sessionId } = await warren.agent.request(methods.agent.session.new, {
        cwd: project(),
        mcpServers: servers(),
      });
      await warren.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('go') });
      expect(agentText(warren.updates)).toBe('no echo');
      expect(JSON.stringify(warren.updates)).toContain(
        'MCP servers from the ACP client not started (everything): the project is not trusted',
      );
    });

    it('join the session of a trusted project', async () => {
      const warren = await acpWarren(turns, undefined, ['--trust-project']);
      const { sessionId } = await warren.agent.request(methods.agent.session.new, {
        cwd: project(),
        mcpServers: servers(),
      });
      await warren.agent.request(methods.agent.session.prompt, { sessionId, prompt: text('go') });
      expect(agentText(warren.updates)).toBe('echo offered');
    });
  });

  it('refuses a session to load that is a path, and a working folder that does not exist, by name', async () => {
    const warren = await acpWarren([{ text: 'hi' }]);
    await expect(
      warren.agent.request(methods.agent.session.load, {
        sessionId: '../../etc/passwd',
        cwd: project(),
        mcpServers: [],
      }),
    ).rejects.toThrow(/session id/);
    await expect(
      warren.agent.request(methods.agent.session.new, {
        cwd: join(project(), 'missing'),
        mcpServers: [],
      }),
    ).rejects.toThrow(/is not a directory/);
    // Still serving: a bad request costs nothing else.
    const { sessionId } = await warren.agent.request(methods.agent.session.new, {
      cwd: project(),
      mcpServers: [],
    });
    expect(sessionId).toMatch(/\S/);
  });
});
