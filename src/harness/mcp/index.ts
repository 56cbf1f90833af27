/** MCP: the compiler as a Model Context Protocol server. */

export { rootsOf, serverFlags, underPermission } from './permission.js';
export { mcpServer } from './server.js';
