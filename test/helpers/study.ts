/**
 * The one way a test sets up `runStudy`: the reference corpus and its own ledger unless told
 * otherwise, strategies asked in this thread or wherever `where` says, a run folder written when
 * `out` is given, stopped after `stopAt` rows when asked.
 */
import { ledgerDirFor } from '../../src/harness/corpus/index.js';
import { loadStrategies } from '../../src/harness/hosts/index.js';
import { runStudy } from '../../src/harness/study/index.js';
import type { CaseLedger, CompilationLine, Corpus, Row, Strategy } from '../../src/harness/types.js';
import { ledgerOf, corpus as referenceCorpus, referenceLedger } from './corpus.js';

type Study = Parameters<typeof runStudy>[0];
/** Where a study's strategies answer: in this thread, or in processes of their own. */
export type Where = Study['where'];

export interface StudySetup {
  /** The reference corpus by default. */
  readonly corpus?: Corpus;
  /** The corpus's own ledger by default (and then its folder is kept from the strategies). */
  readonly ledger?: ReadonlyMap<string, CaseLedger>;
  /** Strategies asked in this thread; or `where`. */
  readonly strategies?: readonly Strategy[];
  readonly where?: Where;
  readonly jobs?: number;
  readonly shard?: Study['shard'];
  /** A run folder to write, as `ctxbench study --out` writes it; `resume` to go on with a stopped one. */
  readonly out?: string;
  readonly resume?: boolean;
  /** Stop (abort) once this many rows are done. */
  readonly stopAt?: number;
  readonly onStart?: Study['onStart'];
  readonly onRow?: Study['onRow'];
  readonly signal?: AbortSignal;
}

/** A study as `setup` describes it. */
export function study(setup: StudySetup): ReturnType<typeof runStudy> {
  const corpus = setup.corpus ?? referenceCorpus();
  const own = setup.ledger === undefined;
  const where = setup.where ?? { in: 'thread', strategies: setup.strategies ?? [] };
  const stop = setup.stopAt === undefined ? undefined : new AbortController();
  return runStudy({
    corpus,
    ledger: setup.ledger ?? (setup.corpus === undefined ? referenceLedger() : ledgerOf(corpus)),
    ledgerDir: own ? ledgerDirFor(corpus) : undefined,
    where,
    jobs: setup.jobs,
    shard: setup.shard,
    folder:
      setup.out === undefined
        ? undefined
        : { dir: setup.out, resume: setup.resume === true, version: 'test', command: ['ctxbench', 'study'] },
    onStart: setup.onStart,
    onRow: (row, done, total) => {
      setup.onRow?.(row, done, total);
      if (done === setup.stopAt) stop?.abort(new Error('stopped by the test'));
    },
    signal: stop?.signal ?? setup.signal,
  });
}

/** The rows and compilations of a study that ran to its end, in loop order. */
export async function finishedStudy(
  setup: StudySetup,
): Promise<{ rows: Row[]; compilations: CompilationLine[] }> {
  const out = await study(setup);
  if (out.state !== 'finished') throw new Error('a study with no signal cannot stop');
  return { rows: [...out.rows], compilations: [...out.compilations] };
}

let cached: Promise<{ rows: Row[]; compilations: CompilationLine[] }> | undefined;

/** The reference study of every registered strategy, run once per module graph. */
export const referenceStudy = (): Promise<{ rows: Row[]; compilations: CompilationLine[] }> => {
  cached ??= loadStrategies().then((strategies) => finishedStudy({ strategies }));
  return cached;
};
