// The Skill tool: an agent loads a skill's instructions when a task calls for it, and reads the
// files beside its SKILL.md. It only reads; a script beside a skill runs only through a tool
// the agent holds anyway (Bash).
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { lazy } from '../../core/lazy.js';
import { defineTool, type PlainTool, toolError } from '../../core/tool.js';
import { MAX_TEXT_BYTES } from '../../definitions/text-limits.js';
import { TOOL_JSON_SCHEMAS } from '../../tools/tool-json-schemas.js';
import { readConfinedText } from '../confined-text-file.js';
import type { Skill, SkillCatalog } from './skill-catalog.js';

/** Files listed beside a skill's SKILL.md; the rest are counted. */
const MAX_LISTED_FILES = 50;
/** Folders deep below the skill's folder that the listing looks into. */
const MAX_LISTING_DEPTH = 3;

export const skillInputSchema = lazy(() =>
  z.object({
    name: z.string().min(1).describe('The skill to load, as listed under "Skills".'),
    file: z
      .string()
      .min(1)
      .optional()
      .describe(
        "A file beside the skill's SKILL.md to read instead, relative to the skill's folder.",
      ),
  }),
);

export function createSkillTool(catalog: SkillCatalog): PlainTool {
  return defineTool({
    name: 'Skill',
    description: [
      'Loads a skill: instructions for a particular kind of task, listed under "Skills" in your instructions.',
      '',
      '- Before a task that a listed skill covers, call Skill with its name and follow what it returns.',
      "- The result lists the files beside the skill's SKILL.md; pass `file` (relative to the skill's folder) to read one.",
      '- Skills are only read. A script beside a skill runs only if you run it with a tool you have.',
    ].join('\n'),
    get inputSchema() {
      return skillInputSchema();
    },
    jsonSchema: TOOL_JSON_SCHEMAS.Skill,
    isReadOnly: true,
    isConcurrencySafe: true,
    permissionSubject: (input) => input.name,
    async call(input) {
      const skill = findSkill(catalog, input.name);
      if (skill === undefined) {
        const names = [...catalog.skills.keys()].join(', ') || 'none';
        return toolError(`There is no skill "${input.name}". Skills: ${names}.`);
      }
      if (input.file !== undefined) return readSkillFile(skill, input.file);
      return `<skill name="${skill.name}" folder="${skill.dir}">\n${skill.body.trim()}\n</skill>${await filesBeside(skill)}`;
    },
  });
}

/** Names are stored in their one spelling (lower case, `-` for spaces), as agent names are. */
function findSkill(catalog: SkillCatalog, name: string): Skill | undefined {
  return catalog.skills.get(name.trim().toLowerCase().replaceAll(' ', '-'));
}

async function readSkillFile(skill: Skill, file: string) {
  const target = path.resolve(skill.dir, file);
  const relative = path.relative(skill.dir, target);
  if (relative === '' || relative.startsWith('..') || path.isAbsolute(relative)) {
    return toolError(
      `${file} is not a file in the skill's folder ${skill.dir}; give a path relative to it.`,
    );
  }
  const read = await readConfinedText(target, skill.dir, MAX_TEXT_BYTES);
  if (!read.ok) {
    return toolError(
      read.missing
        ? `The skill "${skill.name}" has no file ${relative}.`
        : `${relative} ${read.problem}.`,
    );
  }
  const cut = read.cutFrom === undefined ? '' : '\n\n[Cut: only its first 64 KiB are shown.]';
  return `${read.text}${cut}`;
}

/** The skill's other files, for the model to read with `file` (hidden ones left out). */
async function filesBeside(skill: Skill): Promise<string> {
  const files: string[] = [];
  let more = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    let entries: Dirent[];
    try {
      entries = await readdir(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries.sort((a, b) => a.name.localeCompare(b.name))) {
      if (entry.name.startsWith('.')) continue;
      const full = path.join(dir, entry.name);
      const relative = path.relative(skill.dir, full);
      if (entry.isDirectory()) {
        if (depth < MAX_LISTING_DEPTH) await walk(full, depth + 1);
      } else if (relative !== 'SKILL.md') {
        if (files.length < MAX_LISTED_FILES) files.push(relative);
        else more += 1;
      }
    }
  };
  await walk(skill.dir, 1);
  if (files.length === 0) return '';
  const rest = more > 0 ? `\n(and ${more} more)` : '';
  return `\n\nFiles beside it (read one with Skill {"name": "${skill.name}", "file": "<path>"}):\n${files.join('\n')}${rest}`;
}
