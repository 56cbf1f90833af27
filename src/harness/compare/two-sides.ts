/**
 * What `compare` is given, as two sides: two run folders, or two strategies of one run paired by
 * case and budget; and report.html's page of them, made only when asked for.
 */
import { UsageError } from '../errors.js';
import { type RunFolder, readRunFolder, runInputs } from '../runfolder/index.js';
import { strategyPair } from './runs.js';
import { comparisonPage, strategiesPage } from './two-runs-page.js';

export interface TwoSides {
  readonly runs: readonly [RunFolder, RunFolder];
  readonly page: () => Promise<string>;
}

/** The files of the runs named that a comparison reads: an output written beside them must be none. */
export const sideFiles = (a: string, b: string | undefined): string[] =>
  [a, ...(b === undefined ? [] : [b])].flatMap(runInputs);

/** The two sides, two run folders or two strategies of one, and report.html's page of them. */
export function twoSides(a: string, b: string | undefined, strategies: string | undefined): TwoSides {
  if (strategies === undefined) {
    if (b === undefined) throw new UsageError('name two run folders, or one with --strategies a,b');
    const runs = [readRunFolder(a), readRunFolder(b)] as const;
    return { runs, page: () => comparisonPage(...runs) };
  }
  if (b !== undefined)
    throw new UsageError('--strategies compares two strategies of one run: give one run folder');
  const names = strategies.split(',');
  const [x, y] = names;
  if (names.length !== 2 || x === undefined || y === undefined || x === '' || y === '' || x === y)
    throw new UsageError(`--strategies takes two different strategies, a,b, not "${strategies}"`);
  const run = readRunFolder(a);
  const held = new Set(run.rows.map((r) => r.strategy));
  const missing = names.filter((n) => !held.has(n));
  if (missing.length > 0)
    throw new UsageError(
      `${a} holds no rows of ${missing.join(', ')} (it holds ${[...held].join(', ') || 'no rows'})`,
    );
  return { runs: strategyPair(run, x, y), page: () => strategiesPage(run, x, y) };
}
