import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AgentRef } from '../core/events.js';
import { emptyUsage } from '../core/usage.js';
import { runStartEvent } from '../testing/run-results.js';
import { useTempDir } from '../testing/temp-dir.js';
import { readSessionEvents } from './session-events.js';
import { TranscriptWriter } from './transcript-writer.js';

const main: AgentRef = { agentId: 'main_1', parentId: null, depth: 0 };
const child: AgentRef = { agentId: 'agent_1', parentId: 'main_1', depth: 1 };
const sessionDir = useTempDir('warren-session-events-');

describe('readSessionEvents', () => {
  it('reads the main transcript and the sidechains back as events, parents first', () => {
    const writer = new TranscriptWriter({
      sessionDir: sessionDir(),
      sessionId: 's1',
      mainAgentId: 'main_1',
      env: {},
    });
    writer.write(runStartEvent(main, 'main'));
    writer.write(runStartEvent(child, 'main/Agent#1/explore', { parentToolCallId: 'call_1' }));
    writer.write({
      ...child,
      type: 'usage',
      turn: 1,
      usage: { ...emptyUsage(), inputTokens: 5 },
      costUsd: null,
      durationMs: 12,
      finishReason: 'stop',
    });
    writer.write({
      ...child,
      type: 'tool_end',
      toolCallId: 'call_9',
      toolName: 'Glob',
      output: 'no matches',
      isError: true,
      durationMs: 3,
    });
    writer.close();
    const session = readSessionEvents({
      sessionDir: sessionDir(),
      sessionId: 's1',
      where: 'warren usage',
    });
    expect(session.warnings).toEqual([]);
    expect(session.files).toEqual([
      join(sessionDir(), 's1.jsonl'),
      join(sessionDir(), 's1', 'agents', 'agent_1.jsonl'),
    ]);
    expect(session.events.map(({ event }) => [event.type, event.agentId])).toEqual([
      ['run_start', 'main_1'],
      ['run_start', 'agent_1'],
      ['usage', 'agent_1'],
      ['tool_end', 'agent_1'],
    ]);
    expect(session.events[1]?.event).toMatchObject({
      path: 'main/Agent#1/explore',
      parentToolCallId: 'call_1',
    });
    expect(session.events[2]?.event).toMatchObject({ durationMs: 12, finishReason: 'stop' });
    expect(session.events[3]?.event).toMatchObject({
      isError: true,
      durationMs: 3,
      output: 'no matches',
    });
  });

  it('reads transcripts written before paths were recorded, and skips broken lines with a warning', () => {
    const file = join(sessionDir(), 'old.jsonl');
    appendFileSync(
      file,
      `${JSON.stringify({ v: 1, ...main, timestamp: '2026-01-01T00:00:00.000Z', type: 'run_start', agentType: 'main', description: '', model: 'm', tools: [], cwd: '/' })}\n` +
        `${JSON.stringify({ v: 1, ...main, timestamp: '2026-01-01T00:00:01.000Z', type: 'usage', turn: 1, usage: { inputTokens: 1, outputTokens: 1, cacheReadInputTokens: 0, cacheCreationInputTokens: 0 }, costUsd: null })}\n` +
        '{"v":1,"type":"message"\n',
    );
    const session = readSessionEvents({
      sessionDir: sessionDir(),
      sessionId: 'old',
      where: 'warren report',
    });
    expect(session.events[0]?.event).toMatchObject({ path: 'main' });
    expect(session.events[1]?.event).toMatchObject({ durationMs: 0, finishReason: 'unknown' });
    expect(session.warnings).toEqual([`${file}:3: not a complete JSON line; skipped`]);
  });

  it('names the command, the session and where it looked when there is no such session', () => {
    expect(() =>
      readSessionEvents({ sessionDir: sessionDir(), sessionId: 'nope', where: 'warren usage' }),
    ).toThrow(/^warren usage nope: no such session \(looked for .*nope\.jsonl\)/);
    expect(() =>
      readSessionEvents({ sessionDir: sessionDir(), sessionId: '../x', where: 'warren usage' }),
    ).toThrow(/^warren usage: /);
  });
});
