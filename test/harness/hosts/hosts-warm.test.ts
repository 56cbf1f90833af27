/**
 * WarmHosts, the strategy processes an MCP runner keeps between calls, counted by the processes it
 * starts: a shipped strategy's process answers the next call (lease) too, at most `keep` of them
 * stay, the least recently used stopped first; a plug-in, even one that takes a shipped
 * strategy's name, gets a new process for every call and keeps nothing of the last. Every answer is
 * the one a process of its own gives.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { caseInputs, Hosts, WarmHosts } from '../../../src/harness/hosts/index.js';
import { pickStrategies } from '../../../src/harness/hosts/registry.js';
import type { StrategyRef } from '../../../src/harness/types.js';
import { caseNamed, corpus } from '../../helpers/corpus.js';
import { outsidePlugin } from '../../helpers/plugins.js';

const TIMEOUT = 120_000;
const warm = new WarmHosts({ timeout: TIMEOUT, keep: 2, secrets: [] });
afterAll(() => warm.close());

const inputsOf = (name: string) => caseInputs(caseNamed(name), 'medium', corpus().policy, undefined);
const A = inputsOf('dependency-trap');
const B = inputsOf('wrong-scope');

/** One call: a lease, its strategy described and asked once, the lease closed. */
async function call(ref: StrategyRef, inputs: ReturnType<typeof inputsOf>) {
  const lease = warm.lease();
  try {
    await lease.describe([ref]);
    // The key every MCP call uses: without the lease's own, a process would keep the last pool.
    return await lease.ask(ref, 'arguments', inputs);
  } finally {
    lease.close();
  }
}

/** What a process of its own answers. */
async function cold(ref: StrategyRef, inputs: ReturnType<typeof inputsOf>) {
  const hosts = new Hosts({ timeout: TIMEOUT, keep: 1, secrets: [] });
  try {
    await hosts.describe([ref]);
    return await hosts.ask(ref, 'cold', inputs);
  } finally {
    hosts.close();
  }
}

/** A plug-in outside the package, named like a shipped strategy, that keeps what it can. */
function keeper(): StrategyRef {
  return outsidePlugin(
    'gated',
    `let calls = 0;
export default { name: 'gated', description: 'not the shipped one', assemble(input) {
  calls += 1;
  globalThis.pools ??= [];
  globalThis.pools.push(input.candidates.length);
  return { admitted: [], extras: { calls, pools: globalThis.pools.length } };
} };
`,
  );
}

describe('WarmHosts', () => {
  const [gated, topk, weighted] = pickStrategies(['gated', 'topk', 'weighted']) as [
    StrategyRef,
    StrategyRef,
    StrategyRef,
  ];

  it("answers a shipped strategy's calls from one process, each as a process of its own would", async () => {
    const before = warm.started;
    const answers = [await call(gated, A), await call(gated, B), await call(gated, A)];
    expect(warm.started - before).toBe(1);
    expect(answers).toEqual([await cold(gated, A), await cold(gated, B), await cold(gated, A)]);
  }, 300_000);

  it('keeps at most `keep`, the least recently used stopped first', async () => {
    await call(gated, A);
    const before = warm.started;
    await call(topk, A);
    await call(weighted, A);
    expect(warm.started - before).toBe(2);
    // gated was the least recently used of three: stopped, so its next call starts a process.
    await call(gated, A);
    expect(warm.started - before).toBe(3);
    // weighted is still warm.
    await call(weighted, B);
    expect(warm.started - before).toBe(3);
  }, 300_000);

  it('gives a plug-in, even one named like a shipped strategy, a new process each call', async () => {
    const plugin = keeper();
    const before = warm.started;
    for (const inputs of [A, B, A]) {
      const answer = await call(plugin, inputs);
      expect(answer.ok && JSON.parse(answer.text).extras).toEqual({ calls: 1, pools: 1 });
    }
    expect(warm.started - before).toBe(3);
  }, 300_000);
});
