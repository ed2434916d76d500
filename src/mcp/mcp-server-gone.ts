// The error of a call to an MCP server that is or went away. Its own module so that holding MCP
// tools (and checking `isMcpTool`) never loads the MCP SDK: only a started server does.

/** A server that went away during a call; the model reads `message` as the call's result. */
export class McpServerGone extends Error {}
