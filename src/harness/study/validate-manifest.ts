/**
 * A run folder's manifest.json re-derived for `validate`: every field the run's inputs, its
 * strategies and its rows give is made again by the code that writes the manifest and compared,
 * and the manifest must be written as a run writes it. The fields nothing derives (UNCHECKED) are
 * taken as they stand, their kind checked when it is read (readRunManifest).
 */
import { differences } from '../audit/index.js';
import { jsonText } from '../output/index.js';
import { manifestOf, type RunManifest } from '../runfolder/index.js';
import type { Corpus, ShardInfo, StrategyInfo } from '../types.js';

/**
 * What no input, strategy or row of a run derives: when and with what it was made, the command
 * line, where the corpus and ledger lay (their digests are checked), the limits its strategies
 * ran under and the shards a merged run came from. docs/reliability.md lists them.
 */
export const UNCHECKED = [
  'ctxbench',
  'node',
  'created_at',
  'command',
  'corpus.dir',
  'ledger.dir',
  'timeout',
  'memory',
  'merged_from',
] as const;

/** What a run derives of its manifest. */
export interface Derived {
  /** The corpus as read again from the manifest's folder, under the manifest's policy. */
  readonly corpus: Corpus;
  /** What each strategy says of itself, in the order the study runs them. */
  readonly strategies: readonly StrategyInfo[];
  /** The slice of the matrix the shard's index and count give; absent for a whole run. */
  readonly shard: ShardInfo | undefined;
  /** The ledger the run is scored with again. */
  readonly ledgerDir: string;
  /** The cells of the run (its slice). */
  readonly rows: number;
}

/** The first line (1-based) where two texts differ. */
export function firstLine(a: string, b: string): number {
  const x = a.split('\n');
  const y = b.split('\n');
  let k = 0;
  while (k < x.length && x[k] === y[k]) k++;
  return k + 1;
}

/** A time as `toISOString` writes it. */
const isTime = (x: string): boolean => !Number.isNaN(Date.parse(x)) && new Date(x).toISOString() === x;

/** The manifest a run with these facts writes, with the fields nothing derives as they stand. */
function expectedManifest(m: RunManifest, d: Derived): RunManifest {
  const made = manifestOf(
    {
      version: m.ctxbench,
      command: m.command,
      corpus: { ...d.corpus, dir: m.corpus.dir },
      policy: d.corpus.policy,
      strategies: d.strategies,
      shard: d.shard,
      ledgerDir: d.ledgerDir,
      timeout: m.timeout,
      memory: m.memory,
    },
    d.rows,
    { node: m.node, created_at: m.created_at },
  );
  // A run made without naming its ledger has none; where one lay is not derived, its digest is.
  const { ledger, ...without } = made;
  const kept =
    m.ledger === undefined || ledger === undefined
      ? without
      : { ...made, ledger: { dir: m.ledger.dir, digest: ledger.digest } };
  return m.merged_from === undefined ? kept : { ...kept, merged_from: m.merged_from };
}

/** The 1-based line of the first line of `text` holding `needle`, or 1. */
const lineOf = (text: string, needle: string): number => {
  const k = text.split('\n').findIndex((l) => l.includes(needle));
  return k < 0 ? 1 : k + 1;
};

/**
 * The manifest's first disagreement with what its run derives: its 1-based line in `text` (the
 * file as stored) and what differs; null when it is what the run writes, to the byte.
 */
export function manifestDisagreement(
  text: string,
  m: RunManifest,
  d: Derived,
): { readonly line: number; readonly text: string } | null {
  if (!isTime(m.created_at))
    return { line: lineOf(text, '"created_at"'), text: 'created_at is not a time as a run writes it' };
  const want = expectedManifest(m, d);
  const written = jsonText(want);
  if (text === written) return null;
  const first = differences(JSON.parse(text), want, '', [])[0];
  return {
    line: firstLine(text, written),
    text:
      first === undefined
        ? 'is not written as a run writes it'
        : `${first.at} ${first.text}: not what the run's corpus, ledger, policy, strategies and rows give`,
  };
}
