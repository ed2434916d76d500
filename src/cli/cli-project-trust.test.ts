// A cloned repository runs nothing unasked: `warren -p` in a hostile project (hooks in its
// settings and in a definition replacing `explore`, bypassPermissions and broad allow rules, an
// `.mcp.json` server loading a local script through NODE_OPTIONS) leaves all of it out and says
// so, item by item; `--trust-project` and `warren trust` let it run; an edited script withdraws
// the trust. Runs the built CLI (`npm test` builds first).
import { appendFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { homeEnv, runWarren } from '../testing/cli-process.js';
import {
  HOOK_SCRIPT,
  hostileProjectScript,
  makeHostileProject,
  whatRan,
} from '../testing/hostile/hostile-project.js';
import { useTempDir } from '../testing/temp-dir.js';

const home = useTempDir('warren-trust-home-');
const project = useTempDir('warren-trust-project-');

async function warren(args: string[]) {
  return runWarren(args, { cwd: project(), env: homeEnv(home()), timeoutMs: 60_000 });
}

async function run(...extra: string[]) {
  const script = join(home(), 'script.json');
  await writeFile(script, JSON.stringify(hostileProjectScript));
  return warren([
    '-p',
    'do the task',
    '--model',
    `scripted:${script}`,
    '--session-dir',
    join(home(), 'sessions'),
    ...extra,
  ]);
}

const FIX =
  'trust the project with `warren trust` (it lists everything first), or run with --trust-project';

describe('warren -p in a project that is not trusted', () => {
  it('runs none of its hooks, servers or permission settings, and names each on stderr with the fix', async () => {
    makeHostileProject(project());
    const untrusted = await run();
    expect(untrusted.code).toBe(0);
    expect(untrusted.stdout).toBe('finished\n');
    expect(whatRan(project())).toEqual({ ran: [], wrote: false });
    const lines = untrusted.stderr.trim().split('\n');
    const items = lines.filter((line) => line.startsWith('warren: untrusted project: '));
    expect(items).toEqual([
      `warren: untrusted project: .warren/settings.json hooks.SessionStart[0].hooks[0] would run \`node ${HOOK_SCRIPT} settings-hook\` on SessionStart; not applied: ${FIX}`,
      `warren: untrusted project: .warren/settings.json permissions.defaultMode would start every run in permission mode bypassPermissions; not applied: ${FIX}`,
      `warren: untrusted project: .warren/settings.json permissions.allow[0] would allow Bash without asking; not applied: ${FIX}`,
      `warren: untrusted project: .warren/settings.json permissions.allow[1] would allow Write without asking; not applied: ${FIX}`,
      `warren: untrusted project: .warren/agents/explore.md hooks.PreToolUse[0].hooks[0] would run \`node "$WARREN_PROJECT_DIR/${HOOK_SCRIPT}" agent-hook\` on PreToolUse (matcher "Read") while agent "explore" runs; not applied: ${FIX}`,
      `warren: untrusted project: .mcp.json mcpServers.srv would start MCP server "srv": \`${process.execPath} ./srv.cjs\` with env NODE_OPTIONS=--require ./x.cjs; not applied: ${FIX}`,
    ]);
  });

  it('runs all of it for one run with --trust-project, and records nothing', async () => {
    makeHostileProject(project());
    const trusted = await run('--trust-project');
    expect(trusted.stdout).toBe('finished\n');
    expect(trusted.stderr).not.toContain('untrusted project');
    const { ran, wrote } = whatRan(project());
    expect(wrote).toBe(true);
    expect([...ran].sort()).toEqual(['agent-hook', 'mcp-server', 'node-options', 'settings-hook']);
    expect(whatRan(project()).ran).toHaveLength(4);
    const again = await run();
    expect(again.stderr).toContain('warren: untrusted project: ');
  });

  it('runs all of it once `warren trust` has shown it in full, until a script it runs changes', async () => {
    makeHostileProject(project());
    const trust = await warren(['trust']);
    expect(trust.code).toBe(0);
    // Every field as the repository writes it, the env value and the scripts included.
    expect(trust.stdout).toContain('env.NODE_OPTIONS: --require ./x.cjs');
    expect(trust.stdout).toContain('args: ["./srv.cjs"]');
    expect(trust.stdout).toContain('runs file srv.cjs (sha256 ');
    expect(trust.stdout).toContain('runs file x.cjs (sha256 ');
    expect(trust.stdout).toContain(`runs file ${HOOK_SCRIPT} (sha256 `);
    expect(trust.stdout).toContain('defaultMode: bypassPermissions');
    expect(trust.stdout).toContain('Trusted 6 item(s)');

    const trusted = await run();
    expect(trusted.stderr).not.toContain('project');
    expect(whatRan(project()).ran).toHaveLength(4);
    expect(whatRan(project()).wrote).toBe(true);

    await appendFile(join(project(), HOOK_SCRIPT), "require('node:child_process');\n");
    await writeFile(join(project(), 'ran.log'), '');
    const edited = await run();
    expect(whatRan(project()).ran).toEqual([]);
    const withdrawn = edited.stderr.split('\n').filter((line) => line.includes('trust withdrawn'));
    expect(withdrawn).toHaveLength(6);
    expect(withdrawn[0]).toBe(
      `warren: project trust withdrawn: .warren/settings.json hooks.SessionStart[0].hooks[0] changed since it was trusted (file ${HOOK_SCRIPT}) and would run \`node ${HOOK_SCRIPT} settings-hook\` on SessionStart; not applied: ${FIX}`,
    );
    expect(withdrawn[1]).toContain(
      'permissions.defaultMode (unchanged, but other items of the project changed) would',
    );
  });

  it('withdraws the trust when an env value of a server changes, naming the field', async () => {
    makeHostileProject(project());
    await warren(['trust']);
    const file = join(project(), '.mcp.json');
    const config = JSON.parse(await readFile(file, 'utf8'));
    config.mcpServers.srv.env.NODE_OPTIONS = '--require ./y.cjs';
    await writeFile(file, JSON.stringify(config));
    const edited = await run();
    expect(edited.stderr).toContain(
      'warren: project trust withdrawn: .mcp.json mcpServers.srv changed since it was trusted (env.NODE_OPTIONS, file x.cjs) and would start',
    );
    expect(whatRan(project()).ran).toEqual([]);
  });

  it('shows variables as written, never their values, and no terminal escape from the files', async () => {
    await writeFile(
      join(project(), '.mcp.json'),
      JSON.stringify({
        mcpServers: {
          remote: {
            type: 'http',
            url: 'http://127.0.0.1:9/mcp',
            headers: { Authorization: `Bearer \${API_TOKEN}` },
          },
          local: { command: 'warren-no-such-server', env: { NOTE: 'a\u001b[2Jb' } },
        },
      }),
    );
    const env = { ...homeEnv(home()), API_TOKEN: 'tok-very-secret-123' };
    const script = join(home(), 'script.json');
    await writeFile(script, JSON.stringify({ turns: [{ text: 'done' }] }));
    const runs = [
      await runWarren(['-p', 'x', '--model', `scripted:${script}`], { cwd: project(), env }),
      await runWarren(['trust'], { cwd: project(), env }),
    ];
    for (const output of runs) {
      const text = `${output.stdout}${output.stderr}`;
      expect(text).toContain(`Bearer \${API_TOKEN}`);
      expect(text).not.toContain('tok-very-secret-123');
      expect(text).not.toContain('\u001b');
      expect(text).toContain('NOTE=a\\u{1b}[2Jb');
    }
  });

  it('does not run a trusted hook whose script an agent changed during the run', async () => {
    makeHostileProject(project());
    await warren(['trust']);
    const edited = "require('node:fs').appendFileSync('ran.log', 'edited-hook\\n');\n";
    const script = join(home(), 'script.json');
    await writeFile(
      script,
      JSON.stringify({
        turns: [
          ...hostileProjectScript.turns.slice(0, 2),
          { toolCalls: [{ name: 'Read', input: { file_path: HOOK_SCRIPT } }] },
          { toolCalls: [{ name: 'Write', input: { file_path: HOOK_SCRIPT, content: edited } }] },
          ...hostileProjectScript.turns.slice(3),
        ],
      }),
    );
    const run = await warren(['-p', 'x', '--model', `scripted:${script}`]);
    expect(run.stdout).toBe('finished\n');
    expect(whatRan(project()).ran).not.toContain('agent-hook');
    expect(whatRan(project()).ran).not.toContain('edited-hook');
    expect(run.stderr).toContain(
      `warren: warning: hook agent explore: hooks.PreToolUse[0].hooks[0]: not run: ${HOOK_SCRIPT} changed since the run started`,
    );
  });
});
