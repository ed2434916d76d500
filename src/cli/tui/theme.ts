// The colours of the UI, none when NO_COLOR is set (symbols and bold carry the meaning then):
// Ink's colour library does not read NO_COLOR, so components take colours from here. No React:
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
