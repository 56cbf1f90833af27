import type { CompilationResult } from '../compiler/index.js';
import { checkInputs, compileWith, strategyInput } from '../harness/compile.js';
import { BUDGETS, type BudgetName, loadCorpus, requestAt } from '../harness/corpus.js';
import { UsageError } from '../harness/errors.js';
import { ledgerDirFor, loadLedger } from '../harness/ledger.js';
import { pickStrategies } from '../harness/registry.js';
import { textTable } from '../harness/table.js';
import { STRATEGY_ERROR, type Strategy } from '../harness/types.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface TraceArgs {
  readonly case: string;
  readonly budget: string;
  readonly corpus: string;
  readonly strategy: string;
}

export function parseBudget(text: string): BudgetName | number {
  if ((BUDGETS as readonly string[]).includes(text)) return text as BudgetName;
  if (/^\d+$/.test(text)) return Number(text);
  throw new UsageError(`--budget must be tight, medium, roomy or a whole number of tokens, not "${text}"`);
}

/** One case's decision trace as a table: every candidate, what happened and what it cost. */
export async function traceCommand(a: TraceArgs, io: Io): Promise<ExitCode> {
  const [strategy] = (await pickStrategies([a.strategy])) as [Strategy];
  const budget = parseBudget(a.budget);
  const corpus = loadCorpus(a.corpus);
  const kase = corpus.cases.find((c) => c.name === a.case);
  if (kase === undefined) {
    throw new UsageError(`unknown case "${a.case}" (known: ${corpus.cases.map((c) => c.name).join(', ')})`);
  }
  const request = requestAt(kase, budget);
  checkInputs(request, kase.candidates, corpus.policy, {
    request: `${corpus.dir}/${kase.name}.request.json`,
    candidates: `${corpus.dir}/${kase.name}.candidates.json`,
    policy: corpus.policyFile,
  });
  const ledger =
    strategy.readsLedger === true ? loadLedger(ledgerDirFor(corpus), corpus).get(kase.name) : undefined;
  const compiled = compileWith(
    strategy,
    strategyInput(strategy, { request, candidates: kase.candidates, policy: corpus.policy, ledger }),
  );
  if (compiled.reason === STRATEGY_ERROR) {
    io.err(`ctxbench: ${String(compiled.extras.error)}\n`);
    return EXIT.checkFailed;
  }
  const result = compiled.record as CompilationResult;
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
  const outcome = result.success
    ? `bundle of ${result.bundle_tokens} tokens, hash ${result.bundle_hash}`
    : `refused ${result.failure?.reason}: ${result.failure?.diagnostic}`;
  io.out(`${kase.name} at ${request.usable_token_budget} tokens (${strategy.name}): ${outcome}\n\n`);
  io.out(
    textTable(
      [
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
      ],
      rows,
      ['left', 'left', 'left', 'left', 'right', 'right', 'right', 'right', 'left', 'right'],
    ),
  );
  return EXIT.ok;
}
