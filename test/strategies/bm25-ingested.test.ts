import { beforeAll, describe, expect, it } from 'vitest';
import type { Corpus, StrategyInput } from '../../src/harness/types.js';
import bm25 from '../../strategies/bm25.js';
import { measured } from '../helpers/compiled.js';
import { type IngestedProject, ingestedProject, MESSAGES } from '../helpers/ingest-fixture.js';
import { tempDir } from '../helpers/temp.js';

// The fixture repository of the ingest tests, ingested once: a real pool, labelled forms.
let project: IngestedProject;
let corpus: Corpus;
const scratch = tempDir('bm25-ingested');
beforeAll(async () => {
  project = await ingestedProject(scratch, [150, 1000, 8000], 'bm25');
  corpus = project.corpus;
}, 120_000);
const inputs = () => project.inputs;

describe('bm25 on an ingested repository', () => {
  it('answers every case at every budget within it: the task first, then whole files', () => {
    expect(corpus.cases.length).toBeGreaterThan(3);
    for (const [name, budget, input] of inputs()) {
      const out = measured(bm25, input);
      expect(out.outcome, `${name} ${budget}`).toBe('bundle');
      if (out.outcome !== 'bundle') continue;
      expect(out.renderedTokens).toBeLessThanOrEqual(input.budget);
      const forms = new Map(input.candidates.map((c) => [c.candidate_id, c]));
      const [first, ...files] = out.admitted.map((id) => forms.get(id));
      expect(first?.order_role).toBe('task');
      for (const f of files) expect(f?.representation_id).toBe('full');
    }
  });

  it("finds the file a commit's message names: src/util.ts for 'Fix clamp bounds in src/util.ts'", () => {
    // The query's terms are fix, clamp, bound, src and util.t; only src/util.ts holds util.t,
    // in its path: a document without its path would lose it, and the file its first rank.
    const kase = corpus.cases.find((c) => c.candidates.some((x) => x.content === MESSAGES[1]));
    expect(kase).toBeDefined();
    const input = inputs().find(([name, b]) => name === kase?.name && b === 'roomy')?.[2] as StrategyInput;
    const answer = bm25.assemble(input);
    const ranked = 'extras' in answer ? (answer.extras?.ranked as string[] | undefined) : undefined;
    expect(ranked?.[0]).toBe('src/util.ts');
  });

  it('gives the same answers when every relevance is 0: it reads the texts', () => {
    for (const [, , input] of inputs()) {
      const blind = { ...input, candidates: input.candidates.map((c) => ({ ...c, relevance: 0 })) };
      const [seen, unseen] = [bm25.assemble(input), bm25.assemble(blind)];
      expect('admitted' in unseen && [unseen.admitted, unseen.extras]).toEqual(
        'admitted' in seen && [seen.admitted, seen.extras],
      );
    }
  });
});
