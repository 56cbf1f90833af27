/** The server's tools, one a file, in the order a client lists them. */
import { checkTool } from './check-tool.js';
import { compileTool } from './compile-tool.js';
import { explainTool } from './explain-tool.js';
import { packTool } from './pack-tool.js';
import type { Tool } from './tool.js';
import { validateTool } from './validate-tool.js';

export { failed, type McpOptions } from './tool.js';

/** Every tool, in the order a client lists them. */
export const TOOLS: readonly Tool[] = [compileTool, explainTool, validateTool, checkTool, packTool];
