import { count } from '../../harness/format.js';
import { joinSlices } from '../../harness/ingest/index.js';
import { checkOut, guardOutput } from '../../harness/output/index.js';
import { mergeShards, mergeSliceRuns, RUN_MARKS, readSliceRuns } from '../../harness/runfolder/index.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/**
 * Shard folders in, one run folder out: the same files an unsharded run writes. Shards of one
 * study (`study --shard`) join as they are; whole studies of an ingest's slices (`ingest
 * --swe-bench --shard`) join with their corpora, which `--corpus` names the joined one of.
 */
export const merge = defineCommand({
  examples: [
    ['$0 merge runs/s1 runs/s2 runs/s3 --out runs/whole', 'the run folder an unsharded run writes'],
    [
      '$0 merge runs/lite-1 runs/lite-2 --out runs/lite --corpus corpora/lite',
      "studies of an ingest's slices: the corpus and run folder of one ingest and study",
    ],
  ],
  options: (y) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true })
      .option('out', { type: 'string', demandOption: true, describe: 'the merged run folder' })
      .option('corpus', {
        type: 'string',
        describe: "for studies of an ingest's slices: where their corpora are joined into one",
      })
      .option('force', { type: 'boolean', default: false, describe: 'replace a non-empty --out' }),
  run: async (a, ctx) => {
    const dirs = a.dirs as string[];
    guardOutput({ path: a.out, kind: 'folder', option: '--out', inputs: dirs });
    checkOut(a.out, a.force, RUN_MARKS);
    const argv = ['ctxbench', ...ctx.argv];
    const said = (rows: number) =>
      ctx.io.out(`${count(dirs.length, 'shard')}, ${count(rows, 'compilation')} merged into ${a.out}\n`);
    if (a.corpus === undefined) {
      said(await mergeShards(dirs, a.out, argv, ctx.version()));
      return EXIT.ok;
    }
    const runs = readSliceRuns(dirs);
    const slices = runs.map((r) => r.m.corpus.dir);
    const cases = await joinSlices(slices, a.corpus, { force: a.force, inputs: [...dirs, a.out] });
    said(await mergeSliceRuns(runs, a.out, a.corpus, argv, ctx.version()));
    ctx.io.out(`${count(cases, 'case')} joined into ${a.corpus}\n`);
    return EXIT.ok;
  },
});
