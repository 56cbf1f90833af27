/**
 * The study matrix: cases in sorted order, budgets tight, medium, roomy, strategies in registry
 * order. Each compilation is run through the one selection path and scored against the ledger.
 */
import { bundleToJSON } from '../compiler/index.js';
import { strategyInput } from './compile.js';
import { BUDGETS, type BudgetName, type Corpus, type CorpusCase, requestAt } from './corpus.js';
import { auditOf } from './objective.js';
import { NO_METRICS, score } from './score.js';
import { type Compiled, compileWith, errorRow } from './selection.js';
import { type CaseLedger, type Row, STRATEGY_ERROR, type Strategy, type StrategyInput } from './types.js';

export interface CompilationLine {
  readonly case: string;
  readonly budget: BudgetName;
  readonly strategy: string;
  readonly bundle: unknown;
  readonly result: unknown;
  readonly rendered_text: string | null;
}

export interface Cell {
  readonly kase: CorpusCase;
  readonly budget: BudgetName;
  readonly strategy: Strategy;
}

/** The matrix in loop order. */
export const cells = (corpus: Corpus, strategies: readonly Strategy[]): Cell[] =>
  corpus.cases.flatMap((kase) =>
    BUDGETS.flatMap((budget) => strategies.map((strategy) => ({ kase, budget, strategy }))),
  );

/** The input of a cell's strategy (the ledger only if it reads it, see `strategyInput`). */
export function inputFor(cell: Cell, corpus: Corpus, ledger: CaseLedger | undefined): StrategyInput {
  const { kase } = cell;
  const request = requestAt(kase, cell.budget);
  return strategyInput(cell.strategy, {
    request,
    candidates: kase.candidates,
    policy: corpus.policy,
    ledger,
    annotations: kase.annotations,
  });
}

export function rowOf(cell: Cell, out: Compiled, ledger: CaseLedger, input: StrategyInput): Row {
  const budgetTokens = cell.kase.budgets[cell.budget];
  const expected = cell.kase.expected[cell.budget];
  const metrics =
    out.reason === STRATEGY_ERROR
      ? NO_METRICS
      : score(
          {
            admitted: out.success ? out.admitted : null,
            reason: out.reason,
            renderedTokens: out.renderedTokens,
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
    success: out.success,
    reason: out.reason,
    admitted: out.admitted,
    bundle_hash: out.bundle === null ? null : (out.result?.bundle_hash as string),
    rendered_tokens: out.renderedTokens,
    ...metrics,
    expected: { success: expected.success, reason: expected.reason },
    audit: out.success ? auditOf(input, out.admitted) : null,
    extras: out.extras,
  };
}

export function compilationOf(cell: Cell, out: Compiled): CompilationLine {
  return {
    case: cell.kase.name,
    budget: cell.budget,
    strategy: cell.strategy.name,
    bundle: out.bundle === null ? null : bundleToJSON(out.bundle),
    result: out.result,
    rendered_text: out.renderedText,
  };
}

export interface CellResult {
  readonly row: Row;
  readonly compilation: CompilationLine;
}

/** Run one cell: the strategy's compilation, its row, its line of compilations.jsonl. */
export function runCell(cell: Cell, corpus: Corpus, ledger: ReadonlyMap<string, CaseLedger>): CellResult {
  return finishCell(cell, corpus, ledger, (input) => compileWith(cell.strategy, input));
}

/** A cell whose compilation never came back (a worker stopped by the watchdog): an error row. */
export function failedCell(
  cell: Cell,
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  message: string,
) {
  return finishCell(cell, corpus, ledger, () => errorRow(message));
}

function finishCell(
  cell: Cell,
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  compile: (input: StrategyInput) => Compiled,
): CellResult {
  const truth = ledger.get(cell.kase.name) as CaseLedger;
  const input = inputFor(cell, corpus, truth);
  const out = compile(input);
  return { row: rowOf(cell, out, truth, input), compilation: compilationOf(cell, out) };
}

/**
 * Run every cell in loop order, handing each compilation to `sink` as it is made; returns the
 * rows. Deterministic: the same corpus gives the same rows.
 */
export function runStudy(
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  strategies: readonly Strategy[],
  sink: (line: CompilationLine) => void = () => {},
): Row[] {
  return cells(corpus, strategies).map((cell) => {
    const { row, compilation } = runCell(cell, corpus, ledger);
    sink(compilation);
    return row;
  });
}
