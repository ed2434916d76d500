// Record a whole tree once, replay it deterministically: parallel children whose timing differs
// replay to the same results and the same tree however their calls interleave; a run that asks
// something else fails, naming the agent's path, the turn and the first difference.
import { setTimeout as sleep } from 'node:timers/promises';
import type { LanguageModelV4 } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../core/events.js';
import type { Tool } from '../core/tool.js';
import { ScriptedModel } from '../model/scripted-model.js';
import { parseScript } from '../model/scripted-script.js';
import { query } from '../query.js';
import { runToEnd } from '../testing/run-events.js';
import { echoTool, readOnlyTool } from '../testing/stub-tools.js';
import { makeTempDir } from '../testing/temp-dir.js';
import { AgentTree } from './agent-tree.js';
import { Cassette, CassetteRecorder } from './cassette.js';
import { cassetteToScript, formatScript } from './cassette-to-script.js';
import { recordModel } from './record-model.js';
import { Replay, ReplayMismatchError } from './replay-model.js';
import { replayTools } from './replay-tools.js';

const agentCall = (description: string) => ({
  name: 'Agent',
  input: { description, prompt: `Task: ${description}` },
});

/** A tool with an effect to count, whose answer can change between runs. */
function counterTool(answer: () => string) {
  const calls = { count: 0 };
  const tool = readOnlyTool({
    name: 'Count',
    description: 'counts',
    async call() {
      calls.count++;
      return answer();
    },
  });
  return { tool, calls };
}

/** Three children at once, each slower than the last when recorded; one has a child of its own. */
function fanOutScript(): ScriptedModel {
  return new ScriptedModel({
    modelId: 'fan-out',
    turns: [
      {
        match: { agent: '/^main$/' },
        text: 'Splitting the work.',
        toolCalls: [agentCall('alpha'), agentCall('beta'), agentCall('gamma')],
      },
      {
        match: { agent: '/^main/Agent#1/general-purpose$/' },
        delayMs: 30,
        toolCalls: [{ name: 'Echo', input: { text: 'a' } }],
      },
      { match: { agent: '/^main/Agent#1/general-purpose$/' }, text: 'alpha found a' },
      {
        match: { agent: '/^main/Agent#2/general-purpose$/' },
        delayMs: 15,
        toolCalls: [{ name: 'Count', input: {} }],
      },
      { match: { agent: '/^main/Agent#2/general-purpose$/' }, text: 'beta counted' },
      {
        match: { agent: '/^main/Agent#3/general-purpose$/' },
        toolCalls: [agentCall('delta')],
      },
      { match: { agent: '/Agent#3/general-purpose/Agent#1/' }, delayMs: 5, text: 'delta done' },
      { match: { agent: '/^main/Agent#3/general-purpose$/' }, text: 'gamma got delta' },
      { match: { agent: '/^main$/' }, text: 'All three reported.' },
    ],
  });
}

interface Outcome {
  result: RunResult;
  /** The tree as a person compares runs: by path, without random ids or timings. */
  tree: unknown[];
}

async function run(
  model: LanguageModelV4,
  tools: Tool[],
  options: { prompt?: string; cwd: string; observe?: (event: never) => void },
): Promise<Outcome> {
  const tree = new AgentTree();
  const { result } = await runToEnd(
    query({
      prompt: options.prompt ?? 'Split the work in three.',
      options: { model, tools, cwd: options.cwd, retry: { maxRetries: 0 } },
    }),
    (event) => {
      tree.observe(event);
      options.observe?.(event as never);
    },
  );
  const agents = tree
    .agents()
    .map(({ path, agentType, status, numTurns, toolCalls, usage, subtreeUsage }) => ({
      path,
      agentType,
      status,
      numTurns,
      toolCalls,
      usage,
      subtreeUsage,
    }))
    .sort((a, b) => a.path.localeCompare(b.path));
  return { result, tree: agents };
}

/** The model, each call held back by a delay drawn from `seed`: another interleaving each run. */
function delayed(model: LanguageModelV4, seed: number): LanguageModelV4 {
  let state = seed;
  const nextDelay = () => {
    state = (state * 1103515245 + 12345) % 2 ** 31;
    return state % 25;
  };
  return {
    ...model,
    specificationVersion: 'v4',
    provider: model.provider,
    modelId: model.modelId,
    supportedUrls: {},
    doGenerate: async (options) => {
      await sleep(nextDelay());
      return model.doGenerate(options);
    },
    doStream: async (options) => {
      await sleep(nextDelay());
      return model.doStream(options);
    },
  };
}

async function record(cwd: string) {
  const recorder = new CassetteRecorder({ model: 'scripted:fan-out' });
  const counter = counterTool(() => 'count is 1');
  const recorded = await run(recordModel(fanOutScript(), recorder), [echoTool, counter.tool], {
    cwd,
    observe: (event) => recorder.observe(event),
  });
  return { cassette: recorder.toCassette(), recorded };
}

