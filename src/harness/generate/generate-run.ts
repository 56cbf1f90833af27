/**
 * `generate` apart from its printing: its numbers and seed checked, its folder's place checked,
 * then one case, or a corpus with its ledger and exact-certified budgets, written; and the line
 * that says what was written.
 */
import { defaultPolicy } from '../../compiler/index.js';
import { loadPolicy } from '../corpus/index.js';
import { UsageError } from '../errors.js';
import { count } from '../format.js';
import { checkOut, guardOutput, type ProgressSink, progressLine } from '../output/index.js';
import type { Profile } from '../types.js';
import { generateCase } from './case-records.js';
import { GENERATED_MARKS, generatedCorpus, writeCase, writeCorpus } from './write-case.js';

export interface GenerateRun {
  /** Any string of letters, digits, `.`, `_` and `-`; the same seed writes the same bytes. */
  readonly seed: string;
  /** Candidates per case. */
  readonly candidates: number;
  readonly out: string;
  /** A corpus of this many cases; undefined for one case. */
  readonly cases: number | undefined;
  /** A policy file; compiler-policy-v1 when undefined. */
  readonly policy: string | undefined;
  readonly profile: Profile;
  /** With `cases`: each tight budget at exact's least legal cost instead of below it. */
  readonly tightAtLeastCost: boolean;
  /** Replace a non-empty `out` that generate wrote. */
  readonly force: boolean;
  readonly progress: { readonly sink: ProgressSink; readonly quiet: boolean };
}

/** Write what `o` asks for; the line for stdout saying what was written, with the seed. */
export function generateRun(o: GenerateRun): string {
  if (!Number.isInteger(o.candidates) || o.candidates < 1)
    throw new UsageError('--candidates must be a whole number >= 1');
  if (o.cases !== undefined && (!Number.isInteger(o.cases) || o.cases < 1))
    throw new UsageError('--cases must be >= 1');
  if (o.tightAtLeastCost && o.cases === undefined)
    throw new UsageError('--tight-at-least-cost needs --cases: a single case has one budget');
  // The seed names the cases' files: it must not reach outside the output folder.
  if (!/^[A-Za-z0-9._-]+$/.test(o.seed) || o.seed.startsWith('.')) {
    throw new UsageError('--seed may hold letters, digits, ".", "_" and "-" (not first ".")');
  }
  const place = { path: o.out, kind: 'folder', option: '--out', inputs: [o.policy] } as const;
  guardOutput({ ...place, replaceable: generatedCorpus });
  checkOut(o.out, o.force, GENERATED_MARKS);
  const policy = o.policy ? loadPolicy(o.policy) : defaultPolicy();
  if (o.cases === undefined) {
    const g = generateCase(o.seed, o.candidates, 'generated', o.profile);
    writeCase(o.out, g, policy);
    return `seed ${o.seed}: ${count(g.candidates.length, 'candidate')} written to ${o.out} (budget ${g.request.usable_token_budget}; tight ${g.budgets.tight}, roomy ${g.budgets.roomy})\n`;
  }
  const progress = progressLine(o.progress.sink, { quiet: o.progress.quiet });
  const cases = o.cases;
  const { refusals, unproven } = writeCorpus(
    o.out,
    {
      seed: o.seed,
      cases,
      candidates: o.candidates,
      policy,
      profile: o.profile,
      tight: o.tightAtLeastCost ? 'at-least-cost' : 'below',
    },
    (done) => progress.update(`generate ${done}/${cases} cases, budgets certified by exact`),
  );
  progress.end(`generate: ${count(cases, 'case')}`);
  return (
    `seed ${o.seed}: ${count(cases, 'case')} of ${count(o.candidates, 'candidate')} written to ${o.out}; ` +
    `exact expects ${count(refusals, 'refusal')} of ${cases * 3}${unproven ? ` (${count(unproven, 'optimum', 'optima')} not proven)` : ''}\n`
  );
}
