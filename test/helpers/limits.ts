/**
 * The bounds a user is promised (docs/reliability.md, "Limits") and the MCP server's busy
 * bounds (which its busy message states), written here as numbers, not read from the code: a
 * test then fails when a bound moves without its page and its tests.
 */

/** The most characters of one text a strategy puts in a row, a compilation or a message. */
export const TEXT_CAP = 4096;
/** The most bytes of what strategies print that ctxbench's stderr shows per command. */
export const PRINTED_CAP = 256 * 1024;
/** The most JSON characters a strategy's `extras` may take per compilation. */
export const EXTRAS_CAP = 64 * 1024;
/** Calls the MCP server runs at once. */
export const MCP_RUNNERS = 4;
/** What the MCP server's waiting calls may hold between them, in message limits. */
export const MCP_WAITING_MESSAGES = 4;
/** The shipped strategies' processes one MCP runner keeps warm between calls, at most. */
export const MCP_WARM_KEEP = 2;
