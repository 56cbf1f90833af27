/**
 * A study's run folder opened for writing, and on resume its stopped run's finished cells vetted
 * before they are kept: each row measured again from its compilation line, each error asked of
 * its strategy again. The study itself only takes the writer this gives.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import { policyToJSON } from '../../compiler/index.js';
import { corpusDigest, RUN_FILE, RunWriter, type Vet } from '../runfolder/index.js';
import type { CaseLedger, Corpus, Row, Shard, StrategyInfo } from '../types.js';
import type { Answering, Where } from './answering.js';
import type { Cell } from './matrix.js';
import { type ErrorClaim, recheckErrors } from './recheck.js';
import { checkCell } from './remeasure.js';

/** A run folder to write as the study goes. */
export interface StudyFolder {
  readonly dir: string;
  /** Continue a stopped run in `<dir>.partial` from its finished cells. */
  readonly resume: boolean;
  /** The ctxbench version and the command line, for manifest.json and resuming. */
  readonly version: string;
  readonly command: readonly string[];
}

/** What of a study its folder's identity and a resume's vetting read. */
export interface ResumedStudy {
  readonly corpus: Corpus;
  readonly ledger: ReadonlyMap<string, CaseLedger>;
  readonly ledgerDir?: string | undefined;
  readonly where: Where;
  readonly shard?: Shard | undefined;
  readonly folder: StudyFolder;
}

/**
 * The folder's writer, which on resume holds the finished rows of the stopped run. Everything a
 * resumed run must share with the run it continues goes into its identity.
 */
export function folderWriter(
  s: ResumedStudy,
  open: Answering,
  matrix: readonly Cell<StrategyInfo>[],
  from: number,
): Promise<RunWriter> {
  const { folder } = s;
  const files = s.where.in === 'processes' ? s.where.strategies.map((r) => r.file) : [];
  const identity = {
    ctxbench: folder.version,
    corpus: corpusDigest(s.corpus.dir),
    ledger: s.ledgerDir === undefined ? null : corpusDigest(s.ledgerDir),
    policy: policyToJSON(s.corpus.policy),
    strategies: open.strategies.map(
      (st, k) => `${st.name} ${files[k] === undefined ? '' : fileDigest(files[k])}`,
    ),
    shard: s.shard ? `${s.shard.index}/${s.shard.count}` : null,
    timeout: s.where.in === 'processes' ? s.where.timeout : null,
  };
  // A kept row must be what the study writes for its compilation, and a kept error what its
  // strategy says when asked again: a row edited in the partial folder would otherwise be
  // carried into the finished run. A timeout cannot be asked again to any verdict: that cell,
  // and every one after it, is run again instead of kept.
  const vet: Vet = async (kept) => {
    const rows: Row[] = [];
    const claims: (ErrorClaim & { readonly k: number })[] = [];
    for (const [k, { row, line }] of kept.entries()) {
      const cell = matrix[from + k] as Cell<StrategyInfo>;
      const c = await checkCell(cell, s.corpus, s.ledger, row, line, row);
      if (c.compilations !== null) return { k, file: RUN_FILE.compilations, text: c.compilations };
      if (c.rows !== null || c.row === null) return { k, file: RUN_FILE.rows, text: c.rows ?? 'no row' };
      rows.push(c.row);
      if (c.error !== null) claims.push({ k, cell, message: c.error });
    }
    let keep = rows.length;
    for (const [j, v] of (await recheckErrors(claims, s.corpus, s.ledger, open.ask)).entries()) {
      const { k } = claims[j] as (typeof claims)[number];
      if (v?.unchecked === false) return { k, file: RUN_FILE.rows, text: v.text };
      if (v?.unchecked === true) keep = Math.min(keep, k);
    }
    return { rows: rows.slice(0, keep) };
  };
  return RunWriter.open(folder.dir, identity, vet, folder.resume);
}

const fileDigest = (file: string) => createHash('sha256').update(fs.readFileSync(file)).digest('hex');
