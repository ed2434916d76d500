// The project's context end to end through query() and the scripted model: which agents see the
// project instructions, the skills list and their memory, what Skill returns, and that memory is
// written where (and only where) an agent may.
import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { LanguageModelV4CallOptions } from '@ai-sdk/provider';
import { describe, expect, it } from 'vitest';
import type { AgentEventOf } from '../core/events.js';
import type { AgentDefinitionInput } from '../definitions/agent-definition.js';
import { type ScriptedModel, scriptedModel } from '../model/scripted-model.js';
import type { ScriptTurn } from '../model/scripted-script.js';
import { createPermissionPolicy } from '../permissions/create-permission-policy.js';
import { type QueryOptions, query } from '../query.js';
import { NO_WAIT_RETRY } from '../testing/echo-run-options.js';
import { unframed } from '../testing/framed-output.js';
import { ofType, runToEnd } from '../testing/run-events.js';
import { useTempDir } from '../testing/temp-dir.js';
import { builtinTools } from '../tools/builtin-tools.js';
import { withEnvironment } from './environment-prompt.js';
import { ProjectContext } from './project-context.js';

const sandbox = useTempDir('warren-context-');
const projectDir = () => path.join(sandbox(), 'project');
const warrenHome = () => path.join(sandbox(), 'home', '.warren');

