import { mkdir, symlink, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../testing/temp-dir.js';
import { outputText, testToolContext } from '../../testing/tool-context.js';
import { loadSkillCatalog } from './skill-catalog.js';
import { createSkillTool } from './skill-tool.js';

const sandbox = useTempDir('warren-skills-');
const projectDir = () => path.join(sandbox(), 'home', 'project');
const warrenHome = () => path.join(sandbox(), 'home', '.warren');

async function skills(files: Record<string, string>) {
  for (const [name, text] of Object.entries(files)) {
    const file = path.join(sandbox(), 'home', name);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
  }
  await mkdir(projectDir(), { recursive: true });
  return loadSkillCatalog({
    projectDir: projectDir(),
    warrenHome: warrenHome(),
    homeDir: path.join(sandbox(), 'home'),
  });
}

const skill = (name: string, description = `About ${name}.`) =>
  `---\nname: ${name}\ndescription: ${description}\n---\nDo ${name}.`;

describe('the skill catalog', () => {
  it('finds project skills before user skills; the first of a name wins, with a warning', async () => {
    const catalog = await skills({
      'project/.warren/skills/a/SKILL.md': skill('a'),
      'project/.claude/skills/b/SKILL.md': skill('b'),
      'project/.claude/skills/a-again/SKILL.md': skill('a', 'The other a.'),
      '.warren/skills/c/SKILL.md': skill('c'),
      'project/.warren/skills/not-a-skill.md': 'a file, not a folder',
    });
    expect([...catalog.skills.keys()]).toEqual(['a', 'b', 'c']);
    expect(catalog.skills.get('a')?.description).toBe('About a.');
    expect(catalog.warnings).toEqual([
      '.claude/skills/a-again/SKILL.md: the skill "a" is also in .warren/skills/a/SKILL.md, which wins; rename one of them',
    ]);
  });

  it('names a skill after its folder, and checks names like agent names', async () => {
    const catalog = await skills({
      'project/.warren/skills/from-folder/SKILL.md': '---\ndescription: d\n---\nx',
      'project/.warren/skills/bad/SKILL.md': '---\nname: ../../x\ndescription: d\n---\nx',
    });
    expect([...catalog.skills.keys()]).toEqual(['from-folder']);
    expect(catalog.warnings).toEqual([
      expect.stringMatching(
        /^\.warren\/skills\/bad\/SKILL\.md:2: "\.\.\/\.\.\/x" is not a valid skill name \(it holds "\/"\); the skill is left out/,
      ),
    ]);
  });

  it('leaves out a skill without a description, and one whose SKILL.md leads outside', async () => {
    await mkdir(path.join(sandbox(), 'outside'), { recursive: true });
    await writeFile(path.join(sandbox(), 'outside', 'SKILL.md'), skill('leak'));
    await mkdir(path.join(projectDir(), '.warren/skills/linked'), { recursive: true });
    await symlink(
      path.join(sandbox(), 'outside', 'SKILL.md'),
      path.join(projectDir(), '.warren/skills/linked/SKILL.md'),
    );
    const catalog = await skills({
      'project/.warren/skills/nodesc/SKILL.md': '---\nname: n\n---\nx',
    });
    expect(catalog.skills.size).toBe(0);
    expect(catalog.warnings).toEqual([
      expect.stringMatching(/^\.warren\/skills\/linked\/SKILL\.md: leads outside .*; not read$/),
      expect.stringMatching(/^\.warren\/skills\/nodesc\/SKILL\.md:1: no `description`/),
    ]);
  });
});

describe('the Skill tool', () => {
  it('returns the instructions and the files beside them, and reads one of those', async () => {
    const catalog = await skills({
      'project/.warren/skills/deploy/SKILL.md': skill('deploy'),
      'project/.warren/skills/deploy/scripts/run.sh': 'echo deploy',
      'project/.warren/skills/deploy/.secret': 'hidden',
    });
    const tool = createSkillTool(catalog);
    const ctx = testToolContext({ cwd: projectDir() });
    const loaded = outputText(await tool.call({ name: 'Deploy' }, ctx));
    expect(loaded).toContain('<skill name="deploy" folder="');
    expect(loaded).toContain('Do deploy.\n</skill>');
    expect(loaded).toContain('scripts/run.sh');
    expect(loaded).not.toContain('.secret');
    expect(outputText(await tool.call({ name: 'deploy', file: 'scripts/run.sh' }, ctx))).toBe(
      'echo deploy',
    );
  });

  it('refuses unknown skills and files outside the skill folder', async () => {
    const catalog = await skills({ 'project/.warren/skills/deploy/SKILL.md': skill('deploy') });
    const tool = createSkillTool(catalog);
    const ctx = testToolContext({ cwd: projectDir() });
    expect(await tool.call({ name: 'nope' }, ctx)).toEqual({
      output: 'There is no skill "nope". Skills: deploy.',
      isError: true,
    });
    const outside = await tool.call({ name: 'deploy', file: '../../../../etc/passwd' }, ctx);
    expect(outside).toMatchObject({ isError: true });
    expect(outputText(outside)).toContain("is not a file in the skill's folder");
  });
});
