// How the project's trust is shown: one stderr line per item a run leaves out (what it is, what
// it would have done, why it is left out, the fix), and the full listing `warren trust` and the
// terminal UI show before asking (every field as the repository writes it; nothing hidden).
import { terminalSafe } from '../terminal-text.js';
import type { ItemTrust, ProjectTrust } from './project-trust.js';
import { itemKey, type TrustItem } from './trust-item.js';

const FIX =
  'trust the project with `warren trust` (it lists everything first), or run with --trust-project';

/** One line per item not applied (none when the project is trusted), each ending in a newline. */
export function untrustedLines(trust: ProjectTrust): string[] {
  if (trust.trusted) return [];
  return trust.items.map(({ item, trust: standing }) => {
    const line = `warren: ${heading(standing)}: ${itemKey(item)}${why(standing)} would ${item.action}; not applied: ${FIX}`;
    return `${terminalSafe(line)}\n`;
  });
}

function heading(standing: ItemTrust): string {
  return standing.state === 'untrusted' ? 'untrusted project' : 'project trust withdrawn';
}

function why(standing: ItemTrust): string {
  switch (standing.state) {
    case 'changed':
      return ` changed since it was trusted (${standing.parts.join(', ')}) and`;
    case 'new':
      return ' is new since the project was trusted and';
    case 'withdrawn':
      return ' (unchanged, but other items of the project changed)';
    default:
      return '';
  }
}

/** Every item in full, numbered, with its standing: what a person reads before trusting. */
export function trustListing(trust: ProjectTrust): string {
  if (trust.items.length === 0) {
    return `${terminalSafe(trust.projectDir)} has nothing that needs trust (no hooks, MCP servers or widening permission settings).\n`;
  }
  const lines = [
    `${terminalSafe(trust.projectDir)} would have warren run or allow these ${trust.items.length} item(s):`,
  ];
  trust.items.forEach(({ item, trust: standing }, index) => {
    lines.push(
      terminalSafe(`${index + 1}. ${itemKey(item)}: ${item.action}  [${standingLabel(standing)}]`),
      ...itemDetails(item).map((detail) => `     ${detail}`),
    );
  });
  return `${lines.join('\n')}\n`;
}

function itemDetails(item: TrustItem): string[] {
  const details: string[] = [];
  for (const [name, value] of Object.entries(item.fields)) {
    const [first, ...rest] = value.split(/\r\n|\r|\n/);
    details.push(
      terminalSafe(`${name}: ${first}`),
      ...rest.map((line) => `  ${terminalSafe(line)}`),
    );
  }
  for (const [path, hash] of Object.entries(item.files)) {
    details.push(terminalSafe(`runs file ${path} (sha256 ${hash.slice(0, 16)}…)`));
  }
  return details;
}

function standingLabel(standing: ItemTrust): string {
  switch (standing.state) {
    case 'trusted':
      return 'trusted';
    case 'untrusted':
      return 'not trusted';
    case 'new':
      return 'new since trusted';
    case 'changed':
      return `changed: ${standing.parts.join(', ')}`;
    case 'withdrawn':
      return 'unchanged; trust withdrawn by other changes';
  }
}
