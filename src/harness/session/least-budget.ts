import type { Compiled } from '../types.js';

/**
 * The least budget above `refused` at which a compilation is what `wanted` asks (a bundle; a bundle
 * that admits one candidate), by bisection up to `ceiling` plus room for the rendering: a bounded
 * number of compilations, no clock. Null when even the top budget is not. Bisection assumes that
 * what holds at one budget holds at any larger, which the compilers keep for a bundle; otherwise
 * the answer is a budget that works, not always the least.
 */
export async function leastBudget<T = Compiled>(
  compileAt: (budget: number) => Promise<T>,
  refused: number,
  ceiling: number,
  wanted: (c: T) => boolean,
): Promise<number | null> {
  let hi = Math.max(refused + 1, ceiling * 2 + 1000);
  if (!wanted(await compileAt(hi))) return null;
  let lo = refused;
  while (hi - lo > 1) {
    const mid = Math.floor((lo + hi) / 2);
    if (wanted(await compileAt(mid))) hi = mid;
    else lo = mid;
  }
  return hi;
}
