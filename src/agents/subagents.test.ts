// Sub-agents, end to end through query() and the scripted model: what a child sees, what it
// may use, how budgets and cancellation cross the tree, and what the parent gets back.
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageModelV4, LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, AgentEventOf, RunResult } from '../core/events.js';
import { FatalToolError } from '../core/tool.js';
import type { ScriptedModel } from '../model/scripted-model.js';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { type QueryOptions, query } from '../query.js';
import { TranscriptWriter } from '../session/transcript-writer.js';
import { NO_WAIT_RETRY } from '../testing/echo-run-options.js';
import { unframed } from '../testing/framed-output.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { deafTool, echoTool, throwingTool } from '../testing/stub-tools.js';
import { useTempDir } from '../testing/temp-dir.js';

const agentCall = (prompt: string, extra: Record<string, unknown> = {}) => ({
  name: 'Agent',
  input: { description: prompt.slice(0, 20), prompt, ...extra },
});

/** Every tree runs in a scratch directory of its own, removed after the test. */
const workspace = useTempDir('warren-tree-');

interface Tree {
  result: RunResult;
  events: AgentEvent[];
  model: ScriptedModel;
  /** Each agent's final result event, by agent type and start order. */
  results: AgentEventOf<'result'>[];
}

async function runTree(
  turns: ScriptTurn[],
  options: Partial<QueryOptions> = {},
  prompt = 'PARENT-SECRET task for the main agent',
): Promise<Tree> {
  const model = scriptedModel(turns);
  const { events, result } = await runToEnd(
    query({
      prompt,
      options: {
        model,
        tools: [echoTool],
        cwd: workspace(),
        retry: NO_WAIT_RETRY,
        ...options,
      },
    }),
  );
  return { result, events, model, results: ofType(events, 'result') };
}

/** The text of every message the model was sent in one call. */
const promptText = (call: LanguageModelV4CallOptions | undefined) => JSON.stringify(call?.prompt);
const offeredTools = (call: LanguageModelV4CallOptions | undefined) =>
  (call?.tools ?? []).map((tool) => tool.name).sort();
const callFor = (model: ScriptedModel, text: string) =>
  model.calls.find((call) => {
    const last = call.prompt.findLast((message) => message.role === 'user');
    return JSON.stringify(last).includes(text);
  });
/** How each agent ended, as [depth, status], in the order the results came (deepest first). */
const endings = (results: AgentEventOf<'result'>[]) =>
  results.map((event) => [event.depth, event.status]);
const toolOutputs = (result: RunResult) =>
  result.messages.flatMap((message) => (message.role === 'tool' ? message.content : []));

