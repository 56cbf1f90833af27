/**
 * One machine's share of a SWE-bench ingest (`ingest --swe-bench ... --shard i/n`): the i-th of n
 * contiguous slices of the selected instances in the order ingest writes them (repository, then
 * instance number), so that a shard needs few repositories. A slice's cases are the very bytes a
 * whole ingest writes for them: a repository the slice touches is still read at every base commit
 * of the selection, since the relevance index (BM25 over every version read) weighs a term by the
 * versions that hold it. What `merge` needs to join the slices (swe-join.ts) is written in the
 * manifest's `ingest.shard`.
 */
import { createHash } from 'node:crypto';
import { UsageError } from '../../errors.js';
import { sliceOf } from '../../shard.js';
import type { Shard, ShardInfo } from '../../types.js';
import type { Skips } from '../blob-facts.js';
import { byInstanceId, type Instance } from './swe-records.js';

/** `ingest.shard` of a slice's manifest. */
export interface SliceBlock extends ShardInfo {
  /** The SHA-256 of the selection's instance ids in ingest order, a line each: which set this is a slice of. */
  readonly selection: string;
  /** Every (path, version) skipped while reading, with the reason: the whole ingest's counts are of their union. */
  readonly skips: readonly (readonly [string, string, string])[];
}

/** The selected instances in the order ingest writes them: by repository, then by number. */
export function ingestOrder(chosen: readonly Instance[]): Instance[] {
  return [...chosen].sort((a, b) => (a.repo === b.repo ? byInstanceId(a, b) : a.repo < b.repo ? -1 : 1));
}

/** A slice of the ordered selection: its place and the ids it writes. */
export interface Slice {
  readonly info: ShardInfo;
  readonly selection: string;
  readonly ids: ReadonlySet<string>;
}

export function sliceSelection(ordered: readonly Instance[], shard: Shard): Slice {
  const info = sliceOf(shard, ordered.length);
  if (info.from === info.to)
    throw new UsageError(
      `--shard ${shard.index}/${shard.count}: that slice of the ${ordered.length} selected instances is empty; give at most ${ordered.length} shards`,
    );
  const selection = createHash('sha256')
    .update(ordered.map((i) => `${i.instance_id}\n`).join(''))
    .digest('hex');
  return { info, selection, ids: new Set(ordered.slice(info.from, info.to).map((i) => i.instance_id)) };
}

/** The manifest block of a slice, its skips sorted so that the same slice gives the same bytes. */
export function sliceBlock(slice: Slice, skips: Skips): SliceBlock {
  const list = [...skips.seen].map(([key, reason]) => {
    const cut = key.lastIndexOf('\n');
    return [key.slice(0, cut), key.slice(cut + 1), reason] as const;
  });
  list.sort((a, b) => (a[0] === b[0] ? (a[1] < b[1] ? -1 : 1) : a[0] < b[0] ? -1 : 1));
  return { ...slice.info, selection: slice.selection, skips: list };
}
