// The docs keep their promises: every relative link and #anchor in README.md and docs/*.md
// resolves, every repository path they name exists, and the README's two examples run as
// written in a fresh project. Needs the build (`dist/`): `npm test` builds before vitest runs.
import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Paths in code spans that name files of the demo's scratch project, not of this repository. */
const NOT_IN_THIS_REPOSITORY = new Set(['src/price.js']);

function markdownFiles(): string[] {
  const docs = readdirSync(join(root, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`);
  return ['README.md', ...docs.sort()];
}

function read(file: string): string {
  return readFileSync(join(root, file), 'utf8');
}

/** A Markdown file's lines outside fenced code blocks, with their 1-based line numbers. */
function proseLines(file: string): { line: string; number: number }[] {
  const prose: { line: string; number: number }[] = [];
  let fence: string | undefined;
  read(file)
    .split('\n')
    .forEach((line, index) => {
      const marker = /^\s*(`{3,}|~{3,})/.exec(line)?.[1];
      if (fence === undefined && marker !== undefined) {
        fence = marker;
      } else if (fence !== undefined) {
        if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length) {
          fence = undefined;
        }
      } else {
        prose.push({ line, number: index + 1 });
      }
    });
  if (fence !== undefined)
    throw new Error(`${file}: a code block opened with ${fence} is never closed`);
  return prose;
}

const CODE_SPAN = /(`+)(.+?)\1/g;

/** GitHub's heading anchor: rendered text, lower case, punctuation dropped, spaces to hyphens. */
function slug(heading: string): string {
  const text = heading
    .split(CODE_SPAN)
    .map((part, index) => {
      // split() with two groups yields [prose, ticks, code, prose, ticks, code, …].
      if (index % 3 === 1) return '';
      if (index % 3 === 2) return part.trim();
      return part.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/<[^>]*>/g, '');
    })
    .join('');
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/** The anchors a Markdown file's headings get, numbered as GitHub numbers repeated ones. */
function anchorsOf(file: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const { line } of proseLines(file)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const base = slug(heading);
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count === 0 ? base : `${base}-${count}`);
  }
  return anchors;
}

interface Link {
  file: string;
  line: number;
  target: string;
}

function linksOf(file: string): Link[] {
  const links: Link[] = [];
  for (const { line, number } of proseLines(file)) {
    const prose = line.replace(CODE_SPAN, '');
    for (const match of prose.matchAll(/\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ file, line: number, target: match[1] ?? '' });
    }
  }
  return links;
}

/** What is wrong with a link, or undefined when it resolves. */
function brokenLink({ file, target }: Link): string | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined; // https:, mailto:: not ours to check
  const hash = target.indexOf('#');
  const path = hash === -1 ? target : target.slice(0, hash);
  const anchor = hash === -1 ? undefined : decodeURIComponent(target.slice(hash + 1));
  const resolved = path === '' ? file : relative(root, resolve(root, dirname(file), path));
  if (!existsSync(join(root, resolved))) {
    return `${resolved} does not exist`;
  }
  if (anchor === undefined) return undefined;
  if (!resolved.endsWith('.md') || statSync(join(root, resolved)).isDirectory()) {
    return `#${anchor} points into ${resolved}, which is not a Markdown file`;
  }
  const anchors = anchorsOf(resolved);
  if (anchors.has(anchor)) return undefined;
  return `${resolved} has no heading #${anchor} (it has: ${[...anchors].join(', ')})`;
}

describe('links in README.md and docs/', () => {
  it('finds the files and their links', () => {
    expect(markdownFiles()).toContain('docs/cli.md');
    const links = markdownFiles().flatMap(linksOf);
    expect(links.length).toBeGreaterThan(30);
    // The slug rules themselves, on headings whose anchors GitHub is known to give.
    expect(slug('`--agent <name>`: the main agent as a definition')).toBe(
      '--agent-name-the-main-agent-as-a-definition',
    );
    expect(slug('`.warren/settings.json`')).toBe('warrensettingsjson');
    expect(slug('Prompt caching (Anthropic)')).toBe('prompt-caching-anthropic');
    expect(slug('`delegate_to_<name>` tools')).toBe('delegate_to_name-tools');
  });

  it.each(markdownFiles())('every relative link and #anchor in %s resolves', (file) => {
    const broken = linksOf(file).flatMap((link) => {
      const problem = brokenLink(link);
      return problem === undefined ? [] : [`${file}:${link.line}: (${link.target}) ${problem}`];
    });
    expect(broken.join('\n')).toBe('');
  });

  it.each(markdownFiles())('every repository path named in %s exists', (file) => {
    const missing: string[] = [];
    for (const { line, number } of proseLines(file)) {
      for (const [, , code] of line.matchAll(CODE_SPAN)) {
        const path = code?.trim() ?? '';
        if (!/^(src|bin|bench|demo|test|docs)\/[\w./-]*$/.test(path)) continue;
        if (NOT_IN_THIS_REPOSITORY.has(path) || existsSync(join(root, path))) continue;
        missing.push(`${file}:${number}: ${path}`);
      }
    }
    expect(missing.join('\n')).toBe('');
  });
});

