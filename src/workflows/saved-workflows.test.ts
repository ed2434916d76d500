import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../testing/temp-dir.js';
import { findWorkflow, listWorkflows } from './saved-workflows.js';
import { readMeta } from './workflow-meta.js';

const script = (name: string, extra = '') =>
  `// a { brace in a comment\nexport const meta = { name: '${name}', description: 'does ${name} }' ${extra} };\nexport const result = 1;\n`;

async function project(files: Record<string, string>): Promise<string> {
  const dir = await makeTempDir('warren-saved-');
  for (const [file, text] of Object.entries(files)) {
    await mkdir(join(dir, file, '..'), { recursive: true });
    await writeFile(join(dir, file), text);
  }
  return dir;
}

describe('saved workflows', () => {
  it("finds a project's workflow by name, .warren before .claude, then the bundled ones", async () => {
    const dir = await project({
      '.warren/workflows/review.js': script('review'),
      '.claude/workflows/review.js': script('review-claude'),
      '.claude/workflows/triage.js': script('triage'),
    });
    expect(await findWorkflow(dir, 'review')).toMatchObject({ name: 'review', origin: 'project' });
    expect(await findWorkflow(dir, 'triage')).toMatchObject({ description: 'does triage }' });
    expect(await findWorkflow(dir, 'csv')).toMatchObject({ origin: 'bundled' });
    const { workflows } = await listWorkflows(dir);
    expect(workflows.map((workflow) => workflow.name)).toEqual([
      'review',
      'review-claude',
      'triage',
      'csv',
    ]);
  });

  it('refuses a name that is a path, and lists a broken file as a warning', async () => {
    const dir = await project({
      '.warren/workflows/broken.js': 'export const meta = { name: 1 };',
    });
    await expect(findWorkflow(dir, '../../etc/passwd')).rejects.toThrow('is not a workflow name');
    const { warnings } = await listWorkflows(dir);
    expect(warnings).toEqual([expect.stringMatching(/broken\.js:1: meta\.name must be/)]);
  });
});

describe("a workflow's meta", () => {
  it('is read without running the script', async () => {
    await expect(
      readMeta(`export const meta = { name: 'x', description: 'y' };\nwhile (true) {}`, 'f.js'),
    ).resolves.toEqual({
      name: 'x',
      description: 'y',
    });
  });

  it.each([
    ['no meta', 'export const result = 1;', 'f.js: has no `export const meta'],
    [
      'an unclosed object',
      'export const meta = { name: "x"',
      'f.js:1: meta is not a closed object literal',
    ],
    [
      'code in it',
      "export const meta = { name: (() => { while(true){} })(), description: 'y' };",
      'f.js:1: meta cannot be read',
    ],
    [
      'a missing description',
      "\nexport const meta = { name: 'x' };",
      'f.js:2: meta.description must be a non-empty string',
    ],
  ])('refuses %s', async (_what, source, message) => {
    await expect(readMeta(source, 'f.js')).rejects.toThrow(message);
  });
});
