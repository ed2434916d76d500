// When a transcript reaches the disk: an agent's tool results before its next model request, in
// one sync however many calls its turn made; nothing synced per call.
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { AgentEvent, AgentRef } from '../core/events.js';
import { useTempDir } from '../testing/temp-dir.js';
import { TranscriptWriter } from './transcript-writer.js';

/** Every fsync/fdatasync of the writer, as the path of the file synced. */
const syncs = vi.hoisted(() => ({ paths: [] as string[], pathOf: new Map<number, string>() }));

vi.mock('node:fs', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs')>();
  const noted =
    (sync: (fd: number) => void) =>
    (fd: number): void => {
      syncs.paths.push(syncs.pathOf.get(fd) ?? `fd ${fd}`);
      sync(fd);
    };
  return {
    ...fs,
    openSync: (path: string, flags: string) => {
      const fd = fs.openSync(path, flags);
      syncs.pathOf.set(fd, path);
      return fd;
    },
    fsyncSync: noted(fs.fsyncSync),
    fdatasyncSync: noted(fs.fdatasyncSync),
  };
});

const main: AgentRef = { agentId: 'main', parentId: null, depth: 0 };
const child: AgentRef = { agentId: 'agent-1', parentId: 'main', depth: 1 };

const sessionDir = useTempDir('warren-transcript-sync-');
let writer: TranscriptWriter;

beforeEach(() => {
  syncs.paths.length = 0;
  writer = new TranscriptWriter({
    sessionDir: sessionDir(),
    sessionId: 's1',
    mainAgentId: 'main',
    env: {},
  });
});
afterEach(() => writer.close());

const toolEnd = (ref: AgentRef, id: string): AgentEvent => ({
  ...ref,
  type: 'tool_end',
  toolCallId: id,
  toolName: 'Read',
  output: `result ${id}`,
  isError: false,
  durationMs: 1,
});
const turnStart = (ref: AgentRef, turn: number): AgentEvent => ({
  ...ref,
  type: 'turn_start',
  turn,
});
const toolMessage = (ref: AgentRef): AgentEvent => ({
  ...ref,
  type: 'message_end',
  message: { role: 'tool', content: [] },
});

describe('TranscriptWriter syncs', () => {
  it("an agent's tool results once, before its next model request, however many calls its turn made", () => {
    writer.write(turnStart(main, 1));
    for (const id of ['a', 'b', 'c', 'd', 'e']) writer.write(toolEnd(main, id));
    writer.write(toolMessage(main));
    expect(syncs.paths).toEqual([]);

    writer.write(turnStart(main, 2));

    expect(syncs.paths).toEqual([join(sessionDir(), 's1.jsonl')]);
  });

  it('nothing for a turn without tool results', () => {
    writer.write(turnStart(main, 1));
    writer.write(turnStart(main, 2));

    expect(syncs.paths).toEqual([]);
  });

  it("only the file of the agent about to ask its model, not its siblings' or parent's", () => {
    writer.write(toolEnd(main, 'a'));
    writer.write(toolEnd(child, 'b'));

    writer.write(turnStart(child, 2));

    expect(syncs.paths).toEqual([writer.pathFor(child.agentId)]);
  });

  it('a sidechain with unsynced results when its file closes', () => {
    writer.write(toolEnd(child, 'b'));

    writer.close();

    expect(syncs.paths).toEqual([writer.pathFor(child.agentId)]);
  });
});