describe('a sub-agent', () => {
  it('starts with a fresh conversation: nothing of its parent reaches its model (depth 1 and 2)', async () => {
    const { result, model, results } = await runTree([
      { toolCalls: [agentCall('LEVEL-ONE find the config')] },
      { match: { prompt: 'LEVEL-ONE' }, toolCalls: [agentCall('LEVEL-TWO look deeper')] },
      { match: { prompt: 'LEVEL-TWO' }, text: 'deep answer' },
      { match: { lastToolResult: 'deep answer' }, text: 'child answer: deep answer' },
      { match: { lastToolResult: 'child answer' }, text: 'all done' },
    ]);
    expect(result).toMatchObject({ status: 'completed', result: 'all done' });
    for (const [marker, depth] of [
      ['LEVEL-ONE', 1],
      ['LEVEL-TWO', 2],
    ] as const) {
      const call = callFor(model, marker)!;
      const roles = call.prompt.map((message) => message.role);
      expect(roles).toEqual(['system', 'user']);
      expect(promptText(call)).not.toContain('PARENT-SECRET');
      expect(results.find((event) => event.depth === depth)?.status).toBe('completed');
    }
    expect(promptText(callFor(model, 'LEVEL-TWO'))).not.toContain('LEVEL-ONE');
    expect(unframed(toolOutputs(result)[0]!.output)).toBe('child answer: deep answer');
  });

  it("with forkContext, continues its parent's last request: same system prompt, tools and messages, then its task", async () => {
    const { model } = await runTree(
      [
        {
          text: 'Let me check.',
          toolCalls: [{ name: 'Echo', input: { text: 'PARENT-TOOL-RESULT' } }],
        },
        { toolCalls: [agentCall('FORKED continue from here', { forkContext: true })] },
        { match: { prompt: 'FORKED' }, text: 'I saw the echo' },
        { text: 'done' },
      ],
      { systemPrompt: 'PARENT-SYSTEM' },
    );
    const child = callFor(model, 'FORKED')!;
    const parentLast = model.calls[1]!;
    // The parent's reply that started the child had only the Agent call: no trace of it remains.
    expect(child.prompt.slice(0, -1)).toEqual(parentLast.prompt);
    expect(child.tools).toEqual(parentLast.tools);
    const directive = JSON.stringify(child.prompt.at(-1));
    expect(directive).toContain(
      'sub-agent of type \\"general-purpose\\", forked from the conversation above',
    );
    expect(directive).toContain('Your task:\\nFORKED continue from here');
    expect(promptText(child)).toContain('PARENT-SECRET');
  });

  it('forked, may call only what its definition grants, though it sees its parent tools', async () => {
    const { results } = await runTree(
      [
        {
          toolCalls: [
            agentCall('FORKED-READER look', { forkContext: true, subagent_type: 'reader' }),
          ],
        },
        { match: { prompt: 'FORKED-READER' }, toolCalls: [{ name: 'Echo', input: { text: 'x' } }] },
        { match: { lastToolResult: 'not available' }, text: 'could not echo' },
        { text: 'done' },
      ],
      {
        agents: { reader: { description: 'Reads.', prompt: 'READER', tools: ['Read'] } },
        tools: [echoTool],
      },
    );
    const child = results.find((event) => event.depth === 1)!;
    const refusal = toolOutputs(child)[0]!;
    expect(refusal).toMatchObject({ isError: true, toolName: 'Echo' });
    expect(refusal.output).toBe(
      "Echo is not available to this agent (its definition does not grant it); you see it only because you continue another agent's conversation. Available tools: none.",
    );
  });

  it('with forkContext N, gets exactly its parent last N turns and no dangling call', async () => {
    const history = [
      { role: 'system' as const, content: 'PARENT-SYSTEM' },
      { role: 'user' as const, content: 'OLD-TURN-1' },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'answer 1' }] },
      { role: 'user' as const, content: 'OLD-TURN-2' },
      { role: 'assistant' as const, content: [{ type: 'text' as const, text: 'answer 2' }] },
    ];
    const { model } = await runTree(
      [
        {
          text: 'Splitting the work.',
          toolCalls: [
            agentCall('FORKED-TWO sibling', { forkContext: 2 }),
            agentCall('other sibling'),
          ],
        },
        { match: { prompt: 'FORKED-TWO' }, text: 'ok' },
        { match: { prompt: 'other sibling' }, text: 'ok' },
        { text: 'done' },
      ],
      { messages: history },
      'CURRENT-TURN',
    );
    const child = callFor(model, 'FORKED-TWO')!;
    const roles = child.prompt.map((message) => message.role);
    expect(roles).toEqual(['system', 'user', 'assistant', 'user', 'assistant', 'user']);
    const text = promptText(child);
    expect(text).not.toContain('OLD-TURN-1');
    expect(text).toContain('OLD-TURN-2');
    expect(text).toContain('CURRENT-TURN');
    expect(text).toContain('Splitting the work.');
    expect(
      child.prompt.some(
        (m) => m.role === 'assistant' && m.content.some((p) => p.type === 'tool-call'),
      ),
    ).toBe(false);
  });

  it('reports its events up the parent stream, tagged with its id, parent and depth', async () => {
    const { events, results } = await runTree([
      { toolCalls: [agentCall('CHILD task')] },
      { match: { prompt: 'CHILD' }, toolCalls: [{ name: 'Echo', input: { text: 'x' } }] },
      { match: { lastToolResult: 'echo: x' }, text: 'child done' },
      { text: 'main done' },
    ]);
    const [main] = results.filter((event) => event.depth === 0);
    const [child] = results.filter((event) => event.depth === 1);
    expect(child).toMatchObject({ parentId: main?.agentId, agentType: 'general-purpose' });
    const childEvents = events.filter((event) => event.agentId === child?.agentId);
    expect(childEvents.map((event) => event.type)).toContain('tool_start');
    expect(
      childEvents.every((event) => event.depth === 1 && event.parentId === main?.agentId),
    ).toBe(true);
    const childStart = events.findIndex((event) => event.type === 'run_start' && event.depth === 1);
    const mainToolEnd = events.findIndex((event) => event.type === 'tool_end' && event.depth === 0);
    expect(childStart).toBeLessThan(mainToolEnd);
  });

  it('is named by its path in the tree and the tool call that started it', async () => {
    const { events, model } = await runTree([
      {
        toolCalls: [
          { name: 'Echo', input: { text: 'first' } },
          agentCall('ONE'),
          agentCall('TWO', { subagent_type: 'explore' }),
        ],
      },
      { match: { prompt: 'ONE' }, toolCalls: [agentCall('DEEP')] },
      { match: { prompt: 'DEEP' }, text: 'deep done' },
      { match: { prompt: 'ONE' }, text: 'one done' },
      { match: { prompt: 'TWO' }, delayMs: 5, text: 'two done' },
      { text: 'main done' },
    ]);
    const starts = ofType(events, 'run_start');
    const byPath = new Map(starts.map((event) => [event.path, event]));
    expect([...byPath.keys()].sort()).toEqual([
      'main',
      'main/Agent#1/general-purpose',
      'main/Agent#1/general-purpose/Agent#1/general-purpose',
      'main/Agent#2/explore',
    ]);
    const mainCalls = events.filter(
      (event): event is AgentEventOf<'tool_start'> =>
        event.type === 'tool_start' && event.depth === 0,
    );
    expect(byPath.get('main/Agent#2/explore')?.parentToolCallId).toBe(mainCalls[2]?.toolCallId);
    expect(byPath.get('main')?.parentToolCallId).toBeUndefined();
    // Every model request says which agent asks, for proxies, gateways and cassettes.
    const deep = byPath.get('main/Agent#1/general-purpose/Agent#1/general-purpose')!;
    const deepCall = callFor(model, 'DEEP');
    expect(deepCall?.headers).toEqual({
      'x-warren-agent-id': deep.agentId,
      'x-warren-parent-agent-id': deep.parentId,
      'x-warren-agent-path': 'main/Agent#1/general-purpose/Agent#1/general-purpose',
    });
    expect(model.calls[0]?.headers).toEqual({
      'x-warren-agent-id': byPath.get('main')?.agentId,
      'x-warren-agent-path': 'main',
    });
  });
});

