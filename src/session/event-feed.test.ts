// The event feed of a host session: every event of a run — warnings, child and background
// events included — reaches a subscriber once, after its transcript line is on disk.
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { AgentEvent, RunResult } from '../core/events.js';
import { scriptedModel } from '../model/scripted-model.js';
import { query } from '../query.js';
import { TaskManager } from '../tasks/task-manager.js';
import { makeGitRepo } from '../testing/git-repo.js';
import { useTempDir } from '../testing/temp-dir.js';
import { EventFeed } from './event-feed.js';
import { TranscriptWriter } from './transcript-writer.js';

const tempDir = useTempDir();

function feedIn(sessionDir: string, warnings: string[] = []): EventFeed {
  const transcript = new TranscriptWriter({ sessionDir, sessionId: 's1', mainAgentId: 'main' });
  return new EventFeed({ transcript, warnings });
}

/** The last line of an agent's transcript, as it is on disk now. */
function lastRecord(feed: EventFeed, agentId: string): Record<string, unknown> | undefined {
  const file = feed.transcript.pathFor(agentId);
  if (!existsSync(file)) return undefined;
  const lines = readFileSync(file, 'utf8').trim().split('\n');
  return JSON.parse(lines.at(-1)!);
}

/** The record a transcript keeps of an event, for the events it keeps. */
const RECORD_OF: Partial<Record<AgentEvent['type'], string>> = {
  run_start: 'run_start',
  message_end: 'message',
  tool_end: 'tool_end',
  warning: 'warning',
  result: 'result',
};

const main = { agentId: 'main', parentId: null, depth: 0 } as const;

describe('an event feed', () => {
  it('hands an event to its subscribers once it is on disk', () => {
    const feed = feedIn(tempDir());
    const heard: AgentEvent[] = [];
    const onDisk: unknown[] = [];
    feed.subscribe((event) => {
      heard.push(event);
      onDisk.push(lastRecord(feed, 'main'));
    });
    const warning: AgentEvent = { ...main, type: 'warning', message: 'careful' };
    feed.record(warning);
    expect(heard).toEqual([warning]);
    expect(onDisk).toEqual([expect.objectContaining({ type: 'warning', message: 'careful' })]);
    feed.close();
    expect(lastRecord(feed, 'main')).toMatchObject({ type: 'warning', message: 'careful' });
  });

  it('says the warnings found before the run right after the main agent starts, once', () => {
    const feed = feedIn(tempDir(), ['server x is not trusted']);
    const heard: AgentEvent[] = [];
    feed.subscribe((event) => heard.push(event));
    feed.record({ ...main, type: 'message_delta', text: 'before the start' });
    expect(heard).toHaveLength(1);
    const runStart: AgentEvent = {
      ...main,
      type: 'run_start',
      agentType: 'main',
      description: '',
      model: 'scripted',
      tools: [],
      cwd: '/',
      path: 'main',
    };
    feed.record(runStart);
    expect(heard.filter((event) => event.type === 'warning')).toEqual([
      { ...main, type: 'warning', message: 'server x is not trusted' },
    ]);
    expect(feed.unsaidWarnings()).toEqual([]);
    feed.close();
  });

  it('keeps the warnings no run started for the next feed of its host', () => {
    const feed = feedIn(tempDir(), ['first', 'second']);
    expect(feed.unsaidWarnings()).toEqual(['first', 'second']);
    expect(feed.unsaidWarnings()).toEqual([]);
    feed.close();
  });

  it('drops what comes after it closed (late background work)', () => {
    const feed = feedIn(tempDir());
    const heard: AgentEvent[] = [];
    feed.subscribe((event) => heard.push(event));
    feed.close();
    feed.record({ ...main, type: 'warning', message: 'too late' });
    expect(heard).toEqual([]);
    expect(feed.closed).toBe(true);
  });

  it('stops the run it reads when a subscriber throws, and passes the error on', async () => {
    const feed = feedIn(tempDir());
    let finished = false;
    // As a run does: each event recorded (its `onEvent`) as it is made, then in its stream.
    async function* run(): AsyncGenerator<AgentEvent, RunResult> {
      try {
        for (const message of ['one', 'two']) {
          const warning: AgentEvent = { ...main, type: 'warning', message };
          feed.record(warning);
          yield warning;
        }
        throw new Error('never reached');
      } finally {
        finished = true;
      }
    }
    feed.subscribe(() => {
      throw new Error('the screen is gone');
    });
    await expect(feed.drain(run())).rejects.toThrow('the screen is gone');
    expect(finished).toBe(true);
    feed.close();
  });

  it('stops a subscriber that unsubscribes', () => {
    const feed = feedIn(tempDir());
    const heard: AgentEvent[] = [];
    const stop = feed.subscribe((event) => heard.push(event));
    stop();
    feed.record({ ...main, type: 'warning', message: 'unheard' });
    expect(heard).toEqual([]);
    feed.close();
  });
});

