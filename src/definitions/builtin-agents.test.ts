import { describe, expect, it } from 'vitest';
import { agentDefinitionSchema } from './agent-definition.js';
import { builtinAgents } from './builtin-agents.js';

const byName = (name: string) => builtinAgents().find((agent) => agent.name === name)!;

describe('builtinAgents', () => {
  it('provides general-purpose, explore and plan, each a valid definition', () => {
    const agents = builtinAgents();
    expect(agents.map((agent) => agent.name)).toEqual(['general-purpose', 'explore', 'plan']);
    for (const agent of agents) expect(agentDefinitionSchema().parse(agent)).toEqual(agent);
  });

  it('gives general-purpose every tool of its parent', () => {
    expect(byName('general-purpose').tools).toBeUndefined();
    expect(byName('general-purpose').readOnly).toBeUndefined();
  });

  it('keeps explore and plan read-only: no Write, Edit or Agent, and Bash marked read-only', () => {
    for (const name of ['explore', 'plan']) {
      const agent = byName(name);
      expect(agent.tools).toEqual(['Read', 'Glob', 'Grep', 'Bash']);
      expect(agent.readOnly).toBe(true);
      expect(agent.prompt).toContain('read-only mode');
    }
  });

  it('has plan return a step-by-step plan that names the critical files', () => {
    expect(byName('plan').prompt).toContain('numbered steps');
    expect(byName('plan').prompt).toContain('Critical files for implementation');
  });

  it('tells the parent model when to use each one', () => {
    expect(byName('explore').description).toContain('"quick", "medium" or "very thorough"');
    expect(byName('plan').description).toContain('never edits files');
  });

  it('returns fresh copies, so changing one does not change the next load', () => {
    byName('explore').tools!.push('Write');
    expect(byName('explore').tools).not.toContain('Write');
  });
});