describe("a sub-agent's file state", () => {
  // A child starts from a copy of what its parent has read; what it reads or writes afterwards
  // stays in its copy, so the parent's Write and Edit still judge the file by the parent's reads.
  const notes = () => join(workspace(), 'notes.txt');
  const editNotes = (from: string, to: string) => ({
    name: 'Edit',
    input: { file_path: 'notes.txt', old_string: from, new_string: to },
  });

  /** Runs the tree over notes.txt holding "first draft"; returns the parent's Edit and the file. */
  async function parentEditAfter(turns: ScriptTurn[]) {
    await writeFile(notes(), 'first draft\n');
    const { result } = await runTree(turns, {
      tools: undefined,
      permissions: createPermissionPolicy({ mode: 'bypassPermissions' }),
    });
    const edit = toolOutputs(result).find((part) => part.toolName === 'Edit');
    return { edit, file: await readFile(notes(), 'utf8') };
  }

  it("keeps the parent's Edit refused as stale after a child changed the file", async () => {
    const { edit, file } = await parentEditAfter([
      { toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
      { match: { lastToolResult: 'first draft' }, toolCalls: [agentCall('CHILD-EDIT revise')] },
      { match: { prompt: 'CHILD-EDIT' }, toolCalls: [editNotes('first', 'child')] },
      { match: { prompt: 'CHILD-EDIT' }, text: 'revised' },
      { match: { lastToolResult: 'revised' }, toolCalls: [editNotes('child', 'parent')] },
      { text: 'done' },
    ]);
    expect(edit).toMatchObject({ isError: true, output: expect.stringContaining('has changed') });
    expect(file).toBe('child draft\n');
  });

  it("keeps a file only the child read unread for the parent's Edit", async () => {
    const { edit, file } = await parentEditAfter([
      { toolCalls: [agentCall('CHILD-READ look at the notes')] },
      {
        match: { prompt: 'CHILD-READ' },
        toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }],
      },
      { match: { prompt: 'CHILD-READ' }, text: 'the notes say first draft' },
      { match: { lastToolResult: 'notes say' }, toolCalls: [editNotes('first', 'parent')] },
      { text: 'done' },
    ]);
    expect(edit).toMatchObject({ isError: true, output: expect.stringContaining('not been read') });
    expect(file).toBe('first draft\n');
  });
});

