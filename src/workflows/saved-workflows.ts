// Saved workflows: `<name>.js` in a project's `.warren/workflows/` and `.claude/workflows/`, and
// the bundled ones. A project's workflow is project-supplied code: it only ever runs in the
// sandbox, and every agent it starts goes through the normal permission gates.

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError } from '../core/config-error.js';
import { messageOf } from '../core/error-message.js';
import { CSV_WORKFLOW } from './bundled/csv-workflow.js';
import { readMeta, type WorkflowMeta } from './workflow-meta.js';

export interface SavedWorkflow extends WorkflowMeta {
  /** Where it was found: a file, or `(bundled)`. */
  filename: string;
  source: string;
  origin: 'project' | 'bundled';
}

export const WORKFLOW_DIRS = ['.warren/workflows', '.claude/workflows'] as const;

const BUNDLED: Readonly<Record<string, string>> = { csv: CSV_WORKFLOW };

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** The workflow called `name`: the project's first (`.warren` before `.claude`), then bundled. */
export async function findWorkflow(cwd: string, name: string): Promise<SavedWorkflow> {
  if (!NAME.test(name)) {
    throw new ConfigError(
      `workflow "${name.slice(0, 80)}"`,
      'is not a workflow name',
      'use letters, digits, ".", "_" or "-"',
    );
  }
  for (const dir of WORKFLOW_DIRS) {
    const filename = join(cwd, dir, `${name}.js`);
    if (existsSync(filename)) return loaded(filename, readFileSync(filename, 'utf8'), 'project');
  }
  const bundled = BUNDLED[name];
  if (bundled !== undefined) return loaded(`(bundled)/${name}.js`, bundled, 'bundled');
  const known = (await listWorkflows(cwd)).workflows.map((workflow) => workflow.name).join(', ');
  throw new ConfigError(`workflow "${name}"`, 'not found', `saved workflows: ${known || 'none'}`);
}

/** Every saved workflow, the project's first; a file whose meta cannot be read is a warning. */
export async function listWorkflows(
  cwd: string,
): Promise<{ workflows: SavedWorkflow[]; warnings: string[] }> {
  const workflows: SavedWorkflow[] = [];
  const warnings: string[] = [];
  const seen = new Set<string>();
  for (const dir of WORKFLOW_DIRS) {
    const folder = join(cwd, dir);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)
      .filter((entry) => entry.endsWith('.js'))
      .sort()) {
      const filename = join(folder, file);
      try {
        const workflow = await loaded(filename, readFileSync(filename, 'utf8'), 'project');
        if (seen.has(workflow.name)) continue;
        seen.add(workflow.name);
        workflows.push(workflow);
      } catch (error) {
        warnings.push(messageOf(error));
      }
    }
  }
  for (const [name, source] of Object.entries(BUNDLED)) {
    if (!seen.has(name)) workflows.push(await loaded(`(bundled)/${name}.js`, source, 'bundled'));
  }
  return { workflows, warnings };
}

async function loaded(
  filename: string,
  source: string,
  origin: SavedWorkflow['origin'],
): Promise<SavedWorkflow> {
  return { ...(await readMeta(source, filename)), filename, source, origin };
}
