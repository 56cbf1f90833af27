import { count } from '../../harness/format.js';
import { checkOut, guardOutput } from '../../harness/output/index.js';
import { mergeShards, RUN_MARKS } from '../../harness/runfolder/index.js';
import { defineCommand } from '../command.js';
import { EXIT } from '../io.js';

/** Shard folders in, one run folder out: the same files an unsharded run writes. */
export const merge = defineCommand({
  examples: [['$0 merge runs/s1 runs/s2 runs/s3 --out runs/whole', 'the run folder an unsharded run writes']],
  options: (y) =>
    y
      .positional('dirs', { type: 'string', array: true, demandOption: true })
      .option('out', { type: 'string', demandOption: true, describe: 'the merged run folder' })
      .option('force', { type: 'boolean', default: false, describe: 'replace a non-empty --out' }),
  run: async (a, ctx) => {
    const dirs = a.dirs as string[];
    guardOutput({ path: a.out, kind: 'folder', option: '--out', inputs: dirs });
    checkOut(a.out, a.force, RUN_MARKS);
    const rows = await mergeShards(dirs, a.out, ['ctxbench', ...ctx.argv], ctx.version());
    ctx.io.out(`${count(dirs.length, 'shard')}, ${count(rows, 'compilation')} merged into ${a.out}\n`);
    return EXIT.ok;
  },
});
