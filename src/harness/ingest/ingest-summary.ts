/** What `ingest` prints when it is done, of a history or of SWE-bench instances: the cases, every skip, and the corpus's size against its text. */
import { count } from '../format.js';
import { lowerMedian } from '../metrics/index.js';
import type { CorpusSize } from './case-files.js';
import type { IngestSummary } from './history-ingest.js';
import type { SweBenchSummary } from './swe-bench/swe-ingest.js';

const MIB = 1024 * 1024;
const mib = (bytes: number): string => `${(bytes / MIB).toFixed(1)} MiB`;

/** Counts by reason, `a 1, b 2`, or `none`. */
const reasonList = (o: Readonly<Record<string, number | undefined>>): string =>
  Object.entries(o)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ') || 'none';

/** The corpus on disk against the distinct text it holds (the bar: within 1.5 times). */
function sizeLine(size: CorpusSize): string {
  const ratio = (n: number) => (size.uniqueText === 0 ? '-' : `${(n / size.uniqueText).toFixed(2)}x`);
  return (
    `on disk: ${mib(size.bytes)} in files, ${mib(size.allocated)} in blocks, for ${mib(size.uniqueText)} ` +
    `of distinct text (${ratio(size.bytes)}, ${ratio(size.allocated)} in blocks)`
  );
}

/** The smallest, middle and largest of some counts. */
function spread(values: readonly number[]): string {
  if (values.length === 0) return 'none';
  return `min ${Math.min(...values)}, median ${lowerMedian(values)}, max ${Math.max(...values)}`;
}

/** `ingest --swe-bench`'s report, one fact a line. */
export function sweBenchLines(s: SweBenchSummary, out: string): string {
  const instances = Object.entries(s.skippedInstances);
  const byReason = new Map<string, string[]>();
  for (const [id, why] of instances) byReason.set(why, [...(byReason.get(why) ?? []), id]);
  const lines = [
    `swe-bench: ${count(s.cases, 'case')} written to ${out} (${s.selected} of ${count(s.records, 'record')} selected` +
      (s.shard === undefined
        ? ')'
        : `; slice ${s.shard.index}/${s.shard.count}: instances ${s.shard.from + 1} to ${s.shard.to} of the ${s.shard.total})`),
    `instances skipped: ${instances.length === 0 ? 'none' : instances.length}`,
    ...[...byReason].map(
      ([why, ids]) =>
        `  ${count(ids.length, 'instance')}, ${why}: ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ', ...' : ''}`,
    ),
    `gold files: ${s.gold.files}; in the pools ${s.gold.inPool}; created by the patch ${s.gold.created}; ` +
      `left out of the pool ${s.gold.skipped} (both scored as missed, listed in the truth file's must_not_in_pool)`,
    `files per case: ${spread(s.filesPerCase)}`,
    `file versions read: ${s.versions}; skipped: ${reasonList(s.skippedFiles)}`,
    sizeLine(s.size),
  ];
  return `${lines.join('\n')}\n`;
}

/** `ingest`'s report of a history: the cases, every skip, and the corpus's size. */
export const historyLines = (s: IngestSummary, out: string, seed: string): string =>
  `${s.repository} @${s.head.slice(0, 12)}: ${count(s.cases, 'case')} written to ${out} ` +
  `(${count(s.eligible, 'eligible commit')} of ${count(s.history, 'commit')}; seed ${seed})\n` +
  `commits skipped: ${reasonList(s.skippedCommits)}\n` +
  `file versions read: ${s.versions}; skipped: ${reasonList(s.skippedFiles)}\n` +
  `${sizeLine(s.size)}\n`;
