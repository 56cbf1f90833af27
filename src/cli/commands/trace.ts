import { loadCorpus } from '../../harness/corpus/index.js';
import { UsageError } from '../../harness/errors.js';
import { count } from '../../harness/format.js';
import { jsonText } from '../../harness/output/index.js';
import { traceJSON, traceTable, traceView } from '../../harness/report/index.js';
import { compileCase } from '../../harness/session/index.js';
import type { BudgetName } from '../../harness/types.js';
import { BUDGETS } from '../../harness/vocabulary.js';
import {
  corpusOption,
  defineCommand,
  formatOption,
  lintOf,
  oneOutput,
  strictOption,
  tableOutput,
  timeoutOf,
  timeoutOption,
} from '../command.js';
import { EXIT } from '../io.js';
import { tokenizerOption, tokenizerSetting } from '../tokenizer.js';

export function parseBudget(text: string): BudgetName | number {
  if ((BUDGETS as readonly string[]).includes(text)) return text as BudgetName;
  if (/^\d+$/.test(text)) return Number(text);
  throw new UsageError(`--budget must be tight, medium, roomy or a whole number of tokens, not "${text}"`);
}

/**
 * One case's decision trace as a table (or JSON): the candidates a refusal names first, those it
 * never reached included, then every candidate, what happened to it, why, and what it cost.
 */
export const trace = defineCommand({
  examples: [
    ['$0 trace dependency-trap --budget tight', "the compiler's decisions, one row per candidate"],
    [
      '$0 trace mandatory-overflow --budget 4000 --strategy exact --json',
      "exact's trace at 4,000 tokens, as JSON",
    ],
    [
      '$0 trace dependency-trap --budget 1400 --format csv > trace.csv',
      'the table alone as CSV, for a spreadsheet (the outcome line goes to stderr)',
    ],
  ],
  options: (y) =>
    y
      .positional('case', { type: 'string', demandOption: true })
      .option('budget', {
        type: 'string',
        demandOption: true,
        describe: 'tight, medium, roomy or a number',
      })
      .option('strategy', { type: 'string', default: 'compiler', describe: 'whose decisions to show' })
      .option('corpus', corpusOption)
      .option('tokenizer', tokenizerOption)
      .option('json', {
        type: 'boolean',
        default: false,
        describe: 'print the whole trace as one JSON document (--format json prints the table alone)',
      })
      .option('format', formatOption)
      .option('timeout', timeoutOption)
      .option('strict', strictOption),
  run: async (a, { io }) => {
    oneOutput(a.json, a.format);
    const lint = lintOf(a.strict, io);
    const { kase, inputs, compiled } = await compileCase(
      loadCorpus(a.corpus, undefined, lint),
      a.case as string,
      parseBudget(a.budget),
      { strategy: a.strategy, timeout: timeoutOf(a.timeout), policy: tokenizerSetting(a.tokenizer), lint },
    );
    if (compiled.outcome === 'error') {
      io.err(`ctxbench: ${compiled.message}\n`);
      return EXIT.checkFailed;
    }
    const view = traceView(compiled.record, kase.candidates);
    const budgetTokens = inputs.request.usable_token_budget;
    if (a.json) {
      io.out(
        jsonText(traceJSON(view, { case: kase.name, budget_tokens: budgetTokens, strategy: a.strategy })),
      );
      return EXIT.ok;
    }
    const out = tableOutput(io, a.format);
    out.note(`${kase.name} at ${count(budgetTokens, 'token')} (${a.strategy}): ${view.outcome}\n\n`);
    out.table(traceTable(view, kase.candidates));
    return EXIT.ok;
  },
});
