// `session/list` of `warren acp`, asked by the ACP SDK's own client: the sessions an editor can
// load, newest first, with their folder, a title from the first prompt and when they were last
// written; those of one folder when it names one. And the project's skills as slash commands.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { methods } from '@agentclientprotocol/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { type AcpWarren, agentText, startAcpWarren } from '../testing/acp-client.js';
import { homeEnv } from '../testing/cli-process.js';
import { useTempDir } from '../testing/temp-dir.js';

const home = useTempDir('warren-acp-sessions-home-');
let running: AcpWarren | undefined;

afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('warren acp: session/list', () => {
  it('lists the sessions with a prompt, of one folder when asked, newest first', async () => {
    const script = join(home(), 'script.json');
    await writeFile(script, JSON.stringify([{ text: 'one' }, { text: 'two' }, { text: 'three' }]));
    const [left, right] = [join(home(), 'left'), join(home(), 'right')];
    await mkdir(left);
    await mkdir(right);
    running = await startAcpWarren({
      args: ['--model', `scripted:${script}`, '--session-dir', join(home(), 'sessions')],
      env: homeEnv(home()),
      cwd: home(),
    });
    const { agent } = running;
    expect(running.initialized.agentCapabilities?.sessionCapabilities?.list).toEqual({});
    const ids: string[] = [];
    for (const [cwd, prompt] of [
      [left, 'Fix the login bug\nin detail'],
      [right, 'Write docs'],
      [left, 'Refactor the parser'],
    ] as const) {
      const { sessionId } = await agent.request(methods.agent.session.new, { cwd, mcpServers: [] });
      await agent.request(methods.agent.session.prompt, {
        sessionId,
        prompt: [{ type: 'text', text: prompt }],
      });
      ids.push(sessionId);
    }
    // A session opened and left without a prompt is not one to go back to.
    await agent.request(methods.agent.session.new, { cwd: left, mcpServers: [] });

    const ofLeft = await agent.request(methods.agent.session.list, { cwd: left });
    expect(ofLeft.sessions.map(({ sessionId, cwd, title }) => ({ sessionId, cwd, title }))).toEqual(
      [
        { sessionId: ids[2], cwd: left, title: 'Refactor the parser' },
        { sessionId: ids[0], cwd: left, title: 'Fix the login bug' },
      ],
    );
    expect(ofLeft.nextCursor ?? undefined).toBeUndefined();
    const all = await agent.request(methods.agent.session.list, {});
    expect(all.sessions.map((session) => session.sessionId).sort()).toEqual([...ids].sort());
    expect(Date.parse(all.sessions[0]!.updatedAt ?? '')).toBeGreaterThan(0);
    await expect(
      agent.request(methods.agent.session.list, { cursor: '../../etc' }),
    ).rejects.toThrow(/cursor "..\/..\/etc" is not one this agent gave/);
  });
});

describe('warren acp: slash commands', () => {
  it("offers the project's skills as commands, and a prompt starting with one uses that skill", async () => {
    const project = join(home(), 'project');
    await mkdir(join(project, '.warren/skills/release-notes'), { recursive: true });
    await writeFile(
      join(project, '.warren/skills/release-notes/SKILL.md'),
      '---\nname: release-notes\ndescription: Writes release notes from the git log.\n---\nRun git log.\n',
    );
    const script = join(home(), 'script.json');
    await writeFile(
      script,
      JSON.stringify([
        { match: { prompt: 'Use the "release-notes" skill' }, text: 'notes for 2.0 written' },
      ]),
    );
    running = await startAcpWarren({
      args: ['--model', `scripted:${script}`, '--session-dir', join(home(), 'sessions')],
      env: homeEnv(home()),
      cwd: project,
    });
    const { agent } = running;
    const { sessionId } = await agent.request(methods.agent.session.new, {
      cwd: project,
      mcpServers: [],
    });
    await agent.request(methods.agent.session.prompt, {
      sessionId,
      prompt: [{ type: 'text', text: '/release-notes for 2.0' }],
    });
    const offered = running.updates.find(
      ({ update }) => update.sessionUpdate === 'available_commands_update',
    );
    expect(offered?.update).toEqual({
      sessionUpdate: 'available_commands_update',
      availableCommands: [
        {
          name: 'release-notes',
          description: 'Writes release notes from the git log.',
          input: { hint: 'what to use it for' },
        },
      ],
    });
    expect(agentText(running.updates)).toBe('notes for 2.0 written');
  });
});
