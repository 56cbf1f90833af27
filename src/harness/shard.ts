/** Shards: the i-th of n contiguous slices of an ordered list (a study's loop order, an ingest's instances), for one job each. */
import { UsageError } from './errors.js';
import type { Shard, ShardInfo } from './types.js';

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw new UsageError(`--shard must be i/n with 1 <= i <= n, not "${text}"`);
  return { index, count };
}

export function sliceOf(shard: Shard, total: number): ShardInfo {
  const from = Math.floor(((shard.index - 1) * total) / shard.count);
  const to = Math.floor((shard.index * total) / shard.count);
  return { ...shard, from, to, total };
}
