// Finds the skills of a session: folders holding a SKILL.md (frontmatter `name` and
// `description`, the body the instructions) in the project's `.warren/skills/` and
// `.claude/skills/` and in `$WARREN_HOME/skills/`. Skills come from strangers' repositories too:
// names are checked like agent names, sizes are capped, links do not lead out.
import type { Dirent } from 'node:fs';
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { AGENT_NAME_RULE, checkAgentName } from '../../definitions/agent-name.js';
import { splitFrontmatter } from '../../definitions/frontmatter.js';
import { MAX_TEXT_BYTES } from '../../definitions/text-limits.js';
import { isInside } from '../../tools/allowed-path.js';
import { readConfinedText } from '../confined-text-file.js';

/** Project folders of skills, in the order they win a name both use. */
const PROJECT_SKILL_DIRS = ['.warren/skills', '.claude/skills'] as const;

/** A description longer than this is cut: it goes into every agent's prompt. */
const MAX_SKILL_DESCRIPTION = 1024;

/** Skills in one catalog; more is a mistake or an attack on the prompt's size. */
const MAX_SKILLS = 100;

export interface Skill {
  name: string;
  description: string;
  /** The instructions: SKILL.md's body. */
  body: string;
  /** The skill's folder (real location): its other files are there. */
  dir: string;
  /** How messages name SKILL.md: relative to the project, or `~/…`. */
  shown: string;
  /** `false` for `disable-model-invocation: true`: left out of the list, still preloadable. */
  listed: boolean;
}

export interface SkillCatalog {
  /** By name, in the order found. */
  skills: ReadonlyMap<string, Skill>;
  /** `file:line: problem`, for people. */
  warnings: string[];
}

export interface LoadSkillCatalogOptions {
  projectDir: string;
  warrenHome: string;
  homeDir: string;
}

interface SkillRoot {
  dir: string;
  /** What the skill folders' real locations must stay inside. */
  confinedTo: string;
}

export async function loadSkillCatalog(options: LoadSkillCatalogOptions): Promise<SkillCatalog> {
  const roots: SkillRoot[] = [
    ...PROJECT_SKILL_DIRS.map((dir) => ({
      dir: path.join(options.projectDir, dir),
      confinedTo: options.projectDir,
    })),
    {
      dir: path.join(options.warrenHome, 'skills'),
      confinedTo: isInside(options.warrenHome, options.homeDir)
        ? options.homeDir
        : options.warrenHome,
    },
  ];
  const shown = (file: string) => showPath(file, options);
  const skills = new Map<string, Skill>();
  const warnings: string[] = [];
  for (const root of roots) {
    for (const folder of await skillFolders(root.dir)) {
      const file = path.join(root.dir, folder, 'SKILL.md');
      const read = await readSkill(file, folder, root, shown(file));
      warnings.push(...read.warnings);
      if (read.skill === undefined) continue;
      const taken = skills.get(read.skill.name);
      if (taken !== undefined) {
        warnings.push(
          `${read.skill.shown}: the skill "${read.skill.name}" is also in ${taken.shown}, which wins; rename one of them`,
        );
        continue;
      }
      if (skills.size === MAX_SKILLS) {
        warnings.push(
          `${read.skill.shown}: left out: ${MAX_SKILLS} skills is the most warren lists`,
        );
        continue;
      }
      skills.set(read.skill.name, read.skill);
    }
  }
  return { skills, warnings };
}

/** The sub-folders of a skills folder, by name; none when it does not exist. */
async function skillFolders(dir: string): Promise<string[]> {
  let entries: Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries
    .filter(
      (entry) => (entry.isDirectory() || entry.isSymbolicLink()) && !entry.name.startsWith('.'),
    )
    .map((entry) => entry.name)
    .sort();
}

async function readSkill(
  file: string,
  folder: string,
  root: SkillRoot,
  shown: string,
): Promise<{ skill?: Skill; warnings: string[] }> {
  const read = await readConfinedText(file, root.confinedTo, MAX_TEXT_BYTES);
  if (!read.ok) return { warnings: read.missing ? [] : [`${shown}: ${read.problem}`] };
  const warnings: string[] = [];
  if (read.cutFrom !== undefined) {
    warnings.push(
      `${shown}: ${read.cutFrom.toLocaleString('en-US')} bytes; only its first 64 KiB are used`,
    );
  }
  const split = splitFrontmatter(read.text);
  if (!split.ok) {
    const { problem, fix, line } = split.problem;
    return {
      warnings: [...warnings, `${shown}:${line}: ${problem}: ${fix}; the skill is left out`],
    };
  }
  // YAML is loaded with the first skill file: a project without skills never loads it.
  const { readFrontmatterFields } = await import('../../definitions/frontmatter-fields.js');
  const { fields, lines, error } = readFrontmatterFields(
    split.parts.frontmatter,
    split.parts.frontmatterLine,
  );
  const at = (key: string) => `${shown}:${lines[key] ?? split.parts.frontmatterLine - 1}`;
  if (error) return { warnings: [...warnings, `${shown}:${error.line}: ${error.message}`] };

  const written = typeof fields.name === 'string' ? fields.name : folder;
  const name = checkAgentName(written);
  if (name.problem !== undefined) {
    return {
      warnings: [
        ...warnings,
        `${at('name')}: ${name.problem.replace('agent name', 'skill name')}; the skill is left out (write \`name: ${name.suggestion}\`; ${AGENT_NAME_RULE.replace('a name', 'a skill name')})`,
      ],
    };
  }
  const description = typeof fields.description === 'string' ? fields.description.trim() : '';
  if (description === '') {
    return {
      warnings: [
        ...warnings,
        `${at('description')}: no \`description\`, so no agent would know when to use it; the skill is left out (add \`description: <what it is for and when to use it>\`)`,
      ],
    };
  }
  if (description.length > MAX_SKILL_DESCRIPTION) {
    warnings.push(
      `${at('description')}: \`description\` is ${description.length} characters; only its first ${MAX_SKILL_DESCRIPTION} are listed`,
    );
  }
  return {
    skill: {
      name: name.name,
      description: description.slice(0, MAX_SKILL_DESCRIPTION),
      body: split.parts.body,
      dir: path.dirname(read.path),
      shown,
      listed: fields['disable-model-invocation'] !== true,
    },
    warnings,
  };
}

function showPath(file: string, options: LoadSkillCatalogOptions): string {
  if (isInside(file, options.projectDir)) return path.relative(options.projectDir, file);
  if (isInside(file, options.homeDir)) return path.join('~', path.relative(options.homeDir, file));
  return file;
}
