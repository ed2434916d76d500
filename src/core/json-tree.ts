// jsonc-parser's syntax tree, for errors that point at file:line:column in warren's JSON files
// (settings, MCP configs, price tables): loaded with the first file to parse, not by every run.
// Synchronous, as the readers that use it are.
import { createRequire } from 'node:module';

export type { Node as JsonNode, ParseError as JsonParseError } from 'jsonc-parser';

type JsoncParser = typeof import('jsonc-parser');
let parser: JsoncParser | undefined;

function jsonc(): JsoncParser {
  parser ??= createRequire(import.meta.url)('jsonc-parser') as JsoncParser;
  return parser;
}

export const parseTree: JsoncParser['parseTree'] = (...args) => jsonc().parseTree(...args);

export const findNodeAtLocation: JsoncParser['findNodeAtLocation'] = (...args) =>
  jsonc().findNodeAtLocation(...args);
