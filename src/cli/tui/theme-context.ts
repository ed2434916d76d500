// The theme as components read it: a React context, set once where the UI is mounted.
import { createContext, useContext } from 'react';
import { COLOURS, type Theme } from './theme.js';

export const ThemeContext = createContext<Theme>(COLOURS);

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
