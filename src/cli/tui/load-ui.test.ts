// React must load once and in its production build: nothing the command imports before
// load-ui.ts may import React or Ink (a development React beside a production reconciler draws
// nothing), and `warren -p` never loads them at all.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = fileURLToPath(new URL('../../', import.meta.url));

/** Packages a module imports at run time, and the modules it reaches, through static imports. */
function reachedPackages(entry: string): Map<string, string> {
  const packages = new Map<string, string>();
  const seen = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    const text = readFileSync(file, 'utf8');
    // Static value imports only: `import type` is erased, `await import()` loads later.
    for (const match of text.matchAll(/^import(?!\s+type\b)[^;'"]*?from\s*['"]([^'"]+)['"]/gm)) {
      const target = match[1]!;
      if (!target.startsWith('.')) {
        packages.set(target, path.relative(SRC, file));
        continue;
      }
      const source = path.resolve(path.dirname(file), target).replace(/\.js$/, '.ts');
      visit(existsSync(source) ? source : `${source}x`);
    }
  };
  visit(path.join(SRC, entry));
  return packages;
}

describe('loading the UI', () => {
  it('imports neither React nor Ink before load-ui.ts', () => {
    const packages = reachedPackages('cli/tui/interactive-command.ts');
    expect([...packages.keys()].filter((name) => /^(react|ink)(\/|$)/.test(name))).toEqual([]);
  });

  it('keeps React and Ink out of print mode', () => {
    const packages = reachedPackages('cli/print/print-mode.ts');
    expect([...packages.keys()].filter((name) => /^(react|ink)(\/|$)/.test(name))).toEqual([]);
  });

  it('puts NODE_ENV back after loading', async () => {
    const before = process.env.NODE_ENV;
    delete process.env.NODE_ENV;
    try {
      const { loadUi } = await import('./load-ui.js');
      await loadUi();
      expect(process.env.NODE_ENV).toBeUndefined();
    } finally {
      if (before !== undefined) process.env.NODE_ENV = before;
    }
  });
});
