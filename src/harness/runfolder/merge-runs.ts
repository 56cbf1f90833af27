/**
 * The merge of shard run folders (the i-th of n slices of the loop order, each a run folder of
 * its own) into the run folder one unsharded run would have written.
 */

import path from 'node:path';
import { forEachLine } from '../corpus/index.js';
import { InputError, UsageError } from '../errors.js';
import { count } from '../format.js';
import { jsonText, writeWholeAsync } from '../output/index.js';
import type { ShardInfo } from '../types.js';
import { RUN_FILE } from './files.js';
import type { RunManifest } from './manifest.js';
import { type RunFolder, readRunFolder } from './read-run.js';
import { writeRows } from './rows.js';
import { folderTexts } from './run-texts.js';

/** A run folder read for a merge, its manifest required. */
export interface MergeFolder {
  readonly run: RunFolder;
  /** Its manifest's file, which every refusal names. */
  readonly file: string;
  readonly m: RunManifest;
}

interface ShardFolder extends MergeFolder {
  readonly shard: ShardInfo;
}

const same = (x: unknown, y: unknown) => JSON.stringify(x) === JSON.stringify(y);
const corpusOf = (m: RunManifest) => ({ name: m.corpus.name, digest: m.corpus.digest });

/** The run folder `dir` for a merge: one without a manifest is refused. */
export function mergeFolder(dir: string): MergeFolder {
  const run = readRunFolder(dir);
  const file = path.join(dir, RUN_FILE.manifest);
  if (run.manifest === null) throw new InputError(file, 'no manifest: not a run folder');
  return { run, file, m: run.manifest };
}

/** What two runs to be merged must share, the first they do not, or null. */
export const differsOn = (m: RunManifest, first: RunManifest): 'strategies' | 'policy' | null =>
  (['strategies', 'policy'] as const).find((key) => !same(m[key], first[key])) ?? null;

/** The shard folders in slice order, once each checked to be slices of one and the same run. */
function readShards(dirs: readonly string[]): ShardFolder[] {
  const shards = dirs.map((dir) => {
    const { run, file, m } = mergeFolder(dir);
    if (!m.shard)
      throw new InputError(
        file,
        `not a shard (no "shard" in the manifest; the studies of an ingest's slices merge with --corpus)`,
      );
    return { run, file, m, shard: m.shard };
  });
  shards.sort((a, b) => a.shard.index - b.shard.index);
  const first = shards[0];
  if (first === undefined) throw new UsageError('merge needs shard folders');
  for (const [k, s] of shards.entries()) {
    if (s.shard.count !== shards.length || s.shard.index !== k + 1) {
      throw new InputError(
        s.file,
        `shard ${s.shard.index}/${s.shard.count}: need each of 1..${s.shard.count} once`,
      );
    }
    if (s.shard.from !== (shards[k - 1]?.shard.to ?? 0) || s.shard.total !== first.shard.total) {
      throw new InputError(s.file, 'shard slices do not join up');
    }
    if (!same(corpusOf(s.m), corpusOf(first.m)))
      throw new InputError(s.file, 'shards disagree on the corpus');
    const key = differsOn(s.m, first.m);
    if (key !== null) throw new InputError(s.file, `shards disagree on ${key}`);
  }
  return shards;
}

/** Join shard folders (any order) into the run folder of the whole matrix. */
export async function mergeShards(
  dirs: readonly string[],
  out: string,
  command: readonly string[],
  version: string,
): Promise<number> {
  const shards = readShards(dirs);
  const first = shards[0] as ShardFolder;
  const rows = shards.flatMap((s) => s.run.rows);
  if (rows.length !== first.shard.total)
    throw new UsageError(`the shards hold ${rows.length} of ${count(first.shard.total, 'row')}`);
  await writeWholeAsync(out, async (w) => {
    const lines = w.lines(RUN_FILE.compilations);
    for (const s of shards) {
      forEachLine(s.run.compilations, (line) => {
        if (line !== '') lines.add(line);
      });
    }
    lines.close();
    await writeRows(w, rows, {
      name: first.m.corpus.name,
      ingested: first.m.corpus.ingested === true,
      texts: folderTexts(first.run.dir, first.m),
      dir: first.m.corpus.dir,
    });
    const { shard: _none, ...rest } = first.m;
    const manifest: RunManifest = {
      ...rest,
      ctxbench: version,
      command: [...command],
      merged_from: shards.map((s) => s.run.dir),
      rows: rows.length,
    };
    w.write(RUN_FILE.manifest, jsonText(manifest));
  });
  return rows.length;
}
