/** MCP: the compiler as a Model Context Protocol server. */

export { relaunched, rootsOf, serverFlags, TIED, underPermission } from './permission.js';
export { mcpServer } from './server.js';
export { TETHER_FD, tether } from './tether.js';
export { DEFAULT_MAX_MESSAGE, LineTransport } from './transport.js';