describe('tools of a sub-agent', () => {
  it('are its parent tools narrowed by the definition, never more', async () => {
    const { model } = await runTree(
      [
        { toolCalls: [agentCall('NARROW task', { subagent_type: 'narrow' })] },
        { match: { prompt: 'NARROW' }, text: 'ok' },
        { text: 'done' },
      ],
      {
        agents: {
          narrow: { description: 'reads only', prompt: 'p', tools: ['Read', 'Echo', 'Write'] },
        },
        tools: [echoTool],
      },
    );
    expect(offeredTools(callFor(model, 'NARROW'))).toEqual(['Echo']);
  });

  it('drop Agent at the depth limit, so a child there cannot start one', async () => {
    const { model, results } = await runTree(
      [
        { toolCalls: [agentCall('DEPTH-ONE')] },
        { match: { prompt: 'DEPTH-ONE' }, toolCalls: [agentCall('DEPTH-TWO')] },
        { match: { lastToolResult: 'Unknown tool' }, text: 'could not go deeper' },
        { text: 'main done' },
      ],
      { maxDepth: 1 },
    );
    expect(offeredTools(model.calls[0])).toContain('Agent');
    expect(offeredTools(callFor(model, 'DEPTH-ONE'))).not.toContain('Agent');
    expect(results.some((event) => event.depth === 2)).toBe(false);
    const child = results.find((event) => event.depth === 1)!;
    const denied = toolOutputs(child)[0];
    expect(denied).toMatchObject({ isError: true });
    expect(denied?.output).toMatch(/Unknown tool "Agent"/);
  });

  it('of a read-only agent swap Bash for read-only Bash and leave out writes', async () => {
    const cwd = workspace();
    const { model, results } = await runTree(
      [
        { toolCalls: [agentCall('EXPLORE task', { subagent_type: 'Explore' })] },
        {
          match: { prompt: 'EXPLORE' },
          toolCalls: [{ name: 'Bash', input: { command: 'touch created-by-explore' } }],
        },
        { match: { prompt: 'EXPLORE' }, text: 'could not delete' },
        { text: 'done' },
      ],
      { cwd, tools: undefined, permissions: createPermissionPolicy({ mode: 'bypassPermissions' }) },
    );
    expect(offeredTools(callFor(model, 'EXPLORE'))).toEqual(['Bash', 'Glob', 'Grep', 'Read']);
    const explore = results.find((event) => event.agentType === 'explore')!;
    expect(toolOutputs(explore)[0]).toMatchObject({ isError: true });
    expect(existsSync(join(cwd, 'created-by-explore'))).toBe(false);
  });

  it('limit the types Agent(a) may start', async () => {
    const { results } = await runTree(
      [
        { toolCalls: [agentCall('LEAD task', { subagent_type: 'lead' })] },
        {
          match: { prompt: 'LEAD' },
          toolCalls: [agentCall('ANY task', { subagent_type: 'general-purpose' })],
        },
        { match: { lastToolResult: 'Unknown agent type' }, text: 'not allowed' },
        { text: 'done' },
      ],
      { agents: { lead: { description: 'leads', prompt: 'p', tools: ['Agent(explore)'] } } },
    );
    const lead = results.find((event) => event.agentType === 'lead')!;
    expect(toolOutputs(lead)[0]?.output).toBe(
      'Unknown agent type "general-purpose". Available types: explore.',
    );
  });
});

