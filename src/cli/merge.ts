import { checkOut } from '../harness/folder.js';
import { RUN_MARKS } from '../harness/runfolder.js';
import { mergeShards } from '../harness/shard.js';
import { EXIT, type ExitCode, type Io } from './io.js';

export interface MergeArgs {
  readonly dirs: readonly string[];
  readonly out: string;
  readonly force: boolean;
  readonly version: string;
  readonly argv: readonly string[];
}

/** Shard folders in, one run folder out: the same files an unsharded run writes. */
export function mergeCommand(a: MergeArgs, io: Io): ExitCode {
  checkOut(a.out, a.force, RUN_MARKS);
  const rows = mergeShards(a.dirs, a.out, a.argv, a.version);
  io.out(`${a.dirs.length} shards, ${rows} compilations merged into ${a.out}\n`);
  return EXIT.ok;
}
