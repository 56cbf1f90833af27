/** MCP: the compiler as a Model Context Protocol server. */

export { rootsOf, serverFlags, underPermission } from './permission.js';
export { mcpServer } from './server.js';
export { TETHER_FD, tether } from './tether.js';
export { DEFAULT_MAX_MESSAGE, LineTransport } from './transport.js';