describe('delegate_to tools', () => {
  it('are synthesized from a definition agents list and run the target with the task spec', async () => {
    const { model, result } = await runTree(
      [
        {
          toolCalls: [
            {
              name: 'delegate_to_researcher',
              input: {
                instructions: 'DELEGATED find the owner',
                payload: { service: 'billing' },
                expected_output: 'a name',
              },
            },
          ],
        },
        { match: { prompt: 'DELEGATED' }, text: 'Ada' },
        { text: 'The owner is Ada.' },
      ],
      {
        agent: 'triage',
        agents: {
          triage: { description: 'triages', prompt: 'TRIAGE-PROMPT', agents: ['researcher'] },
          researcher: { description: 'finds facts', prompt: 'RESEARCHER-PROMPT' },
        },
      },
    );
    expect(result.result).toBe('The owner is Ada.');
    expect(offeredTools(model.calls[0])).toEqual([
      'Agent',
      'Echo',
      'ListAgents',
      'SendMessage',
      'TaskOutput',
      'TaskStop',
      'delegate_to_researcher',
    ]);
    expect(promptText(model.calls[0])).toContain('TRIAGE-PROMPT');
    const delegated = callFor(model, 'DELEGATED')!;
    expect(promptText(delegated)).toContain('RESEARCHER-PROMPT');
    expect(promptText(delegated)).toContain('\\"service\\": \\"billing\\"');
    expect(promptText(delegated)).toContain('Expected output: a name');
  });
});

