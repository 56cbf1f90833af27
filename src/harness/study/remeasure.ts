/**
 * One cell of a run folder measured again from what its compilation line records. The line's
 * selection (the admitted ids or the refusal, and the trace) and the row's extras go back through
 * the study's own measuring (`compileAnswer`, `finishCell`), so what comes out is the row and the
 * line the study writes for that selection; both are compared with the stored ones to the byte.
 * No strategy runs here: what a strategy chose is taken as its word, and everything derived from
 * it (the bundle, its text, hash and cost, the result and trace, every metric) is not. An error
 * row has no selection to measure: its claim is handed back (`error`) to be asked again.
 */
import { isPlainObject, readBundle, readResult } from '../../compiler/index.js';
import { checkCompilation, derivedExtrasAwaited, extrasVerdict, problemText } from '../audit/index.js';
import type { Answer } from '../hosts/index.js';
import { caseInputs, type Inputs } from '../hosts/index.js';
import { corpusTexts, expandLine } from '../runfolder/index.js';
import { compileAnswer, errorCompiled } from '../session/index.js';
import type { CaseLedger, CompilationLine, Corpus, CorpusCase, Row, StrategyInfo } from '../types.js';
import { type Cell, finishCell } from './matrix.js';

/** What a cell's stored row and line come to. */
export interface CellCheck {
  /** The row the study writes for the line's selection; null when the line or the cell's own row gives none. */
  readonly row: Row | null;
  readonly line: CompilationLine | null;
  /** The first disagreement in each file, or null. */
  readonly rows: string | null;
  readonly compilations: string | null;
  /**
   * An error row's message when the row and its line are what the study writes for it: the one
   * claim re-deriving cannot check, since no selection was made. Asking the strategy again can
   * (recheck.ts). Null for any other cell.
   */
  readonly error: string | null;
}

/**
 * Checks done on a compilation that describe the strategy's selection, not the record: an illegal
 * or over-budget bundle is a result the row measures (`audit.legal`, `budget_compliant`), not a
 * forgery, and so is a candidate's content that reads like the frame.
 */
const MEASURED = new Set(['legal', 'budget', 'frame']);

const cellName = (c: { readonly case: unknown; readonly budget: unknown; readonly strategy: unknown }) =>
  `${String(c.case)}/${String(c.budget)}/${String(c.strategy)}`;

const parsed = (text: string): { value: unknown } | null => {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
};

/**
 * The first place two JSON values differ, as a path (`audit.legal`, `bundle.items[2].content`).
 * Unlike checks' firstDifference, key order counts: a run folder is compared to the byte.
 */
function firstByteDifference(a: unknown, b: unknown, at = ''): string | null {
  if (JSON.stringify(a) === JSON.stringify(b)) return null;
  if (Array.isArray(a) && Array.isArray(b)) {
    for (let k = 0; k < Math.max(a.length, b.length); k++) {
      const d = firstByteDifference(a[k], b[k], `${at}[${k}]`);
      if (d !== null) return d;
    }
  } else if (isPlainObject(a) && isPlainObject(b)) {
    const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
    for (const key of keys) {
      const d = firstByteDifference(a[key], b[key], at === '' ? key : `${at}.${key}`);
      if (d !== null) return d;
    }
    return at === '' ? 'the order of the fields' : `${at} (the order of its fields)`;
  }
  return at === '' ? 'the whole line' : at;
}

/** The selection a stored line records, with `extras`, as a strategy's answer: what the study measured. */
function answerOf(line: Record<string, unknown>, extras: unknown): Answer {
  const result = isPlainObject(line.result) ? line.result : {};
  const trace = isPlainObject(result.trace) ? result.trace.entries : undefined;
  if (result.success === true) {
    const items = isPlainObject(line.bundle) && Array.isArray(line.bundle.items) ? line.bundle.items : [];
    const admitted = items.map((i: unknown) => (isPlainObject(i) ? i.id : i));
    return { ok: true, text: JSON.stringify({ admitted, layout: line.layout, trace, extras }) };
  }
  const f = isPlainObject(result.failure) ? result.failure : {};
  const refusal = {
    reason: f.reason,
    blocking_ids: f.blocking_ids,
    diagnostic: f.diagnostic,
    budget_used: f.budget_used,
  };
  // A layout on a refusal's line makes the selection malformed, so the line cannot come back as written.
  return { ok: true, text: JSON.stringify({ refusal, layout: line.layout, trace, extras }) };
}

/** The compilation checks that concern the record, each as one line; a line unreadable as one is one. */
function recordProblems(line: Record<string, unknown>, inputs: Inputs): string[] {
  try {
    const result = readResult(line.result, { anyReason: true });
    const bundle = line.bundle === null || line.bundle === undefined ? null : readBundle(line.bundle);
    const layout = line.layout === 'own' ? 'own' : undefined;
    return checkCompilation({ bundle, result, rendered_text: line.rendered_text ?? null, layout }, inputs)
      .filter((p) => !MEASURED.has(p.rule))
      .map(problemText);
  } catch (e) {
    return [`cannot be read as a compilation: ${(e as Error).message}`];
  }
}

// The inputs of a case at a budget, one object for all its cells: what is derived from them
// (the compiler's runs, the answers whose extras are derived) is made once for them all.
const shared = new WeakMap<CorpusCase, Map<string, Inputs>>();