/** The fenced block after `<!-- example: name -->` in the README, exactly as a reader copies it. */
function readmeExample(name: string): string {
  const lines = read('README.md').split('\n');
  const marker = lines.indexOf(`<!-- example: ${name} -->`);
  if (marker === -1) throw new Error(`README.md has no <!-- example: ${name} --> marker`);
  const open = lines.findIndex((line, index) => index > marker && line.startsWith('```'));
  const close = lines.findIndex((line, index) => index > open && line.startsWith('```'));
  if (open === -1 || close === -1 || lines.slice(marker + 1, open).some((line) => line !== '')) {
    throw new Error(`README.md: no fenced block right after <!-- example: ${name} -->`);
  }
  return `${lines.slice(open + 1, close).join('\n')}\n`;
}

describe("the README's examples, run verbatim in a fresh project", () => {
  let scratch: string;
  let project: string;
  let env: NodeJS.ProcessEnv;

  beforeAll(() => {
    expect(existsSync(join(root, 'dist', 'index.js')), 'build first: npm run build').toBe(true);
    scratch = mkdtempSync(join(tmpdir(), 'warren-readme-'));
    project = join(scratch, 'my-agent');
    // What `npm init -y && npm pkg set type=module` leaves that matters here.
    mkdirSync(join(project, 'node_modules', '.bin'), { recursive: true });
    writeFileSync(
      join(project, 'package.json'),
      `${JSON.stringify({ name: 'my-agent', version: '1.0.0', type: 'module' }, null, 2)}\n`,
    );
    // This stands in for `npm install /path/to/warren zod`, offline: npm links a folder
    // dependency into node_modules and its bin into node_modules/.bin; zod is the repo's copy.
    symlinkSync(root, join(project, 'node_modules', 'warren'), 'dir');
    symlinkSync(join(root, 'node_modules', 'zod'), join(project, 'node_modules', 'zod'), 'dir');
    symlinkSync('../warren/bin/warren.js', join(project, 'node_modules', '.bin', 'warren'));
    const home = join(scratch, 'home');
    mkdirSync(home);
    // A clean environment: the pinned Node 24 first on PATH (as inside the repository), a
    // home of its own (no ~/.npmrc, ~/.warren of this machine), and npm kept off the network.
    env = {
      PATH: [join(root, 'node_modules', '.bin'), process.env.PATH].join(delimiter),
      HOME: home,
      TMPDIR: tmpdir(),
      LANG: 'C.UTF-8',
      npm_config_offline: 'true',
      npm_config_update_notifier: 'false',
      npm_config_audit: 'false',
      npm_config_fund: 'false',
      npm_config_cache: join(home, '.npm'),
    };
  });

  afterAll(() => {
    if (scratch) rmSync(scratch, { recursive: true, force: true });
  });

  it('the CLI example prints what the README shows', () => {
    const script = join(scratch, 'cli-example.sh');
    writeFileSync(script, readmeExample('cli'));
    // stdout and stderr into one file, in the order they were written, as a terminal shows them.
    const outputFile = join(scratch, 'cli-output.txt');
    const output = openSync(outputFile, 'w');
    let status: number | null;
    try {
      ({ status } = spawnSync('bash', ['-e', script], {
        cwd: project,
        env,
        stdio: ['ignore', output, output],
        timeout: 15_000,
      }));
    } finally {
      closeSync(output);
    }
    // Session ids are made per run: the README shows one of the same shape.
    const sessionId = (text: string) =>
      text.replace(/^session \d{4}-\d\d-\d\dT[\w.-]+$/m, 'session <id>');
    const printed = readFileSync(outputFile, 'utf8');
    expect(sessionId(printed)).toBe(sessionId(readmeExample('cli-output')));
    expect(status).toBe(0);
    // The transcript went where the README says: under ~/.warren/sessions.
    const sessions = readdirSync(join(env.HOME ?? '', '.warren', 'sessions'));
    expect(sessions.filter((name) => name.endsWith('.jsonl'))).toHaveLength(1);
  });

  it('the library example prints what the README shows', () => {
    const code = readmeExample('library');
    const file = /^\/\/ (\S+\.js) /.exec(code)?.[1];
    expect(file, 'the example names its file on its first line').toBeDefined();
    writeFileSync(join(project, file ?? ''), code);
    const { status, stdout, stderr } = spawnSync('node', [file ?? ''], {
      cwd: project,
      env,
      encoding: 'utf8',
      timeout: 15_000,
    });
    expect(stderr).toBe('');
    expect(stdout).toBe(readmeExample('library-output'));
    expect(status).toBe(0);
  });
});