describe('budgets across the tree', () => {
  const loop: ScriptTurn = { toolCalls: [{ name: 'Echo', input: { text: 'again' } }] };

  it('stop a child at its turn cap with a grace turn; the parent gets its report with a note', async () => {
    const { result, results } = await runTree(
      [
        { toolCalls: [agentCall('CAPPED task', { subagent_type: 'capped' })] },
        { ...loop, match: { prompt: 'CAPPED' } },
        { ...loop, match: { prompt: 'CAPPED' } },
        { match: { prompt: 'cannot call tools' }, text: 'partial report' },
        { text: 'done' },
      ],
      { agents: { capped: { description: 'c', prompt: 'p', maxTurns: 2 } } },
    );
    expect(results.find((event) => event.depth === 1)).toMatchObject({
      status: 'max_turns',
      numTurns: 3,
    });
    const [output] = toolOutputs(result);
    expect(output?.isError).toBe(false);
    expect(unframed(output!.output)).toMatch(
      /^partial report\n\n\[Note: the capped agent was stopped early/,
    );
    expect(result.status).toBe('completed');
  });

  it('give a child at most the turns its parent has left', async () => {
    const { results } = await runTree(
      [
        { toolCalls: [agentCall('SHORT task')] },
        { ...loop, match: { prompt: 'SHORT' } },
        { match: { prompt: 'cannot call tools' }, text: 'child report' },
        { text: 'main report' },
      ],
      { maxTurns: 2 },
    );
    expect(results.find((event) => event.depth === 1)).toMatchObject({ status: 'max_turns' });
  });

  it('count what a child spends against its parent: the token budget ends both', async () => {
    const big = { usage: { input: 400, output: 100 } };
    const { result, results } = await runTree(
      [
        { ...big, toolCalls: [agentCall('SPENDER task')] },
        { ...big, ...loop, match: { prompt: 'SPENDER' } },
        { ...big, ...loop, match: { prompt: 'SPENDER' } },
        { match: { prompt: 'token budget' }, text: 'child out of tokens' },
        { text: 'main out of tokens' },
      ],
      { tokenBudget: 1200 },
    );
    expect(results.find((event) => event.depth === 1)).toMatchObject({ status: 'budget' });
    expect(result).toMatchObject({ status: 'budget', result: 'main out of tokens' });
  });

  it('end a child on its own time budget while the parent carries on', async () => {
    const { result, results } = await runTree(
      [
        { toolCalls: [agentCall('SLOW task', { subagent_type: 'slow' })] },
        { match: { prompt: 'SLOW' }, text: 'too late', delayMs: 10_000 },
        { match: { prompt: 'cannot call tools' }, text: 'ran out of time' },
        { text: 'main finished anyway' },
      ],
      { agents: { slow: { description: 's', prompt: 'p', timeBudgetMs: 50 } } },
    );
    expect(results.find((event) => event.depth === 1)).toMatchObject({ status: 'budget' });
    expect(result).toMatchObject({ status: 'completed', result: 'main finished anyway' });
  });

  it('bound the whole tree by the run time budget', async () => {
    const { result, results } = await runTree(
      [
        { toolCalls: [agentCall('LONG task')] },
        { match: { prompt: 'LONG' }, toolCalls: [agentCall('LONGER task')] },
        { match: { prompt: 'LONGER' }, text: 'never', delayMs: 10_000 },
        { match: { prompt: 'cannot call tools' }, text: 'report' },
        { match: { prompt: 'cannot call tools' }, text: 'report' },
        { match: { prompt: 'cannot call tools' }, text: 'report' },
      ],
      { timeBudgetMs: 100 },
    );
    expect(endings(results)).toEqual([
      [2, 'budget'],
      [1, 'budget'],
      [0, 'budget'],
    ]);
    expect(result.status).toBe('budget');
  });

  it('share one wind-down window: a depth-3 tree ends within it, however slow the reports', async () => {
    const slowReport = { match: { prompt: 'cannot call tools' }, text: 'late', delayMs: 30_000 };
    const started = Date.now();
    const { result, results } = await runTree(
      [
        { toolCalls: [agentCall('ONE task')] },
        // Beside its child, a tool that ignores the stop: left when ONE's window closes.
        {
          match: { prompt: 'ONE' },
          toolCalls: [agentCall('TWO task'), { name: 'Deaf', input: {} }],
        },
        { match: { prompt: 'TWO' }, toolCalls: [agentCall('THREE task')] },
        { match: { prompt: 'THREE' }, text: 'never', delayMs: 30_000 },
        // The deepest agent reports at once; every ancestor's report would take 30 s.
        { match: { prompt: 'cannot call tools' }, text: 'THREE found little' },
        slowReport,
        slowReport,
        slowReport,
      ],
      { tools: [deafTool], timeBudgetMs: 300, windDownMs: 2000 },
    );
    expect(Date.now() - started).toBeLessThan(300 + 2000 + 1000);
    expect(endings(results)).toEqual([
      [3, 'budget'],
      [2, 'budget'],
      [1, 'budget'],
      [0, 'budget'],
    ]);
    expect(results[0]?.result).toBe('THREE found little');
    expect(results[1]?.messages.at(-2)?.role).toBe('tool');
    expect(JSON.stringify(results[1]?.messages)).toContain('THREE found little');
    expect(result.error).toMatch(/time to wind down ran out/);
  });

  it('count cost against the tree when the price is known', async () => {
    const priced = (model: ScriptedModel): LanguageModelV4 => ({
      specificationVersion: 'v4',
      provider: 'anthropic.messages',
      modelId: 'claude-sonnet-4-5',
      supportedUrls: {},
      doGenerate: (options) => model.doGenerate(options),
      doStream: (options) => model.doStream(options),
    });
    const million = { usage: { input: 1_000_000, output: 0 } };
    const model = scriptedModel([
      { ...million, toolCalls: [agentCall('PRICY task')] },
      { ...million, ...loop, match: { prompt: 'PRICY' } },
      { match: { prompt: 'cannot call tools' }, text: 'child stopped' },
      { match: { prompt: 'cannot call tools' }, text: 'main stopped' },
    ]);
    const { events } = await runToEnd(
      query({
        prompt: 'go',
        options: { model: priced(model), tools: [echoTool], costBudgetUsd: 5 },
      }),
    );
    const results = ofType(events, 'result');
    expect(endings(results)).toEqual([
      [1, 'budget'],
      [0, 'budget'],
    ]);
    expect(results.at(-1)?.costUsd).toBeGreaterThan(3);
  });
});

describe('a hard failure', () => {
  it('in a grandchild ends every agent up to the root instead of becoming a result', async () => {
    const guard = throwingTool('Guard', new FatalToolError('credential found in output'));
    const { result, results } = await runTree(
      [
        { toolCalls: [agentCall('UPPER')] },
        { match: { prompt: 'UPPER' }, toolCalls: [agentCall('LOWER')] },
        { match: { prompt: 'LOWER' }, toolCalls: [{ name: 'Guard', input: {} }] },
        { text: 'never reached' },
      ],
      { tools: [guard] },
    );
    expect(endings(results)).toEqual([
      [2, 'failed'],
      [1, 'failed'],
      [0, 'failed'],
    ]);
    expect(result.error).toBe(
      'general-purpose agent: general-purpose agent: credential found in output',
    );
  });
});

describe('cancellation', () => {
  it('of the parent cancels the whole subtree', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const { result, results } = await runTree(
      [
        { toolCalls: [agentCall('A task')] },
        { match: { prompt: 'A task' }, toolCalls: [agentCall('B task')] },
        { match: { prompt: 'B task' }, text: 'never', delayMs: 10_000 },
      ],
      { signal: controller.signal },
    );
    expect(endings(results)).toEqual([
      [2, 'cancelled'],
      [1, 'cancelled'],
      [0, 'cancelled'],
    ]);
    expect(result.status).toBe('cancelled');
  });

  it('still gives every agent its result when their tools ignore the stop', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 100);
    const started = Date.now();
    const { results } = await runTree(
      [
        { toolCalls: [agentCall('A task'), agentCall('B task'), agentCall('C task')] },
        ...['A task', 'B task', 'C task'].map((prompt) => ({
          match: { prompt },
          toolCalls: [{ name: 'Deaf', input: {} }],
        })),
      ],
      { tools: [deafTool], signal: controller.signal },
    );
    expect(endings(results)).toEqual([
      [1, 'cancelled'],
      [1, 'cancelled'],
      [1, 'cancelled'],
      [0, 'cancelled'],
    ]);
    expect(Date.now() - started).toBeLessThan(100 + 1000 + 1000);
  });
});

