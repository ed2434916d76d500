// `warren/tools`: the built-in tools, one by one and as the default set, with what they share
// (the file-state cache behind read-before-edit, the read-only command check, the todo list,
// the command sandbox Bash runs in).

export type {
  CommandLaunch,
  CommandRequest,
  CommandSandbox,
} from './core/command-sandbox.js';
export type { TodoItem, TodoStatus } from './core/todo-list.js';
export { createCommandSandbox, type SandboxOptions } from './sandbox/command-sandbox.js';
export { bashTool, readOnlyBashTool } from './tools/bash.js';
export { builtinTools } from './tools/builtin-tools.js';
export { editTool } from './tools/edit.js';
export { FileStateCache } from './tools/file-state.js';
export { globTool } from './tools/glob.js';
export { grepTool } from './tools/grep.js';
export { readTool } from './tools/read.js';
export { isReadOnlyCommand } from './tools/read-only-command.js';
export { todoWriteTool } from './tools/todo-write.js';
export { webFetchTool } from './tools/web-fetch.js';
export { writeTool } from './tools/write.js';
