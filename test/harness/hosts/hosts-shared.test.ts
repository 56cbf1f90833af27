/**
 * The shipped strategies a command asks for share one process (per job); the oracle, which reads
 * the ledger, and any plug-in keep one of their own, a plug-in even when it takes a shipped
 * strategy's name. Sharing changes no answer: each is what the strategy gives in this thread.
 */
import { describe, expect, it } from 'vitest';
import { caseInputs, Hosts, processCount } from '../../../src/harness/hosts/index.js';
import { pickStrategies } from '../../../src/harness/hosts/registry.js';
import type { StrategyRef } from '../../../src/harness/types.js';
import { corpus, referenceLedger } from '../../helpers/corpus.js';
import { Hosts as InThreadHosts } from '../../helpers/in-thread-hosts.js';
import { outsidePlugin } from '../../helpers/plugins.js';

const SHIPPED = ['dump', 'topk', 'gated', 'compiler-v2'];

/** A plug-in outside the package that takes a shipped strategy's name, and answers with nothing. */
function impostor(): StrategyRef {
  return outsidePlugin(
    'topk',
    "export default { name: 'topk', description: 'not the shipped one', assemble: () => ({ admitted: [] }) };\n",
  );
}

describe('Hosts: one process for the shipped strategies, one for each other', () => {
  it('starts two processes for four shipped strategies and the oracle, and each answers as in this thread', async () => {
    const refs = pickStrategies([...SHIPPED, 'oracle']);
    const hosts = new Hosts({ timeout: 120_000, keep: refs.length, secrets: [] });
    const here = new InThreadHosts();
    try {
      const infos = await hosts.describe(refs);
      expect(infos).toEqual(await here.describe(refs));
      expect(hosts.started).toBe(2);
      const ledger = referenceLedger();
      // Case by case, each strategy in turn: the process holds one case's pool for all of them.
      for (const kase of corpus().cases.slice(0, 3))
        for (const ref of refs) {
          const inputs = caseInputs(kase, 'medium', corpus().policy, ledger.get(kase.name));
          const answer = await hosts.ask(ref, kase.name, inputs);
          expect(answer.ok).toBe(true);
          expect(answer).toEqual(await here.ask(ref, kase.name, inputs));
        }
      // Every cell asked of the strategies that share came from the one process.
      expect(hosts.started).toBe(2);
    } finally {
      hosts.close();
    }
  });

  it('counts the processes of a job as it starts them: the floor of a study (bench/floor-process.ts)', () => {
    expect(processCount(pickStrategies(['dump', 'topk', 'weighted', 'gated', 'compiler', 'oracle']))).toBe(2);
    expect(processCount(pickStrategies(['compiler-v2']))).toBe(1);
    expect(processCount(pickStrategies(['oracle', 'compiler-v2']))).toBe(2);
    expect(processCount([...pickStrategies(['dump', 'gated']), impostor()])).toBe(2);
    expect(processCount(pickStrategies(undefined))).toBe(2);
  });

  it('gives a plug-in named like a shipped strategy a process of its own, and its own answer', async () => {
    const fake = impostor();
    const refs = [...pickStrategies(['dump', 'gated']), fake];
    const hosts = new Hosts({ timeout: 120_000, keep: refs.length, secrets: [] });
    try {
      const infos = await hosts.describe(refs);
      expect(infos[2]).toMatchObject({ name: 'topk', description: 'not the shipped one', file: fake.file });
      expect(hosts.started).toBe(2);
      const kase = corpus().cases[0];
      if (kase === undefined) throw new Error('no case');
      const answer = await hosts.ask(fake, kase.name, caseInputs(kase, 'medium', corpus().policy, undefined));
      // The impostor's answer, which no shipped strategy gives on this case.
      expect(answer.ok && JSON.parse(answer.text).admitted).toEqual([]);
    } finally {
      hosts.close();
    }
  });
});