describe('running sub-agents in parallel', () => {
  const fanOut = (count: number) => [
    { toolCalls: Array.from({ length: count }, (_, index) => agentCall(`WORKER-${index}`)) },
    ...Array.from({ length: count }, (_, index) => ({
      match: { prompt: `WORKER-${index}` },
      text: `result ${index}`,
      delayMs: 30,
    })),
    { text: 'merged' },
  ];

  /** The most depth-1 agents that were running at the same time, from the event stream. */
  function maxOverlap(events: AgentEvent[]): number {
    let running = 0;
    let most = 0;
    for (const event of events) {
      if (event.depth !== 1) continue;
      if (event.type === 'run_start') most = Math.max(most, ++running);
      if (event.type === 'result') running--;
    }
    return most;
  }

  it('overlaps the calls of one message and returns results in call order', async () => {
    const { result, events } = await runTree(fanOut(4));
    expect(maxOverlap(events)).toBe(4);
    expect(toolOutputs(result).map((part) => unframed(part.output))).toEqual([
      'result 0',
      'result 1',
      'result 2',
      'result 3',
    ]);
  });

  it('never runs more than maxParallel at once; the rest wait their turn', async () => {
    const { result, events } = await runTree(fanOut(5), { maxParallel: 2 });
    expect(maxOverlap(events)).toBe(2);
    expect(result.result).toBe('merged');
    expect(toolOutputs(result)).toHaveLength(5);
  });

  it('cannot deadlock a deep tree on the cap: a waiting parent lends its slot', async () => {
    const { result } = await runTree(
      [
        { toolCalls: [agentCall('UPPER-1'), agentCall('UPPER-2')] },
        { match: { prompt: 'UPPER-1' }, toolCalls: [agentCall('LOWER-1')] },
        { match: { prompt: 'UPPER-2' }, toolCalls: [agentCall('LOWER-2')] },
        { match: { prompt: 'LOWER-1' }, text: 'l1' },
        { match: { prompt: 'LOWER-2' }, text: 'l2' },
        { match: { lastToolResult: 'l1' }, text: 'u1' },
        { match: { lastToolResult: 'l2' }, text: 'u2' },
        { text: 'top' },
      ],
      { maxParallel: 1 },
    );
    expect(result.result).toBe('top');
  });
});

