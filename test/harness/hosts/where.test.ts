import { describe, expect, it } from 'vitest';
import { caseInputs, Hosts, listStrategies, loadStrategies } from '../../../src/harness/hosts/index.js';
import { pickStrategies } from '../../../src/harness/hosts/registry.js';
import type { Row, Shard } from '../../../src/harness/types.js';
import { PUBLISHED_ORDER } from '../../../src/harness/vocabulary.js';
import { corpus, referenceLedger } from '../../helpers/corpus.js';
import { Hosts as InThreadHosts } from '../../helpers/in-thread-hosts.js';
import { study, type Where } from '../../helpers/study.js';
import { FULL } from '../../helpers/tier.js';

const ledger = referenceLedger();

/** A study's rows and compilations, as the JSON text a run folder would hold. */
async function lines(where: Where, jobs = 1, shard?: Shard) {
  const out = await study({ where, jobs, shard });
  if (out.state !== 'finished') throw new Error('stopped');
  return out.rows.map((r, k) => [JSON.stringify(r), JSON.stringify(out.compilations[k])]);
}

const processes = (names: readonly string[]): Where => ({
  in: 'processes',
  strategies: pickStrategies(names),
  timeout: 120_000,
});
const thread = async (names: readonly string[]): Promise<Where> => ({
  in: 'thread',
  strategies: await loadStrategies(names),
});

/**
 * Every strategy under test:full; in CI the published six, exact (HiGHS in a process) and one
 * peer of each new kind (an async answer, an own layout): each strategy process from the
 * sources costs about a second of CPU.
 */
const ALL = listStrategies()
  .map((s) => s.name)
  .filter(
    (n) => FULL || [...PUBLISHED_ORDER, 'exact', 'prompt-tsx', 'langchain-reorder'].includes(n as never),
  );

describe('runStudy: strategies in processes of their own, or in this thread', () => {
  // One job as well under test:full; three, the case with answers out of order, always.
  it(`gives, at ${FULL ? 'one job and at ' : ''}three, exactly the rows and lines of compiling in this thread, in loop order`, async () => {
    const want = await lines(await thread(ALL));
    expect(want).toHaveLength(42 * ALL.length);
    if (FULL) expect(await lines(processes(ALL), 1)).toEqual(want);
    expect(await lines(processes(ALL), 3)).toEqual(want);
  });

  it('the stand-in other tests run studies with (test/helpers/in-thread-hosts.ts) answers as a process does', async () => {
    const refs = pickStrategies(ALL);
    const real = new Hosts({ timeout: 120_000, keep: refs.length, secrets: [] });
    const stand = new InThreadHosts();
    try {
      const hosted = await real.describe(refs);
      expect(await stand.describe(refs)).toEqual(hosted);
      for (const kase of corpus().cases.slice(0, FULL ? undefined : 4))
        for (const ref of hosted) {
          const inputs = caseInputs(kase, 'tight', corpus().policy, ledger.get(kase.name));
          const [a, b] = await Promise.all([
            real.ask(ref, kase.name, inputs),
            stand.ask(ref, kase.name, inputs),
          ]);
          expect(b, `${ref.name} on ${kase.name}`).toEqual(a);
        }
    } finally {
      real.close();
    }
  });

  it('runs one shard of the matrix, with more jobs than cells', async () => {
    const shard = { index: 2, count: 30 };
    const got = await lines(processes(['dump', 'topk']), 8, shard);
    const whole = await lines(await thread(['dump', 'topk']));
    // 84 cells in 30 slices: the second is cells 2 and 3 (floor(84 / 30) = 2, floor(168 / 30) = 5).
    expect(got).toEqual(whole.slice(2, 5));
    expect(await lines(await thread(['dump', 'topk']), 1, shard)).toEqual(got);
  });

  it('finishes at once for an empty shard', async () => {
    // 42 cells in 100 slices: the first holds none.
    expect(await lines(processes(['dump']), 2, { index: 1, count: 100 })).toEqual([]);
  });

  it('stops when aborted: the outcome says stopped, with the reason, and no row is taken after', async () => {
    const controller = new AbortController();
    const taken: Row[] = [];
    const enough = new Error('enough');
    const outcome = await study({
      where: processes(['dump', 'compiler']),
      jobs: 2,
      onRow: (row) => {
        taken.push(row);
        if (taken.length === 7) controller.abort(enough);
      },
      signal: controller.signal,
    });
    expect(outcome.state).toBe('stopped');
    if (outcome.state === 'stopped') {
      expect(outcome.reason).toBe(enough);
      expect(outcome.total).toBe(84);
    }
    const count = taken.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(taken.length).toBe(count);
    expect(count).toBeLessThan(84);
  });

  it('a failure that is not the abort still throws', async () => {
    const controller = new AbortController();
    const run = study({
      where: await thread(['dump']),
      onRow: () => {
        throw new Error('the sink broke');
      },
      signal: controller.signal,
    });
    await expect(run).rejects.toThrow('the sink broke');
  });
});
