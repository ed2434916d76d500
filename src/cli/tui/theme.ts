// The colours of the UI, and none at all when NO_COLOR is set (https://no-color.org): then
// symbols (● ✓ ✗ ❯) and bold carry the meaning alone. Ink's colour library does not read
// NO_COLOR, so every component takes its colours from here (theme-context.ts). No React here:
// the command imports this before load-ui.ts loads React's production build.

export interface Theme {
  /** Headings, agent types, the prompt marker. */
  accent: string | undefined;
  success: string | undefined;
  error: string | undefined;
  warning: string | undefined;
  /** Inline and block code. */
  code: string | undefined;
}

export const COLOURS: Theme = {
  accent: 'cyan',
  success: 'green',
  error: 'red',
  warning: 'yellow',
  code: 'magenta',
};

const NONE: Theme = {
  accent: undefined,
  success: undefined,
  error: undefined,
  warning: undefined,
  code: undefined,
};

export function themeFor(env: NodeJS.ProcessEnv): Theme {
  return env.NO_COLOR ? NONE : COLOURS;
}