describe('what the parent gets back', () => {
  it('a long result truncated, with the full text in the child sidechain transcript', async () => {
    const sessionDir = join(workspace(), 'sessions');
    const long = `${'word '.repeat(100)}END-OF-TEXT`;
    const transcript = new TranscriptWriter({ sessionDir, sessionId: 's1', mainAgentId: 'main' });
    const model = scriptedModel([
      { toolCalls: [agentCall('LONG-WRITER')] },
      { match: { prompt: 'LONG-WRITER' }, text: long },
      { text: 'done' },
    ]);
    let result: RunResult | undefined;
    for await (const event of query({
      prompt: 'go',
      options: {
        model,
        tools: [],
        agentId: 'main',
        resultMaxChars: 100,
        transcriptPathFor: (agentId) => transcript.pathFor(agentId),
      },
    })) {
      transcript.write(event);
      if (event.type === 'result' && event.depth === 0) result = event;
    }
    transcript.close();
    const output = unframed(toolOutputs(result!)[0]!.output);
    expect(output.startsWith(long.slice(0, 100))).toBe(true);
    expect(output).not.toContain('END-OF-TEXT');
    const path = /The full text is in the transcript (\S+)\.\]$/.exec(output)?.[1];
    expect(path).toMatch(join(sessionDir, 's1', 'agents', 'agent_'));
    expect(await readFile(path!, 'utf8')).toContain('END-OF-TEXT');
  });

  it.each<[string, ScriptTurn[], Partial<QueryOptions>, RegExp]>([
    [
      'an unknown agent type lists the valid ones',
      [{ toolCalls: [agentCall('x', { subagent_type: 'nope' })] }],
      {},
      /Unknown agent type "nope". Available types: explore, general-purpose, plan/,
    ],
    [
      'a model error in the child',
      [
        { toolCalls: [agentCall('BROKEN')] },
        { match: { prompt: 'BROKEN' }, error: { status: 400, message: 'bad request body' } },
      ],
      {},
      /The general-purpose agent failed: .*bad request body/,
    ],
    [
      'a child whose model cannot be resolved',
      [{ toolCalls: [agentCall('x', { model: 'gemini:pro' })] }],
      {},
      /could not start: Agent model gemini:pro: unknown provider "gemini"/,
    ],
    [
      'isolation: worktree outside a git repository, naming git',
      [{ toolCalls: [agentCall('x', { isolation: 'worktree' })] }],
      {},
      /was not started: isolation: "worktree" needs a git worktree, and git could not make one\. .* is not inside a git work tree/,
    ],
    [
      'isolation: remote in a run without a remote executor',
      [{ toolCalls: [agentCall('x', { isolation: 'remote' })] }],
      {},
      /this run has no remote executor\. Run warren with --executor restate --restate-url <ingress>/,
    ],
  ])('an error result the parent recovers from: %s', async (_, turns, options, message) => {
    const { result } = await runTree(
      [...turns, { match: { lastToolResult: '/./' }, text: 'recovered' }],
      options,
    );
    const [output] = toolOutputs(result);
    expect(output?.isError).toBe(true);
    expect(output?.output).toMatch(message);
    expect(result).toMatchObject({ status: 'completed', result: 'recovered' });
  });
});
