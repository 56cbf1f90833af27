import { loadCorpus } from '../../harness/input/corpus.js';
import { UsageError } from '../../harness/input/errors.js';
import { ledgerDirFor, loadLedger } from '../../harness/input/ledger.js';
import { textTable } from '../../harness/report/table.js';
import { caseInputs, strategyInput } from '../../harness/run/input.js';
import { compileWith } from '../../harness/run/measure.js';
import { pickStrategies } from '../../harness/run/registry.js';
import type { BudgetName, Strategy } from '../../harness/types.js';
import { BUDGETS } from '../../harness/vocabulary.js';
import { DEFAULTS, defineCommand } from '../command.js';
import { EXIT } from '../io.js';

export function parseBudget(text: string): BudgetName | number {
  if ((BUDGETS as readonly string[]).includes(text)) return text as BudgetName;
  if (/^\d+$/.test(text)) return Number(text);
  throw new UsageError(`--budget must be tight, medium, roomy or a whole number of tokens, not "${text}"`);
}

const COLUMNS = [
  'candidate',
  'decision',
  'reason',
  'class',
  'relevance',
  'marginal',
  'before',
  'after',
  'dependencies',
  'position',
];

/** One case's decision trace as a table: every candidate, what happened and what it cost. */
export const trace = defineCommand({
  name: 'trace <case>',
  describe: "a case's decision trace as a table",
  options: (y) =>
    y
      .positional('case', { type: 'string', demandOption: true })
      .option('budget', {
        type: 'string',
        demandOption: true,
        describe: 'tight, medium, roomy or a number',
      })
      .option('strategy', { type: 'string', default: 'compiler' })
      .option('corpus', { type: 'string', default: DEFAULTS.corpus() }),
  run: async (a, { io }) => {
    const [strategy] = (await pickStrategies([a.strategy])) as [Strategy];
    const budget = parseBudget(a.budget);
    const corpus = loadCorpus(a.corpus);
    const kase = corpus.cases.find((c) => c.name === a.case);
    if (kase === undefined) {
      throw new UsageError(`unknown case "${a.case}" (known: ${corpus.cases.map((c) => c.name).join(', ')})`);
    }
    const ledger =
      strategy.readsLedger === true ? loadLedger(ledgerDirFor(corpus), corpus).get(kase.name) : undefined;
    // The corpus checked every case's inputs when it was loaded.
    const inputs = caseInputs(kase, budget, corpus.policy, ledger);
    const compiled = compileWith(strategy, strategyInput(strategy, inputs));
    if (compiled.outcome === 'error') {
      io.err(`ctxbench: ${compiled.message}\n`);
      return EXIT.checkFailed;
    }
    const result = compiled.record;
    const rows = result.trace.entries.map((e) => [
      e.candidate_id,
      e.decision,
      e.reason_code,
      e.priority_band,
      String(e.relevance),
      String(e.marginal_cost),
      String(e.budget_before),
      String(e.budget_after),
      e.dependency_closure.join(',') || '-',
      e.position === null ? '-' : String(e.position),
    ]);
    const outcome =
      compiled.outcome === 'bundle'
        ? `bundle of ${result.bundle_tokens} tokens, hash ${result.bundle_hash}`
        : `refused ${result.failure?.reason}: ${result.failure?.diagnostic}`;
    io.out(`${kase.name} at ${inputs.request.usable_token_budget} tokens (${strategy.name}): ${outcome}\n\n`);
    io.out(
      textTable(COLUMNS, rows, [
        'left',
        'left',
        'left',
        'left',
        'right',
        'right',
        'right',
        'right',
        'left',
        'right',
      ]),
    );
    return EXIT.ok;
  },
});
