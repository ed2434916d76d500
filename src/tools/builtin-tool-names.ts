// The built-in tools' names, in builtinTools()'s order: what an agent definition may grant is
// checked against them without loading the tools themselves (`import 'warren'` stays light).
export const BUILTIN_TOOL_NAMES = [
  'Read',
  'Write',
  'Edit',
  'Glob',
  'Grep',
  'Bash',
  'TodoWrite',
  'WebFetch',
] as const;
