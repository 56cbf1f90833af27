import { defaultPolicy } from '../../compiler/index.js';
import { loadPolicy } from '../../harness/corpus/index.js';
import { UsageError } from '../../harness/errors.js';
import { count } from '../../harness/format.js';
import {
  GENERATED_MARKS,
  generateCase,
  generatedCorpus,
  writeCase,
  writeCorpus,
} from '../../harness/generate/index.js';
import { checkOut, guardOutput, progressLine } from '../../harness/output/index.js';
import type { Profile } from '../../harness/types.js';
import { PROFILES } from '../../harness/vocabulary.js';
import { defineCommand, quietOption } from '../command.js';
import { EXIT } from '../io.js';

const SHAPE = `Profile mixed (the default): the instruction and the task (MANDATORY, always eligible); a few
further MANDATORY and REQUIRED contents (6% of contents in small pools, about 40 contents in large
ones: must content does not grow with the pool), 24% PREFERRED and the rest DISCRETIONARY; each
content in one to four forms (reference, anchor, compact, full) with a floor on 15% of them;
about 10% of optional candidates (3% of must content, never its full form) failing each of the
scope, freshness and authority gates; references (and 4% of other forms) needing one of a few
shared expensive tools, two of which need each other; one dependency cycle; required groups of two
or three full forms; coverage keys from a 24-key vocabulary; relevance spread over [0, 1]. Ledger:
MANDATORY and REQUIRED contents are must; PREFERRED ones should (or distractor); DISCRETIONARY ones
should, optional, distractor or harmful. Budgets, from the least rendered cost of a legal bundle
(proved by exact's integer program): tight 90% of it (no legal bundle fits), medium and roomy above
it (one does), with 40% and 120% of the should content on top.

Profile agent: a coding agent's context. Two standing instructions and the task (MANDATORY); two
to six tool definitions; source files (60% of contents) each in full, as a 12% summary and as a
reference that needs the read-file tool, one to six of them the files the task is about
(REQUIRED, half with a floor that rules the reference out), 12% with an out-of-date summary;
memories (a third stale) and web snippets (relevant-looking, half from untrusted pages failing
authority). Ledger: the task's files must, closely related files should, stale memories
distractors, untrusted snippets harmful. Budgets as for mixed.`;

/** One synthetic case, or with --cases a whole corpus with its ledger; the seed is printed. */
export const generate = defineCommand({
  examples: [
    ['$0 generate --seed s1 --candidates 200 --out pools/one', 'one case of 200 candidates'],
    [
      '$0 generate --seed s1 --candidates 200 --cases 5 --out corpora/g200',
      'a corpus of 5 cases with its ledger and certified budgets',
    ],
  ],
  options: (y) =>
    y
      .option('seed', {
        type: 'string',
        demandOption: true,
        describe: 'any string; same seed, same bytes',
      })
      .option('candidates', { type: 'number', demandOption: true, describe: 'candidates per case' })
      .option('out', { type: 'string', demandOption: true, describe: 'folder to write' })
      .option('cases', { type: 'number', describe: 'write a corpus of this many cases' })
      .option('policy', { type: 'string', describe: 'policy file (default compiler-policy-v1)' })
      .option('profile', {
        choices: PROFILES,
        default: 'mixed' as Profile,
        describe: 'the shape of pool (below)',
      })
      .option('tight-at-least-cost', {
        type: 'boolean',
        default: false,
        describe:
          "with --cases: each tight budget at exact's least legal cost, where a legal bundle just fits",
      })
      .option('force', { type: 'boolean', default: false, describe: 'replace a non-empty --out' })
      .option('quiet', quietOption)
      .epilogue(SHAPE),
  run: (a, { io }) => {
    if (!Number.isInteger(a.candidates) || a.candidates < 1)
      throw new UsageError('--candidates must be a whole number >= 1');
    if (a.cases !== undefined && (!Number.isInteger(a.cases) || a.cases < 1))
      throw new UsageError('--cases must be >= 1');
    if (a.tightAtLeastCost && a.cases === undefined)
      throw new UsageError('--tight-at-least-cost needs --cases: a single case has one budget');
    // The seed names the cases' files: it must not reach outside the output folder.
    if (!/^[A-Za-z0-9._-]+$/.test(a.seed) || a.seed.startsWith('.')) {
      throw new UsageError('--seed may hold letters, digits, ".", "_" and "-" (not first ".")');
    }
    guardOutput({
      path: a.out,
      kind: 'folder',
      option: '--out',
      inputs: [a.policy],
      replaceable: generatedCorpus,
    });
    checkOut(a.out, a.force, GENERATED_MARKS);
    const policy = a.policy ? loadPolicy(a.policy) : defaultPolicy();
    if (a.cases === undefined) {
      const g = generateCase(a.seed, a.candidates, 'generated', a.profile);
      writeCase(a.out, g, policy);
      io.out(
        `seed ${a.seed}: ${count(g.candidates.length, 'candidate')} written to ${a.out} (budget ${g.request.usable_token_budget}; tight ${g.budgets.tight}, roomy ${g.budgets.roomy})\n`,
      );
      return EXIT.ok;
    }
    const progress = progressLine(io, { quiet: a.quiet });
    const cases = a.cases;
    const { refusals, unproven } = writeCorpus(
      a.out,
      {
        seed: a.seed,
        cases,
        candidates: a.candidates,
        policy,
        profile: a.profile,
        tight: a.tightAtLeastCost ? 'at-least-cost' : 'below',
      },
      (done) => progress.update(`generate ${done}/${cases} cases, budgets certified by exact`),
    );
    progress.end(`generate: ${count(cases, 'case')}`);
    io.out(
      `seed ${a.seed}: ${count(a.cases, 'case')} of ${count(a.candidates, 'candidate')} written to ${a.out}; ` +
        `exact expects ${count(refusals, 'refusal')} of ${a.cases * 3}${unproven ? ` (${count(unproven, 'optimum', 'optima')} not proven)` : ''}\n`,
    );
    return EXIT.ok;
  },
});
