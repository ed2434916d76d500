// The built-in tool set every agent starts from. Tools take their environment from the call's
// ToolContext, so each is one constant object shared by all agents.

import type { Tool } from '../core/tool.js';
import { bashTool } from './bash.js';
import { editTool } from './edit.js';
import { globTool } from './glob.js';
import { grepTool } from './grep.js';
import { readTool } from './read.js';
import { todoWriteTool } from './todo-write.js';
import { webFetchTool } from './web-fetch.js';
import { writeTool } from './write.js';

/**
 * Read, Write, Edit, Glob, Grep, Bash, TodoWrite, WebFetch, in the order the model sees them.
 * The order never changes: the tool list opens every request, and a stable one is what lets
 * the provider's prompt cache serve it again.
 */
export function builtinTools(): Tool[] {
  return [readTool, writeTool, editTool, globTool, grepTool, bashTool, todoWriteTool, webFetchTool];
}
