/**
 * `<peer>+gates` (issue 36): each peer on the candidates that pass every hard gate. A wrapper that
 * filtered too little would let a gated-out candidate in; one that changed anything else would
 * answer differently from the peer on the filtered pool.
 */
import { describe, expect, it } from 'vitest';
import { loadStrategies } from '../../src/harness/hosts/index.js';
import { eligible, type TraceEntry } from '../../src/harness/kit/index.js';
import type { Selection, WaitingStrategy } from '../../src/harness/types.js';
import { GATED_PEERS, PEERS } from '../../src/harness/vocabulary.js';
import { referenceInputs } from '../helpers/reference-inputs.js';

const load = async (name: string) => (await loadStrategies([name]))[0] as WaitingStrategy;
const admitted = (s: Selection) => ('refusal' in s ? [] : s.admitted);

describe.each(PEERS.map((p) => [p]))('%s+gates', (peer) => {
  it('is named and described as the peer behind the gates', async () => {
    const gated = await load(`${peer}+gates`);
    expect(GATED_PEERS as readonly string[]).toContain(gated.name);
    expect(gated.name).toBe(`${peer}+gates`);
    expect(gated.description).toContain((await load(peer)).description);
  });

  it('answers as the peer does on the candidates that pass every gate, and admits no other', async () => {
    const [gated, plain] = [await load(`${peer}+gates`), await load(peer)];
    let filtered = 0;
    for (const { label, input } of referenceInputs()) {
      const passing = input.candidates.filter(eligible);
      if (passing.length < input.candidates.length) filtered += 1;
      const mine = await gated.assemble(input);
      const theirs = await plain.assemble({ ...input, candidates: passing });
      // The same answer but for the trace, which covers every candidate, the filtered ones rejected by their gate.
      const { trace, ...rest } = mine as Selection & { trace?: readonly TraceEntry[] };
      const { trace: _own, ...expected } = theirs as Selection & { trace?: readonly TraceEntry[] };
      expect(JSON.stringify(rest), label).toBe(JSON.stringify(expected));
      if (trace !== undefined) {
        expect(trace.map((e) => e.candidate_id).sort(), label).toEqual(
          input.candidates.map((c) => c.candidate_id).sort(),
        );
        for (const e of trace.filter((x) => !passing.some((c) => c.candidate_id === x.candidate_id)))
          expect(e.decision, `${label} ${e.candidate_id}`).toBe('REJECTED_HARD');
      }
      const ok = new Set(passing.map((c) => c.candidate_id));
      expect(
        admitted(mine).filter((id) => !ok.has(id)),
        label,
      ).toEqual([]);
    }
    // The reference corpora hold candidates that fail a gate: the filter is exercised.
    expect(filtered).toBeGreaterThan(0);
  });
});
