import { generateRun } from '../../harness/generate/index.js';
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
    const { seed, candidates, out, cases, policy, profile, tightAtLeastCost, force } = a;
    const progress = { sink: io, quiet: a.quiet };
    io.out(generateRun({ seed, candidates, out, cases, policy, profile, tightAtLeastCost, force, progress }));
    return EXIT.ok;
  },
});