const comparable = ({ result, tree }: Outcome) => ({
  result: result.result,
  status: result.status,
  messages: result.messages,
  tree,
});

/** Records the fan-out, then replays it with the counter answering `count`, from `prompt`. */
async function replayRecording(count: string, prompt?: string) {
  const cwd = await makeTempDir();
  const { cassette } = await record(cwd);
  const replay = new Replay(cassette);
  const counter = counterTool(() => count);
  const { result } = await run(replay.model(), [echoTool, counter.tool], { cwd, prompt });
  return { result, replay };
}

describe('record and replay', () => {
  it('replays a fan-out ten times with shuffled timing: the same result and the same tree', async () => {
    const cwd = await makeTempDir();
    const { cassette, recorded } = await record(cwd);
    expect(recorded.result.result).toBe('All three reported.');
    expect(cassette.turnsOf('main')).toBe(2);
    expect(cassette.turnsOf('main/Agent#3/general-purpose/Agent#1/general-purpose')).toBe(1);

    for (let seed = 1; seed <= 10; seed++) {
      const counter = counterTool(() => 'count is 1');
      const replayed = await run(
        delayed(new Replay(cassette).model(), seed),
        [echoTool, counter.tool],
        {
          cwd,
        },
      );
      expect(comparable(replayed)).toEqual(comparable(recorded));
    }
  });

  it('fails a run whose prompt changed, naming the agent path, the turn and the difference', async () => {
    const { result, replay } = await replayRecording('count is 1', 'Split the work in four.');
    expect(result.status).toBe('failed');
    expect(result.error).toMatch(
      /^replay: main, turn 1: the request differs from the recording at prompt\[0\].content\[0\]\.text: recorded "Split the work in three\.", now "Split the work in four\."/,
    );
    expect(replay.mismatch).toBeInstanceOf(ReplayMismatchError);
  });

  it("fails the whole tree when a child diverges (a tool answered otherwise), naming the child's path", async () => {
    const { result, replay } = await replayRecording('count is 2');
    expect(result.status).toBe('failed');
    expect(replay.mismatch?.path).toBe('main/Agent#2/general-purpose');
    expect(replay.mismatch?.turn).toBe(2);
    expect(result.error).toContain(
      'replay: main/Agent#2/general-purpose, turn 2: the request differs from the recording at prompt',
    );
    expect(result.error).toContain('recorded "count is 1", now "count is 2"');
  });

  it('replays recorded tool results instead of running the tools', async () => {
    const cwd = await makeTempDir();
    const { cassette, recorded } = await record(cwd);
    const counter = counterTool(() => 'a different answer, never asked for');
    const replayed = await run(
      new Replay(cassette).model(),
      replayTools([echoTool, counter.tool], cassette),
      { cwd },
    );
    expect(counter.calls.count).toBe(0);
    expect(comparable(replayed)).toEqual(comparable(recorded));
  });

  it('writes a cassette file that reads back, the same bytes however the children finished', async () => {
    const cwd = await makeTempDir();
    const files = [`${cwd}/a.jsonl`, `${cwd}/b.jsonl`];
    const texts: string[] = [];
    for (const [index, file] of files.entries()) {
      const recorder = new CassetteRecorder({ file, model: 'scripted:fan-out' });
      await run(
        recordModel(delayed(fanOutScript(), index + 7), recorder),
        [echoTool, counterTool(() => 'count is 1').tool],
        { cwd, observe: (event) => recorder.observe(event) },
      );
      recorder.close();
      texts.push(
        Cassette.read(file)
          .entries.map((entry) => JSON.stringify(entry))
          .join('\n')
          // Each recording's agents have ids of their own: the order is what must not change.
          .replace(/\b(main|agent|task)_[0-9a-f]{8,12}\b/g, '$1_<id>'),
      );
    }
    expect(texts[1]).toBe(texts[0]);
    expect(() =>
      Cassette.parse('{"type":"cassette","version":1,"created":"x"}\nnope\n', 'c.jsonl'),
    ).toThrow(/^c\.jsonl:2: not a JSON line/);
    expect(() => Cassette.parse('{"hello":1}\n', 'c.jsonl')).toThrow(/not a warren cassette/);
  });

  it('converts a cassette into a ScriptedModel script that replays the same tree', async () => {
    const cwd = await makeTempDir();
    const { cassette, recorded } = await record(cwd);
    const yaml = formatScript(cassetteToScript(cassette), 'run.jsonl');
    expect(yaml).toMatch(/^# Converted from the cassette run\.jsonl/);
    expect(yaml).toContain('agent: /^main\\/Agent#2\\/general-purpose$/'.replaceAll('\\/', '/'));
    const script = parseScript(yaml, 'run.yaml');
    const model = new ScriptedModel({ turns: script.turns, modelId: script.model });
    const replayed = await run(model, [echoTool, counterTool(() => 'count is 1').tool], { cwd });
    model.assertComplete();
    expect(comparable(replayed)).toEqual(comparable(recorded));
  });
});
