/** MCP: the compiler as a Model Context Protocol server. */
export { mcpServer } from './server.js';
