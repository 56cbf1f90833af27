/**
 * An error row's claim checked by asking its strategy the cell again, through the study's own
 * runner (`runSlice`) and the run's own way of asking (answering.ts). Strategies are
 * deterministic, so an error that is true recurs, with the same message; one that does not was
 * not the strategy's. A timeout or running out of memory is the machine's word as much as the
 * strategy's: how busy the machine was is gone with the run, so asking again can neither confirm
 * nor refute it, and such a claim is said to be not re-checkable, never taken as true.
 */
import type { CaseLedger, Corpus, Row, StrategyInfo } from '../types.js';
import { STRATEGY_ERROR } from '../vocabulary.js';
import type { Cell } from './matrix.js';
import { type Ask, runSlice } from './slice.js';

/** An error row: its cell (its strategy as the run's answering knows it) and its message. */
export interface ErrorClaim {
  readonly cell: Cell<StrategyInfo>;
  readonly message: string;
}

/** What asking again says of a claim that did not recur: refuted, or no verdict (`unchecked`). */
export interface Recheck {
  readonly unchecked: boolean;
  readonly text: string;
}

/**
 * The words hosts.ts ends a cell with when the machine decided it: a clock that ran out, a heap
 * that filled, a process killed from outside or that could not be started or reached.
 */
const MACHINE: readonly [RegExp, string][] = [
  [/ timed out\b|did not (arrive|load) within/, 'a timeout'],
  [/ran out of memory/, 'running out of memory'],
  [/was killed by SIG|could not be started|could not be reached/, 'a process killed or lost'],
];

/** What machine-bound failure a message says, or null when it is the strategy's own doing. */
export function machineBound(message: string): string | null {
  return MACHINE.find(([pattern]) => pattern.test(message))?.[1] ?? null;
}

/** A message in a line of output: one line whatever it holds, and not too long to read. */
const quoted = (message: string): string =>
  JSON.stringify(message.length > 160 ? `${message.slice(0, 160)}...` : message);

function unchecked(claim: ErrorClaim, what: string, again: string | null): Recheck {
  const name = claim.cell.strategy.name;
  const said = again === null ? '' : `; asked again, ${name} failed with ${quoted(again)}`;
  return {
    unchecked: true,
    text: `an error row (${quoted(claim.message)}): ${what} cannot be re-checked, as it depends on the machine and its load${said}`,
  };
}

/** The verdict on a claim from the row its cell gives when asked again; null when the error recurs. */
function verdictOf(claim: ErrorClaim, row: Row): Recheck | null {
  const name = claim.cell.strategy.name;
  const again = typeof row.extras.error === 'string' ? row.extras.error : '';
  if (row.reason === STRATEGY_ERROR) {
    if (again === claim.message) return null;
    const what = machineBound(again);
    if (what !== null) return unchecked(claim, what, again);
  }
  const now =
    row.reason === STRATEGY_ERROR
      ? `fails with another message, ${quoted(again)}`
      : row.success
        ? 'answers with a bundle'
        : `answers with a refusal (${String(row.reason)})`;
  return {
    unchecked: false,
    text: `an error row (${quoted(claim.message)}), but ${name} ${now} when asked this cell again`,
  };
}

/**
 * Each claim's verdict, in order: null when asking its cell again gives the same error. A claim
 * of a machine-bound failure is not asked again (a timeout would cost its whole time for nothing).
 */
export async function recheckErrors(
  claims: readonly ErrorClaim[],
  corpus: Corpus,
  ledger: ReadonlyMap<string, CaseLedger>,
  ask: Ask,
): Promise<(Recheck | null)[]> {
  const verdicts = claims.map((c): Recheck | null => {
    const what = machineBound(c.message);
    return what === null ? null : unchecked(c, what, null);
  });
  const asked = claims.flatMap((c, k) => (verdicts[k] === null ? [{ k, c }] : []));
  const rows: Row[] = [];
  await runSlice(
    {
      corpus,
      ledger,
      matrix: asked.map((a) => a.c.cell),
      from: 0,
      to: asked.length,
      take: (r) => rows.push(r),
    },
    { jobs: 1, ask },
  );
  asked.forEach(({ k, c }, j) => {
    verdicts[k] = verdictOf(c, rows[j] as Row);
  });
  return verdicts;
}
