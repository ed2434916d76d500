// Two sub-agents that change one file in one checkout at the same time: both read it, wait for
// each other (a barrier), then write back their own change. Neither change may be lost: the
// second writer is told the file changed since it read it, reads again, and redoes its change.
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { query } from '../query.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { readOnlyTool } from '../testing/stub-tools.js';
import { useTempDir } from '../testing/temp-dir.js';
import { editTool } from '../tools/edit.js';
import { readTool } from '../tools/read.js';

const workspace = useTempDir('warren-writers-');

/** A tool whose calls all return once `count` of them have arrived. */
function barrierTool(count: number) {
  let arrived = 0;
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return readOnlyTool({
    name: 'Barrier',
    description: 'waits for the other writers',
    async call() {
      if (++arrived === count) open();
      await opened;
      return 'barrier passed';
    },
  });
}

/** One writer's script: read, barrier, edit; if told to read again, read and edit again. */
function writer(name: 'A' | 'B'): ScriptTurn[] {
  const other = name === 'A' ? 'B' : 'A';
  const prompt = `WRITER-${name}`;
  const edit = {
    name: 'Edit',
    input: {
      file_path: 'notes.txt',
      old_string: `line ${name.toLowerCase()}`,
      new_string: `LINE ${name}`,
    },
  };
  return [
    { match: { prompt }, toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }] },
    { match: { prompt, lastToolResult: 'line' }, toolCalls: [{ name: 'Barrier', input: {} }] },
    { match: { prompt, lastToolResult: 'barrier passed' }, toolCalls: [edit] },
    {
      match: { prompt, lastToolResult: 'changed since you last read it' },
      toolCalls: [{ name: 'Read', input: { file_path: 'notes.txt' } }],
    },
    { match: { prompt, lastToolResult: `/LINE ${other}/` }, toolCalls: [edit] },
    { match: { prompt, lastToolResult: 'Edited' }, text: `${name} done` },
  ];
}

describe('parallel writers in one checkout', () => {
  it('two children that read a file, wait for each other and write it back: both changes survive', async () => {
    const file = path.join(workspace(), 'notes.txt');
    await writeFile(file, 'line a\nline b\n');
    const { result, events } = await runToEnd(
      query({
        prompt: 'MAIN',
        options: {
          model: scriptedModel([
            {
              match: { prompt: 'MAIN' },
              toolCalls: ['A', 'B'].map((name) => ({
                name: 'Agent',
                input: { description: `writer ${name}`, prompt: `WRITER-${name}` },
              })),
            },
            ...writer('A'),
            ...writer('B'),
            { match: { lastToolResult: 'done' }, text: 'both done' },
          ]),
          tools: [readTool, editTool, barrierTool(2)],
          cwd: workspace(),
          permissions: createPermissionPolicy({ mode: 'bypassPermissions' }),
        },
      }),
    );
    expect(result.result).toBe('both done');
    expect(await readFile(file, 'utf8')).toBe('LINE A\nLINE B\n');
    const edits = ofType(events, 'tool_end').filter((event) => event.toolName === 'Edit');
    const refused = edits.filter((event) => event.isError);
    expect(refused).toHaveLength(1);
    expect(refused[0]?.output).toContain('notes.txt has changed since you last read it');
    expect(edits.filter((event) => !event.isError)).toHaveLength(2);
  });
});
