/**
 * The candidates of a large corpus held a few cases at a time. An ingested corpus (its texts
 * stored by digest, `blobs.ts`) can hold thousands of files per case and a hundred cases: SWE-bench
 * Lite's 140 took 1.6 GB to hold at once, where a study needs the cases it is running and no
 * other. Each case is read and checked whole when the corpus is loaded, as any corpus is; its
 * candidates are then read again when next asked for and kept while they are among the last
 * HELD_CASES asked. The same file gives the same candidates, so nothing a reader sees changes
 * but when its texts are read.
 */
import type { ContextCandidate } from '../../compiler/index.js';
import type { CorpusCase } from '../types.js';

/**
 * How many cases' candidates stay read: each of a study's two jobs runs one case at a time, and
 * the cells of the case before may still be being measured (study/slice.ts); the two more are
 * for a measure that falls further behind. A case asked for once more is read again, not lost.
 */
export const HELD_CASES = 6;

const identities = new WeakMap<CorpusCase, ReadonlySet<string>>();

// Not lint-corpus's identitiesOf: that module reads corpus folders (folder.ts), which hold cases here.
const identitiesIn = (pool: readonly ContextCandidate[]): Set<string> =>
  new Set(pool.map((c) => c.content_identity));

/** The content identities of a case's pool: remembered for a held case, which need not be read for them. */
export const caseIdentities = (c: CorpusCase): ReadonlySet<string> =>
  identities.get(c) ?? identitiesIn(c.candidates);

/** The cases of one corpus whose candidates are read when asked for, the last HELD_CASES kept. */
export class HeldCases {
  private readonly recent = new Map<string, readonly ContextCandidate[]>();

  /**
   * `kase` as read and checked, its candidates let go: read again by `read` when next asked for.
   * Its other fields are kept as they are.
   */
  hold(kase: CorpusCase, read: () => readonly ContextCandidate[]): CorpusCase {
    const { candidates, ...rest } = kase;
    const name = kase.name;
    const held = Object.defineProperty({ ...rest } as CorpusCase, 'candidates', {
      enumerable: true,
      get: () => this.get(name, read),
    });
    identities.set(held, identitiesIn(candidates));
    return held;
  }

  private get(name: string, read: () => readonly ContextCandidate[]): readonly ContextCandidate[] {
    let candidates = this.recent.get(name);
    if (candidates === undefined) {
      candidates = read();
      if (this.recent.size >= HELD_CASES) this.recent.delete(this.recent.keys().next().value as string);
    } else this.recent.delete(name);
    this.recent.set(name, candidates);
    return candidates;
  }
}
