/**
 * When each path last changed before each case, from the history `commits` already read: the
 * freshness reason of an ingested file.
 */
import type { Commit } from '../ingest-types.js';

/** When each path last changed, from one pass over the history. */
export interface LastChange {
  /**
   * The committer time (Unix seconds) of the last commit strictly before `commitIndex` (an index
   * into the oldest-first list given to `lastChanges`) that added or changed `path`, or null.
   */
  lastChangeBefore(path: string, commitIndex: number): number | null;
}

/**
 * When each path last changed before each commit, from the history `commits` already read (the
 * repository is not asked again: one git process per file would be too slow on large trees).
 */
export function lastChanges(history: readonly Commit[]): LastChange {
  // For each path, the indices of the commits that left it with new content, ascending.
  const changedAt = new Map<string, number[]>();
  history.forEach((commit, index) => {
    for (const change of commit.changes) {
      if (change.status === 'D') continue;
      const at = changedAt.get(change.path);
      if (at === undefined) changedAt.set(change.path, [index]);
      else if (at[at.length - 1] !== index) at.push(index);
    }
  });
  return {
    lastChangeBefore(file: string, commitIndex: number): number | null {
      const at = changedAt.get(file);
      if (at === undefined) return null;
      // The last index below commitIndex, by binary search.
      let lo = 0;
      let hi = at.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((at[mid] ?? Number.POSITIVE_INFINITY) < commitIndex) lo = mid + 1;
        else hi = mid;
      }
      const found = lo === 0 ? undefined : at[lo - 1];
      return found === undefined ? null : (history[found]?.time ?? null);
    },
  };
}