async function project(files: Record<string, string>) {
  await mkdir(path.join(projectDir(), '.git'), { recursive: true });
  await mkdir(warrenHome(), { recursive: true });
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(projectDir(), name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  return ProjectContext.load({
    projectDir: projectDir(),
    warrenHome: warrenHome(),
    homeDir: path.dirname(warrenHome()),
    instructions: true,
    skills: true,
  });
}

const agentCall = (type: string, prompt: string) => ({
  name: 'Agent',
  input: { description: type, prompt, subagent_type: type },
});

/** The main agent starts these children ([agent type, prompt]) at once; each answers "done". */
const childrenAtOnce = (...children: [type: string, prompt: string][]): ScriptTurn[] => [
  {
    match: { prompt: 'MAIN' },
    toolCalls: children.map(([type, prompt]) => agentCall(type, prompt)),
  },
  ...children.map(([, prompt]) => ({ match: { prompt }, text: 'done' })),
  { text: 'all done' },
];

async function run(
  turns: ScriptTurn[],
  options: Partial<QueryOptions> & { projectContext: ProjectContext },
) {
  const model = scriptedModel(turns);
  const { events, result } = await runToEnd(
    query({
      prompt: 'MAIN task',
      options: {
        model,
        cwd: projectDir(),
        tools: builtinTools(),
        retry: NO_WAIT_RETRY,
        ...options,
      },
    }),
  );
  return { model, events, result };
}

/** The system prompt of the model call whose last user message holds `marker`. */
function systemOf(model: ScriptedModel, marker: string): string {
  const call = model.calls.find((c: LanguageModelV4CallOptions) =>
    JSON.stringify(c.prompt.findLast((m) => m.role === 'user')).includes(marker),
  );
  const system = call?.prompt.find((message) => message.role === 'system');
  return typeof system?.content === 'string' ? system.content : '';
}

/** The text of the last user message of the model call that holds `marker` there. */
function lastUserOf(model: ScriptedModel, marker: string): string {
  const last = (c: LanguageModelV4CallOptions) => c.prompt.findLast((m) => m.role === 'user');
  const call = model.calls.find((c) => JSON.stringify(last(c)).includes(marker));
  const content = call && last(call)?.content;
  return Array.isArray(content)
    ? content.map((part) => (part.type === 'text' ? part.text : '')).join('')
    : '';
}

const toolsOf = (model: ScriptedModel, marker: string) =>
  (
    model.calls.find((c) =>
      JSON.stringify(c.prompt.findLast((m) => m.role === 'user')).includes(marker),
    )?.tools ?? []
  ).map((tool) => tool.name);

const INSTRUCTIONS = 'Always run npm test before finishing. MARK-INSTRUCTIONS';

describe('project instructions reach exactly the agents they should', () => {
  const definitions: Record<string, AgentDefinitionInput> = {
    reviewer: { description: 'Reviews.', prompt: 'You review.', tools: 'Read, Grep' },
    quiet: { description: 'Quiet.', prompt: 'You are quiet.', omitProjectInstructions: true },
  };

  it('general-purpose and custom children get them; explore, plan and opted-out ones do not', async () => {
    const context = await project({ 'AGENTS.md': INSTRUCTIONS });
    const { model } = await run(
      childrenAtOnce(
        ['general-purpose', 'CHILD-general-purpose'],
        ['explore', 'CHILD-explore'],
        ['plan', 'CHILD-plan'],
        ['reviewer', 'CHILD-reviewer'],
        ['quiet', 'CHILD-quiet'],
      ),
      { projectContext: context, agents: definitions },
    );
    const sees = (type: string) => systemOf(model, `CHILD-${type}`).includes('MARK-INSTRUCTIONS');
    expect(sees('general-purpose')).toBe(true);
    expect(sees('reviewer')).toBe(true);
    expect(sees('explore')).toBe(false);
    expect(sees('plan')).toBe(false);
    expect(sees('quiet')).toBe(false);
  });

  it('go into a main agent run as a definition, in the stable part before the environment', async () => {
    const context = await project({ 'AGENTS.md': INSTRUCTIONS });
    const { model } = await run([{ text: 'ok' }], {
      projectContext: context,
      agents: definitions,
      agent: 'reviewer',
    });
    const system = systemOf(model, 'MAIN');
    expect(system.indexOf('You review.')).toBe(0);
    expect(system.indexOf('MARK-INSTRUCTIONS')).toBeGreaterThan(0);
    expect(system.indexOf('MARK-INSTRUCTIONS')).toBeLessThan(system.indexOf('Environment:'));
  });

  it("sit before the environment, whose date is the session's, in a child's prompt too", async () => {
    const context = await project({
      'AGENTS.md': INSTRUCTIONS,
      '.warren/skills/release-notes/SKILL.md': SKILL,
      '.warren/agent-memory/noter/MEMORY.md': '- MARK-MEMORY\n',
    });
    const { model } = await run(
      [
        { match: { prompt: 'MAIN' }, toolCalls: [agentCall('noter', 'CHILD-noter')] },
        { match: { prompt: 'CHILD-noter' }, text: 'done' },
        { text: 'all done' },
      ],
      {
        projectContext: context,
        sessionDate: '2001-02-03',
        agents: { noter: { description: 'Notes.', prompt: 'You note.', memory: 'project' } },
      },
    );
    const system = systemOf(model, 'CHILD-noter');
    const at = (text: string) => system.indexOf(text);
    expect(at('You note.')).toBe(0);
    expect(at('You note.')).toBeLessThan(at('MARK-INSTRUCTIONS'));
    expect(at('MARK-INSTRUCTIONS')).toBeLessThan(at('# Skills'));
    expect(at('# Skills')).toBeLessThan(at('MARK-MEMORY'));
    expect(at('MARK-MEMORY')).toBeLessThan(at('Environment:'));
    expect(system.endsWith('- Date: 2001-02-03')).toBe(true);
  });

  it('are one string per definition: siblings send the same system prompt', async () => {
    const context = await project({ 'AGENTS.md': INSTRUCTIONS });
    const { model } = await run(childrenAtOnce(['reviewer', 'CHILD-1'], ['reviewer', 'CHILD-2']), {
      projectContext: context,
      agents: definitions,
    });
    expect(systemOf(model, 'CHILD-1')).toBe(systemOf(model, 'CHILD-2'));
  });
});

const SKILL = `---
name: release-notes
description: Writes release notes from the git log.
---
Run git log since the last tag, group by type, write NOTES.md. MARK-SKILL-BODY
`;

describe('skills', () => {
  it('every agent with the Skill tool sees the list, and loads a skill with it', async () => {
    const context = await project({
      '.claude/skills/release-notes/SKILL.md': SKILL,
      '.claude/skills/release-notes/template.md': 'TEMPLATE',
    });
    const { model, result } = await run(
      [
        { match: { prompt: 'MAIN' }, toolCalls: [agentCall('explore', 'CHILD-explore')] },
        {
          match: { prompt: 'CHILD-explore' },
          toolCalls: [{ name: 'Skill', input: { name: 'release-notes' } }],
        },
        {
          match: { lastToolResult: 'MARK-SKILL-BODY' },
          toolCalls: [{ name: 'Skill', input: { name: 'release-notes', file: 'template.md' } }],
        },
        { match: { lastToolResult: 'TEMPLATE' }, text: 'loaded it' },
        { text: 'all done' },
      ],
      { projectContext: context },
    );
    expect(result.status).toBe('completed');
    expect(toolsOf(model, 'CHILD-explore')).toContain('Skill');
    expect(systemOf(model, 'CHILD-explore')).toContain(
      '- release-notes: Writes release notes from the git log.',
    );
    expect(systemOf(model, 'CHILD-explore')).not.toContain('MARK-SKILL-BODY');
    const outputs = result.messages.flatMap((m) => (m.role === 'tool' ? m.content : []));
    expect(outputs.some((part) => unframed(part.output) === 'loaded it')).toBe(true);
  });

  it("a definition's `skills` preloads their whole text into its prompt", async () => {
    const context = await project({ '.warren/skills/release-notes/SKILL.md': SKILL });
    const { model, events } = await run(
      [
        { match: { prompt: 'MAIN' }, toolCalls: [agentCall('writer', 'CHILD-writer')] },
        { match: { prompt: 'CHILD-writer' }, text: 'done' },
        { text: 'all done' },
      ],
      {
        projectContext: context,
        agents: {
          writer: {
            description: 'Writes.',
            prompt: 'You write.',
            skills: ['release-notes', 'missing-skill'],
          },
        },
      },
    );
    expect(systemOf(model, 'CHILD-writer')).toContain('MARK-SKILL-BODY');
    expect(ofType(events, 'warning').map((event) => event.message)).toEqual([
      'agent "writer": `skills` names "missing-skill", which is not a skill here (skills: release-notes); not preloaded',
    ]);
  });

  it('a definition that denies Skill, or has no tools, neither holds it nor sees the list', async () => {
    const context = await project({ '.warren/skills/release-notes/SKILL.md': SKILL });
    const { model } = await run(
      childrenAtOnce(['denied', 'CHILD-denied'], ['bare', 'CHILD-bare']),
      {
        projectContext: context,
        agents: {
          denied: { description: 'd', prompt: 'p', disallowedTools: 'Skill' },
          bare: { description: 'd', prompt: 'p', tools: [] },
        },
      },
    );
    for (const marker of ['CHILD-denied', 'CHILD-bare']) {
      expect(toolsOf(model, marker)).not.toContain('Skill');
      expect(systemOf(model, marker)).not.toContain('# Skills');
    }
  });
});

describe('agent memory', () => {
  const noter: Record<string, AgentDefinitionInput> = {
    noter: {
      description: 'Keeps notes.',
      prompt: 'You keep notes.',
      tools: 'Read, Grep',
      memory: 'project',
    },
  };
  const memoryFile = () => path.join(projectDir(), '.warren/agent-memory/noter/MEMORY.md');

  it('a read-only agent writes its MEMORY.md without asking, and nothing else', async () => {
    const context = await project({});
    const { events, model } = await run(
      [
        { match: { prompt: 'MAIN' }, toolCalls: [agentCall('noter', 'CHILD-noter')] },
        {
          match: { prompt: 'CHILD-noter' },
          toolCalls: [
            { name: 'Write', input: { file_path: memoryFile(), content: '- uses pnpm\n' } },
            { name: 'Write', input: { file_path: 'src/hack.ts', content: 'x' } },
          ],
        },
        { match: { agent: 'noter' }, text: 'noted' },
        { text: 'all done' },
      ],
      {
        projectContext: context,
        agents: noter,
        permissions: createPermissionPolicy({ mode: 'default' }),
      },
    );
    expect(await readFile(memoryFile(), 'utf8')).toBe('- uses pnpm\n');
    expect(existsSync(path.join(projectDir(), 'src/hack.ts'))).toBe(false);
    const ends = ofType(events, 'tool_end').filter((event) => event.toolName === 'Write');
    expect(ends.map((event) => event.isError)).toEqual([false, true]);
    expect(toolsOf(model, 'CHILD-noter').sort()).toEqual(['Edit', 'Grep', 'Read', 'Write']);
    expect(systemOf(model, 'CHILD-noter')).toContain('MEMORY.md is empty or does not exist yet.');
  });

  it("the next session's agent starts with MEMORY.md in its prompt", async () => {
    const context = await project({
      '.warren/agent-memory/noter/MEMORY.md': '- the API lives in src/api MARK-MEMORY\n',
    });
    const { model } = await run(
      [
        { match: { prompt: 'MAIN' }, toolCalls: [agentCall('noter', 'CHILD-noter')] },
        { match: { prompt: 'CHILD-noter' }, text: 'done' },
        { text: 'all done' },
      ],
      { projectContext: context, agents: noter },
    );
    const system = systemOf(model, 'CHILD-noter');
    expect(system).toContain(path.join(projectDir(), '.warren/agent-memory/noter'));
    expect(system).toContain('- the API lives in src/api MARK-MEMORY');
    expect(systemOf(model, 'MAIN')).not.toContain('MARK-MEMORY');
  });

  it('user memory lives under $WARREN_HOME, local memory beside project memory', async () => {
    const context = await project({});
    const places = await Promise.all(
      (['user', 'local'] as const).map(async (memory) => {
        const setup = await context.agentContext(
          { name: 'n', description: 'd', prompt: 'p', memory, extra: {}, source: { kind: 'sdk' } },
          projectDir(),
          { skillTool: false },
        );
        return setup.memory?.dir;
      }),
    );
    expect(places).toEqual([
      path.join(warrenHome(), 'agent-memory', 'n'),
      path.join(projectDir(), '.warren', 'agent-memory-local', 'n'),
    ]);
  });

  it('is off, with a warning, when the memory folder is a symlink to elsewhere', async () => {
    const context = await project({});
    const { symlink } = await import('node:fs/promises');
    await mkdir(path.join(projectDir(), '.warren/agent-memory'), { recursive: true });
    await symlink(sandbox(), path.join(projectDir(), '.warren/agent-memory/noter'));
    const { events, model } = await run(
      [
        { match: { prompt: 'MAIN' }, toolCalls: [agentCall('noter', 'CHILD-noter')] },
        { match: { prompt: 'CHILD-noter' }, text: 'done' },
        { text: 'all done' },
      ],
      { projectContext: context, agents: noter },
    );
    const warnings: AgentEventOf<'warning'>[] = ofType(events, 'warning');
    expect(warnings.map((event) => event.message)).toEqual([
      expect.stringContaining('leads elsewhere through a symlink'),
    ]);
    expect(toolsOf(model, 'CHILD-noter').sort()).toEqual(['Grep', 'Read']);
  });
});

describe('a forked child (forkContext)', () => {
  it("keeps its parent's system prompt: its memory and preloaded skills come in its first message, sections its parent has do not", async () => {
    const context = await project({
      'AGENTS.md': INSTRUCTIONS,
      '.warren/skills/release-notes/SKILL.md': SKILL,
      '.warren/agent-memory/forker/MEMORY.md': '- MARK-MEMORY\n',
    });
    const main = await context.agentContext(undefined, projectDir(), { skillTool: true });
    const systemPrompt = withEnvironment('MAIN SYSTEM', {
      cwd: projectDir(),
      sections: main.sections.map((section) => section.text),
    });
    const { model } = await run(
      [
        {
          match: { prompt: 'MAIN' },
          toolCalls: [
            {
              name: 'Agent',
              input: {
                description: 'f',
                prompt: 'CHILD-forker',
                subagent_type: 'forker',
                forkContext: true,
              },
            },
          ],
        },
        { match: { prompt: 'CHILD-forker' }, text: 'done' },
        { text: 'all done' },
      ],
      {
        projectContext: context,
        systemPrompt,
        agents: {
          forker: {
            description: 'Forks.',
            prompt: 'You fork. MARK-DEFINITION',
            memory: 'project',
            skills: ['release-notes'],
          },
        },
      },
    );
    expect(systemOf(model, 'CHILD-forker')).toBe(systemPrompt);
    const first = lastUserOf(model, 'CHILD-forker');
    expect(first).toContain('Your instructions:\nYou fork. MARK-DEFINITION');
    expect(first).toContain('- MARK-MEMORY');
    expect(first).toContain('MARK-SKILL-BODY');
    expect(first.indexOf('MARK-MEMORY')).toBeLessThan(first.indexOf('Your task:\nCHILD-forker'));
    // The parent's prompt holds the instructions and the skills list: not said twice.
    expect(first).not.toContain('MARK-INSTRUCTIONS');
    expect(first).not.toContain('# Skills');
  });
});
