/**
 * A call whose arguments cannot be passed to a runner (Node's IPC channel serializes them with
 * v8.serialize, which recurses, and refuses what is not data) is that call's error result, and the
 * pool goes on: the next call is answered. The server refuses arguments nested past 100 levels
 * before they reach the pool (test/cli/mcp-messages.test.ts); this is the pool's own guard,
 * called here without that check in front of it.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { Runners } from '../../src/mcp/runners.js';
import { nestedValue } from '../helpers/break-it.js';
import { tempDir } from '../helpers/temp.js';

/** Long for an honest check of nothing on a loaded machine: only a failure waits it out. */
const TIMEOUT = 120_000;
const runners = new Runners({ timeout: TIMEOUT, roots: [tempDir('mcp-runners')] }, 1_000_000);
afterAll(() => runners.close());

/** The call's result, or a failure once TIMEOUT has passed: a pool that lost the call fails here, not in a hang. */
const answer = (args: Record<string, unknown>) =>
  Promise.race([
    runners.call('check', args, 0),
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error('the call was never answered')), TIMEOUT).unref(),
    ),
  ]);

const texts = (r: Awaited<ReturnType<Runners['call']>>) =>
  (r.content as { type: 'text'; text: string }[]).map((c) => c.text);
const EMPTY_CHECK = ['[]\n', 'check: 0 problems, 0 warnings'];

describe('arguments a runner cannot be handed', () => {
  it.each([
    ['nested 100,000 deep', nestedValue(100_000), 'Maximum call stack size exceeded'],
    ['a function', () => 1, 'could not be cloned'],
  ])('%s: an error result, and the next call is answered', async (_what, value, why) => {
    const r = await answer({ candidates: value });
    expect(r.isError).toBe(true);
    const [line, ...rest] = texts(r);
    expect(rest).toEqual([]);
    expect(line).toMatch(/^ctxbench: check's arguments could not be passed on: /);
    expect(line).toContain(why);
    expect(texts(await answer({ candidates: [] }))).toEqual(EMPTY_CHECK);
  });
});
