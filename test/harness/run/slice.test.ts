import { describe, expect, it } from 'vitest';
import { ledgerDirFor } from '../../../src/harness/input/ledger.js';
import { Hosts } from '../../../src/harness/run/hosts.js';
import { listStrategies, loadStrategies, pickStrategies } from '../../../src/harness/run/registry.js';
import { cells, runCell } from '../../../src/harness/run/runner.js';
import { runSlice } from '../../../src/harness/run/slice.js';
import type { CompilationLine, Row } from '../../../src/harness/types.js';
import { corpus } from '../../helpers/corpus.js';
import { Hosts as InThreadHosts } from '../../helpers/in-thread-hosts.js';
import { referenceLedger } from '../../helpers/study.js';

const FULL = process.env.CTXBENCH_FULL === '1';

const ledger = referenceLedger();

/** What runSlice takes, as the JSON text a run folder would hold. */
async function hosted(names: readonly string[], from: number, to: number, jobs: number, inThread = false) {
  const refs = pickStrategies(names);
  const o = { timeout: 120_000, keep: jobs + refs.length, secrets: [ledgerDirFor(corpus())] };
  const hosts = inThread ? (new InThreadHosts() as unknown as Hosts) : new Hosts(o);
  try {
    const matrix = cells(corpus(), await hosts.describe(refs));
    const taken: [string, string][] = [];
    const take = (row: Row, line: CompilationLine) => taken.push([JSON.stringify(row), JSON.stringify(line)]);
    await runSlice({ corpus: corpus(), ledger, matrix, from, to, take }, { jobs, hosts });
    return taken;
  } finally {
    hosts.close();
  }
}

/** The same cells compiled in this thread, with no process of their own. */
async function inThread(names: readonly string[], from: number, to: number) {
  const matrix = cells(corpus(), await loadStrategies(names));
  return matrix.slice(from, to).map((cell) => {
    const { row, compilation } = runCell(cell, corpus(), ledger);
    return [JSON.stringify(row), JSON.stringify(compilation)];
  });
}

const ALL = listStrategies().map((s) => s.name);

describe('runSlice: every strategy in a process of its own', () => {
  // One job as well under test:full; three, the case with answers out of order, always.
  it(`takes, at ${FULL ? 'one job and at ' : ''}three, exactly the rows and lines of compiling in this thread, in loop order`, async () => {
    const want = await inThread(ALL, 0, 42 * ALL.length);
    expect(want).toHaveLength(42 * ALL.length);
    if (FULL) expect(await hosted(ALL, 0, want.length, 1)).toEqual(want);
    expect(await hosted(ALL, 0, want.length, 3)).toEqual(want);
    // The stand-in other tests run studies with (test/helpers/in-thread-hosts.ts) answers alike.
    expect(await hosted(ALL, 0, want.length, 3, true)).toEqual(want);
  });

  it('runs a slice of the matrix, and more jobs than cells', async () => {
    const got = await hosted(['dump', 'topk'], 10, 13, 8);
    expect(got).toHaveLength(3);
    expect(got).toEqual(await inThread(['dump', 'topk'], 10, 13));
  });

  it('resolves at once for an empty slice', async () => {
    expect(await hosted(['dump'], 5, 5, 2)).toEqual([]);
  });

  it('stops when aborted: the promise rejects with the reason and no cell is taken after', async () => {
    const hosts = new Hosts({ timeout: 120_000, keep: 4, secrets: [] });
    const matrix = cells(corpus(), await hosts.describe(pickStrategies(['dump', 'compiler'])));
    const controller = new AbortController();
    const taken: Row[] = [];
    const run = runSlice(
      {
        corpus: corpus(),
        ledger,
        matrix,
        from: 0,
        to: matrix.length,
        take: (row) => {
          taken.push(row);
          if (taken.length === 7) controller.abort(new Error('enough'));
        },
      },
      { jobs: 2, hosts, signal: controller.signal },
    );
    await expect(run).rejects.toThrow('enough');
    hosts.close();
    const count = taken.length;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(taken.length).toBe(count);
    expect(count).toBeLessThan(matrix.length);
  });
});