function cellInputs(cell: Cell<StrategyInfo>, corpus: Corpus): Inputs {
  const byBudget = shared.get(cell.kase) ?? new Map<string, Inputs>();
  shared.set(cell.kase, byBudget);
  let inputs = byBudget.get(String(cell.budget));
  if (inputs === undefined || inputs.policy !== corpus.policy) {
    inputs = caseInputs(cell.kase, cell.budget, corpus.policy, undefined);
    byBudget.set(String(cell.budget), inputs);
  }
  return inputs;
}

/**
 * The extras a cell's row must carry: those its compilation's inputs decide (checks' extras.ts),
 * with why the row's are not them, or the row's own (a strategy's words) when nothing derives them.
 */
async function extrasOf(
  cell: Cell<StrategyInfo>,
  stored: Record<string, unknown>,
  inputs: Inputs,
  claims: unknown,
): Promise<{ readonly want: unknown; readonly problem: string | null }> {
  const written = isPlainObject(claims) ? claims.extras : undefined;
  const sets = stored.result === null ? null : await derivedExtrasAwaited(inputs, stored.result);
  return sets === null ? { want: written, problem: null } : extrasVerdict(sets, written, cell.strategy.name);
}

/** Why a stored line is not the cell the study writes at its place, or null when it is. */
function placeProblem(
  what: string,
  text: string | undefined,
  line: { value: unknown } | null,
  want: string,
): string | null {
  if (text === undefined) return `no ${what}: the study writes ${want} here`;
  if (line === null) return 'not JSON';
  const value = line.value;
  const is = isPlainObject(value)
    ? cellName({ case: value.case, budget: value.budget, strategy: value.strategy })
    : null;
  return is === want ? null : `is the ${what} of ${is ?? 'no cell'}, but the study writes ${want} here`;
}

/**
 * A cell's stored row and compilation line (their text, undefined when missing) against what the
 * study writes at that place of the loop order. `ownRow` is the stored row of this cell wherever
 * it stands, for the strategy's extras (an error row's message among them): they are its own
 * words, not derived, so a row out of place must not lend its words to this cell.
 */
export async function checkCell(
  cell: Cell<StrategyInfo>,
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  rowText: string | undefined,
  lineText: string | undefined,
  ownRow: string | undefined,
): Promise<CellCheck> {
  const want = cellName({ case: cell.kase.name, budget: cell.budget, strategy: cell.strategy.name });
  const row = rowText === undefined ? null : parsed(rowText);
  const line = lineText === undefined ? null : parsed(lineText);
  const rowsSay = placeProblem('row', rowText, row, want);
  const linesSay = placeProblem('compilation', lineText, line, want);
  if (linesSay !== null || line === null || !isPlainObject(line.value))
    return { row: null, line: null, rows: rowsSay, compilations: linesSay, error: null };
  const stored = line.value;
  // What the line says, its texts read back where it holds them by reference to the corpus.
  let said: Record<string, unknown>;
  try {
    said = corpus.ingested ? expandLine(stored, corpusTexts(corpus)) : stored;
  } catch (e) {
    const text = `cannot be read back: ${(e as Error).message}`;
    return { row: null, line: null, rows: rowsSay, compilations: text, error: null };
  }
  const storedRow = row?.value;
  const claims = ownRow === rowText ? storedRow : ownRow === undefined ? undefined : parsed(ownRow)?.value;
  const message =
    isPlainObject(claims) && isPlainObject(claims.extras) && typeof claims.extras.error === 'string'
      ? claims.extras.error
      : '';
  const inputs = cellInputs(cell, corpus);
  const extras = await extrasOf(cell, said, inputs, claims);
  let again: { row: Row; compilation: CompilationLine };
  try {
    again = finishCell(cell, corpus, ledger, (input) =>
      said.result === null
        ? errorCompiled(message)
        : compileAnswer(cell.strategy.name, input, answerOf(said, extras.want)),
    );
  } catch (e) {
    const text = `its selection cannot be measured again: ${(e as Error).message}`;
    return { row: null, line: null, rows: rowsSay, compilations: text, error: null };
  }
  const problems = said.result === null ? [] : recordProblems(said, inputs);
  const lineDiff = firstByteDifference(stored, again.compilation);
  const compilations =
    lineDiff !== null
      ? `${lineDiff} differs from the compilation re-derived from its selection and inputs`
      : lineText !== JSON.stringify(again.compilation)
        ? 'is not written as the study writes it'
        : (problems[0] ?? null);
  const rowDiff = rowsSay === null ? firstByteDifference(storedRow, again.row) : null;
  const rows =
    rowsSay ??
    (rowDiff !== null
      ? rowDiff.startsWith('extras') && extras.problem !== null
        ? extras.problem
        : `${rowDiff} differs from the row re-derived from its compilation and the inputs`
      : rowText !== JSON.stringify(again.row)
        ? 'is not written as the study writes it'
        : null);
  // Without the cell's own row its words are unknown, and so is the row the study wrote.
  const claimed = said.result === null && claims !== undefined && rows === null && compilations === null;
  return {
    row: claims === undefined ? null : again.row,
    line: again.compilation,
    rows,
    compilations,
    error: claimed ? message : null,
  };
}
