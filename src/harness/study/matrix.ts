/**
 * The study matrix: cases in sorted order, budgets tight, medium, roomy, strategies in registry
 * order. Each compilation is run through the one selection path and scored against the ledger.
 */
import { bundleToJSON } from '../../compiler/index.js';
import { auditTokens, realTokens } from '../corpus/index.js';
import { caseInputs, strategyInput } from '../hosts/index.js';
import { auditOf } from '../kit/index.js';
import { measureBundle, NO_METRICS, score } from '../metrics/index.js';
import { byReference, corpusTexts } from '../runfolder/index.js';
import { rowOutcome } from '../session/index.js';
import type {
  BudgetName,
  CaseLedger,
  CompilationLine,
  Compiled,
  Corpus,
  CorpusCase,
  RealTokens,
  Row,
  Strategy,
  StrategyInfo,
  StrategyInput,
} from '../types.js';
import { BUDGETS } from '../vocabulary.js';

export interface Cell<S extends StrategyInfo = Strategy> {
  readonly kase: CorpusCase;
  readonly budget: BudgetName;
  readonly strategy: S;
}

/** The matrix in loop order. */
export const cells = <S extends StrategyInfo>(corpus: Corpus, strategies: readonly S[]): Cell<S>[] =>
  corpus.cases.flatMap((kase) =>
    BUDGETS.flatMap((budget) => strategies.map((strategy) => ({ kase, budget, strategy }))),
  );

/** A cell's row: its outcome, every metric against the ledger, the audit, the extras. */
export function rowOf(
  cell: Cell<StrategyInfo>,
  out: Compiled,
  ledger: CaseLedger,
  input: StrategyInput,
  real: RealTokens | null,
): Row {
  const budgetTokens = cell.kase.budgets[cell.budget];
  const expected = cell.kase.expected[cell.budget];
  const o = rowOutcome(out);
  const metrics =
    out.outcome === 'error'
      ? NO_METRICS
      : score(
          {
            admitted: o.success ? o.admitted : null,
            reason: o.reason,
            renderedTokens: o.renderedTokens,
            budget: budgetTokens,
          },
          expected,
          cell.kase.candidates,
          ledger,
        );
  return {
    case: cell.kase.name,
    budget: cell.budget,
    budget_tokens: budgetTokens,
    strategy: cell.strategy.name,
    success: o.success,
    reason: o.reason,
    admitted: o.admitted,
    bundle_hash: o.bundleHash,
    rendered_tokens: o.renderedTokens,
    ...metrics,
    expected: { success: expected.success, reason: expected.reason },
    audit:
      out.outcome === 'bundle' ? { ...auditOf(input, out.admitted), real_tokens: real as RealTokens } : null,
    extras: out.extras,
    measures:
      out.outcome === 'bundle'
        ? measureBundle(
            {
              live: out.live,
              request: input.request,
              policy: input.policy,
              renderedTokens: out.renderedTokens,
              budget: budgetTokens,
              extras: out.extras,
            },
            cell.kase.candidates,
            ledger,
          )
        : null,
  };
}

export function compilationOf(cell: Cell<StrategyInfo>, out: Compiled): CompilationLine {
  return {
    case: cell.kase.name,
    budget: cell.budget,
    strategy: cell.strategy.name,
    bundle: out.outcome === 'bundle' ? bundleToJSON(out.bundle) : null,
    result: out.outcome === 'error' ? null : out.result,
    rendered_text: out.outcome === 'bundle' ? out.renderedText : null,
    // Only an own layout is written: `validate` must know the order is the strategy's word.
    ...(out.outcome === 'bundle' && out.layout === 'own' ? { layout: out.layout } : {}),
  };
}

export interface CellResult {
  readonly row: Row;
  readonly compilation: CompilationLine;
}

interface Measured {
  readonly cell: Cell<StrategyInfo>;
  readonly corpus: Corpus;
  readonly out: Compiled;
  readonly truth: CaseLedger;
  readonly input: StrategyInput;
}

function measured(
  cell: Cell<StrategyInfo>,
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  compile: (input: StrategyInput) => Compiled,
): Measured {
  const truth = ledger.get(cell.kase.name) as CaseLedger;
  const input = strategyInput(cell.strategy, caseInputs(cell.kase, cell.budget, corpus.policy, truth));
  return { cell, corpus, out: compile(input), truth, input };
}

/** A cell's row and line; an ingested corpus's line holds its texts by reference to the corpus. */
function resultOf(m: Measured, real: RealTokens | null): CellResult {
  const line = compilationOf(m.cell, m.out);
  return {
    row: rowOf(m.cell, m.out, m.truth, m.input, real),
    compilation: m.corpus.ingested ? byReference(line, corpusTexts(m.corpus)) : line,
  };
}

/** A cell's row and line from a compilation made by `compile`, here or in a strategy's process. */
export function finishCell(
  cell: Cell<StrategyInfo>,
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  compile: (input: StrategyInput) => Compiled,
): CellResult {
  const m = measured(cell, corpus, ledger, compile);
  return resultOf(m, m.out.outcome === 'bundle' ? realTokens(m.out.renderedText) : null);
}

/** The same, its rendered text counted by the audit's thread (`warmTokenAudit`), the same numbers. */
export async function finishCellAudited(
  cell: Cell<StrategyInfo>,
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  compile: (input: StrategyInput) => Compiled,
): Promise<CellResult> {
  const m = measured(cell, corpus, ledger, compile);
  return resultOf(m, m.out.outcome === 'bundle' ? await auditTokens(m.out.renderedText) : null);
}
