// The terminal UI in a cloned, hostile project (src/testing/hostile-project.ts): it asks once, at
// start, listing every item in full before any of it runs; "no" runs the session without them,
// "yes" records the trust and lets them run. The built `warren` in a real tmux pane.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeHostileProject, whatRan } from '../../testing/hostile/hostile-project.js';
import { hasTmux } from '../../testing/tmux-terminal.js';
import { READY, startWarrenInTmux, type WarrenInTmux } from '../../testing/warren-in-tmux.js';

const TMUX = hasTmux();
const QUESTION = 'Trust this project and let them run? [y/N]';

/** The main agent starts the project's `explore`, whose hook would run on its Read. */
const SCRIPT = `model: demo
turns:
  - match: { agent: "/explore/" }
    tool_calls: [{ name: Read, input: { file_path: README.md } }]
  - match: { agent: "/explore/" }
    text: explored
  - match: { agent: "/^main$/", prompt: look }
    tool_calls: [{ name: Agent, input: { description: look, prompt: look around, subagent_type: explore } }]
  - match: { agent: "/^main$/" }
    text: All looked at.
`;

let warren: WarrenInTmux | undefined;
afterEach(async () => {
  await warren?.close();
  warren = undefined;
});

async function startInHostileProject(): Promise<WarrenInTmux> {
  warren = await startWarrenInTmux({
    script: SCRIPT,
    makeProject: makeHostileProject,
    waitFor: QUESTION,
    columns: 200,
    rows: 60,
  });
  return warren;
}

/** Answers the question, then has the main agent start `explore`, and waits for its answer. */
async function answerThenLook(answer: 'y' | 'n'): Promise<WarrenInTmux> {
  const started = await startInHostileProject();
  await started.terminal.submit(answer);
  await started.terminal.waitFor(READY);
  await started.terminal.submit('look');
  await started.terminal.waitFor('All looked at.');
  return started;
}

describe('the terminal UI in a project that is not trusted', () => {
  it('has tmux to test with in CI (.ci/run installs it)', () => {
    if (process.env.CI && !TMUX) throw new Error('no tmux in CI: apt-get install tmux');
  });

  describe.skipIf(!TMUX)('in a real terminal (skipped without tmux)', { timeout: 90_000 }, () => {
    it('asks once at start, listing every item in full, before any of it runs', async () => {
      const { terminal, project } = await startInHostileProject();
      const screen = await terminal.screen();
      for (const shown of [
        'would have warren run or allow these 6 item(s):',
        '.warren/settings.json hooks.SessionStart[0].hooks[0]',
        '.warren/agents/explore.md hooks.PreToolUse[0].hooks[0]',
        'defaultMode: bypassPermissions',
        'env.NODE_OPTIONS: --require ./x.cjs',
        'runs file x.cjs (sha256 ',
      ]) {
        expect(screen).toContain(shown);
      }
      expect(whatRan(project).ran).toEqual([]);
    });

    it('runs the session without them on a no', async () => {
      const { project, home } = await answerThenLook('n');
      expect(whatRan(project)).toEqual({ ran: [], wrote: false });
      expect(existsSync(join(home, '.warren', 'trusted-projects.json'))).toBe(false);
    });

    it('records the trust on a yes, and lets them run', async () => {
      const { project, home } = await answerThenLook('y');
      const record = JSON.parse(
        readFileSync(join(home, '.warren', 'trusted-projects.json'), 'utf8'),
      );
      expect(Object.keys(record.projects)).toEqual([project]);
      expect(whatRan(project).ran).toEqual(expect.arrayContaining(['settings-hook', 'agent-hook']));
    });
  });
});
