/**
 * A command run does not render the help page behind the user's back (`withoutHelpCache`): the
 * pinned yargs would otherwise build it after every handler. The control run shows that the
 * check can see it, so an upgrade that renames the internal method fails here.
 */
import { describe, expect, it } from 'vitest';
import yargs from 'yargs';
import { withoutHelpCache } from '../../src/cli/main.js';

interface Usage {
  hasCachedHelpMessage(): boolean;
}
const usageOf = (p: unknown): Usage =>
  (p as { getInternalMethods(): { getUsageInstance(): Usage } }).getInternalMethods().getUsageInstance();

async function ran(skip: boolean): Promise<{ cached: boolean; handled: boolean }> {
  let handled = false;
  const parser = yargs(['go'])
    .exitProcess(false)
    .command('go', 'a command', {}, () => {
      handled = true;
    });
  if (skip) withoutHelpCache(parser);
  await parser.parseAsync(['go']);
  return { cached: usageOf(parser).hasCachedHelpMessage(), handled };
}

describe('the help page is rendered only when asked for', () => {
  it('yargs as shipped renders it after a command; ctxbench does not, and the command still runs', async () => {
    expect(await ran(false)).toEqual({ cached: true, handled: true });
    expect(await ran(true)).toEqual({ cached: false, handled: true });
  });
});