describe('a run read through an event feed', () => {
  it('reaches a subscriber with every event once, each on disk before it is shown', async () => {
    const cwd = tempDir();
    const feed = feedIn(cwd, ['a warning from the setup']);
    // The two ways a run hands events over, kept apart to know what "every event" is.
    const byOnEvent: AgentEvent[] = [];
    const byStream: AgentEvent[] = [];
    const onEvent = (event: AgentEvent) => {
      byOnEvent.push(event);
      feed.record(event);
    };
    const heard: AgentEvent[] = [];
    const notOnDisk: string[] = [];
    feed.subscribe((event) => {
      heard.push(event);
      const kept = RECORD_OF[event.type];
      if (kept && lastRecord(feed, event.agentId)?.type !== kept) {
        notOnDisk.push(`${event.type} of ${event.agentId}`);
      }
    });
    const model = scriptedModel([
      {
        match: { prompt: 'START' },
        toolCalls: [{ name: 'Agent', input: { description: 'fg', prompt: 'FG work' } }],
      },
      { match: { prompt: 'FG work' }, text: 'foreground result' },
      {
        match: { lastToolResult: 'foreground result' },
        toolCalls: [
          {
            name: 'Agent',
            input: { description: 'bg', prompt: 'BG work', run_in_background: true },
          },
        ],
      },
      { match: { prompt: 'BG work' }, delayMs: 30, text: 'background result' },
      { match: { lastToolResult: '"status":"running"' }, text: 'waiting for it' },
      { match: { prompt: '<task-notification>' }, text: 'all done' },
    ]);
    const run = query({
      prompt: 'START',
      options: {
        model,
        cwd,
        agentId: 'main',
        onEvent,
        tasks: new TaskManager({ onEvent }),
        // Made outside any loop: this warning is recorded by the run all the same.
        mcpServers: { gone: { command: 'warren-no-such-server' } },
      },
    });
    async function* tapped(): AsyncGenerator<AgentEvent, RunResult> {
      for (;;) {
        const step = await run.next();
        if (step.done) return step.value;
        byStream.push(step.value);
        yield step.value;
      }
    }
    const result = await feed.drain(tapped());
    feed.close();

    expect(result).toMatchObject({ agentId: 'main', status: 'completed', result: 'all done' });
    // Every event the run handed over, and the setup's warning the feed made: each heard once.
    const every = new Set([...byOnEvent, ...byStream]);
    const made = heard.filter((event) => !every.has(event));
    expect(made).toEqual([{ ...main, type: 'warning', message: 'a warning from the setup' }]);
    expect(heard).toHaveLength(every.size + 1);
    expect(new Set(heard)).toEqual(new Set([...every, ...made]));
    expect(notOnDisk).toEqual([]);
    // Warnings of the setup and of the run, child and background events: each there, once.
    const warnings = heard.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
    expect(warnings).toEqual([
      'a warning from the setup',
      expect.stringContaining('MCP server "gone" did not start'),
    ]);
    const starts = heard.filter((event) => event.type === 'run_start');
    expect(starts.map((event) => event.depth)).toEqual([0, 1, 1]);
    const types = heard.map((event) => event.type);
    expect(types.filter((type) => type === 'task_started')).toHaveLength(1);
    expect(types.filter((type) => type === 'task_notification')).toHaveLength(1);
    expect(types.filter((type) => type === 'result')).toHaveLength(3);
    // Every event reached onEvent once; the stream carried nothing onEvent did not.
    expect(new Set(byOnEvent).size).toBe(byOnEvent.length);
    expect(byStream.filter((event) => !byOnEvent.includes(event))).toEqual([]);
  });

  it("hears how a background child's worktree ended after the turn that started it", async () => {
    const cwd = makeGitRepo(tempDir());
    const feed = feedIn(tempDir());
    const heard: AgentEvent[] = [];
    feed.subscribe((event) => heard.push(event));
    const tasks = new TaskManager({ onEvent: feed.record });
    const model = scriptedModel([
      {
        match: { prompt: 'START' },
        toolCalls: [
          {
            name: 'Agent',
            input: {
              description: 'bg',
              prompt: 'BG work',
              run_in_background: true,
              isolation: 'worktree',
            },
          },
        ],
      },
      { match: { prompt: 'BG work' }, delayMs: 100, text: 'changed nothing' },
      { match: { lastToolResult: '"task_id"' }, text: 'not waiting' },
    ]);
    const options = { model, cwd, agentId: 'main', onEvent: feed.record, tasks };
    // As the terminal UI runs a prompt: the turn ends while the child works on.
    await feed.drain(query({ prompt: 'START', options: { ...options, waitForBackground: false } }));
    await tasks.waitAll();
    feed.close();
    const worktrees = heard.flatMap((event) => (event.type === 'worktree' ? [event.action] : []));
    expect(worktrees).toEqual(['created', 'removed']);
    const child = heard.find((event) => event.type === 'run_start' && event.depth === 1);
    expect(lastRecord(feed, child!.agentId)).toMatchObject({ type: 'worktree', action: 'removed' });
  });
});
