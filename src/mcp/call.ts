/**
 * One tool call, as a runner does it (runner.ts): the tool's own pipeline on its arguments, its
 * strategy's process taken from the runner's warm ones (`warm`) where it may be. An
 * error the CLI would print is the call's result, with `isError: true`, naming the tool's arguments
 * where the CLI names its flags; anything else is a bug of ctxbench's and is thrown.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { argumentName, InputError, OptionError, UsageError } from '../harness/errors.js';
import type { WarmHosts } from '../harness/hosts/index.js';
import { failed, type McpOptions, TOOLS } from './tools/index.js';

export async function call(
  name: string,
  args: Record<string, unknown>,
  o: McpOptions,
  warm?: WarmHosts,
): Promise<CallToolResult> {
  try {
    const tool = TOOLS.find((t) => t.name === name);
    if (tool !== undefined) return await tool.run(args, o, warm);
    return failed(`ctxbench: unknown tool "${name}" (tools: ${TOOLS.map((t) => t.name).join(', ')})`);
  } catch (e) {
    // A client has arguments, not flags: what the CLI would name `--max-bytes` is `max_bytes` here.
    if (e instanceof InputError)
      return failed(
        `ctxbench: ${e.file.startsWith('--') ? new InputError(argumentName(e.file.slice(2)), e.message, e.record, e.more).line : e.line}`,
      );
    if (e instanceof OptionError) return failed(`ctxbench: ${argumentName(e.option)} ${e.said}`);
    if (e instanceof UsageError) return failed(`ctxbench: ${e.message}`);
    // The permission model refused a read: a link, say, leading out of the folders served.
    const { code, resource } = e as { code?: unknown; resource?: unknown };
    if (code === 'ERR_ACCESS_DENIED')
      return failed(`ctxbench: ${String(resource ?? 'a file')}: outside the folders this server reads`);
    throw e;
  }
}
