/**
 * A run against a published run, row by row: the vendored run-001 (`results.json` and
 * `compilation.jsonl`, beside its corpus) or a run folder `ctxbench study` wrote. Only the six
 * published strategies are judged, and of those only the ones the run holds; a run of another
 * corpus is said to be one, and only the cases both hold are judged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isPlainObject } from '../../compiler/index.js';
import { CORPUS_MANIFEST, readJsonFile, readJsonLines } from '../corpus/index.js';
import { InputError } from '../errors.js';
import {
  type CorpusFacts,
  casesOf,
  compilationId,
  corpusDigest,
  METRIC_FIELDS,
  RUN_FILE,
  type RunFolder,
  readRunFolder,
  sameCorpus,
} from '../runfolder/index.js';
import type { Row } from '../types.js';
import { PUBLISHED_ORDER } from '../vocabulary.js';
import { REFERENCE_MANIFEST } from './conformance-check.js';
import { same } from './diff.js';

/** The files of the vendored run-001, in the Python reference's format (not a run folder's). */
const VENDORED = { results: 'results.json', compilations: 'compilation.jsonl' } as const;

/** The published run calls the compiler `staged`. */
const PUBLISHED_NAME: ReadonlyMap<string, string> = new Map([['staged', 'compiler']]);
const ourName = (s: string) => PUBLISHED_NAME.get(s) ?? s;

/** One published compilation, from either kind of published folder. */
interface PublishedCell {
  readonly case: string;
  readonly budget: string;
  readonly strategy: string;
  readonly budget_tokens: number;
  /** Outcome, tokens and every metric, under the rows' names. */
  readonly fields: Readonly<Record<string, unknown>>;
  /** Undefined when the published run has no compilation record for the cell. */
  readonly bundle_hash: string | null | undefined;
  /** Sorted; null where the published run does not say (a refusal, or no compilation record). */
  readonly admitted: readonly string[] | null;
}

interface Published {
  readonly corpus: CorpusFacts;
  readonly cells: readonly PublishedCell[];
}

type Compilation = {
  fixture: string;
  strategy: string;
  budget: string;
  bundle_hash: string | null;
  trace?: { entries?: { candidate_id: string; decision: string }[] };
};

/**
 * The vendored run: its evaluations and compilation records; its corpus is the folder around it.
 * Its own reader, because it is the reference's format; a run folder is read by runfolder/ alone.
 */
function readVendored(dir: string): Published {
  const results = path.join(dir, VENDORED.results);
  const evaluations = (readJsonFile(results) as { evaluations?: unknown } | null)?.evaluations;
  if (!Array.isArray(evaluations)) throw new InputError(results, 'no evaluations');
  const lines = path.join(dir, VENDORED.compilations);
  const records = new Map(
    readJsonLines(lines).map(({ line, value }) => {
      if (!isPlainObject(value)) throw new InputError(lines, 'not an object', `line ${line}`);
      const c = value as Compilation;
      return [compilationId({ case: c.fixture, budget: c.budget, strategy: ourName(c.strategy) }), c];
    }),
  );
  const cells = evaluations.map((e: unknown, k): PublishedCell => {
    if (!isPlainObject(e)) throw new InputError(results, 'not an object', `evaluations[${k}]`);
    for (const f of ['fixture', 'strategy', 'budget'] as const)
      if (typeof e[f] !== 'string') throw new InputError(results, `invalid ${f}`, `evaluations[${k}]`);
    if (typeof e.budget_tokens !== 'number')
      throw new InputError(results, 'invalid budget_tokens', `evaluations[${k}]`);
    const { fixture, strategy, budget, ...fields } = e as Record<string, unknown> &
      Record<'fixture' | 'strategy' | 'budget', string>;
    const cell = { case: fixture, budget, strategy: ourName(strategy) };
    const c = records.get(compilationId(cell));
    const admitted =
      c !== undefined && e.success === true
        ? (c.trace?.entries ?? [])
            .filter((x) => x.decision === 'ADMITTED')
            .map((x) => x.candidate_id)
            .sort()
        : null;
    return { ...cell, budget_tokens: e.budget_tokens, fields, bundle_hash: c?.bundle_hash, admitted };
  });
  const manifest = path.join(dir, REFERENCE_MANIFEST);
  const m = fs.existsSync(manifest) ? readJsonFile(manifest) : null;
  const corpusDir = path.dirname(path.resolve(dir));
  // The vendored run sits in its corpus folder (corpus/compiler-v1/published), whose digest is
  // what a run's manifest records; elsewhere there is no telling, and the cells decide.
  const digest = fs.existsSync(path.join(corpusDir, CORPUS_MANIFEST)) ? corpusDigest(corpusDir) : null;
  return {
    corpus: {
      name: isPlainObject(m) && typeof m.fixture_id === 'string' ? m.fixture_id : path.basename(corpusDir),
      digest,
      cases: casesOf(cells),
    },
    cells,
  };
}

/** A run folder `ctxbench study` wrote (as runfolder/ reads it), as a published run: its rows of the published strategies. */
function asPublished(run: RunFolder): Published {
  const published = new Set<string>(PUBLISHED_ORDER);
  const cells = run.rows
    .filter((r) => published.has(r.strategy))
    .map(
      (r): PublishedCell => ({
        case: r.case,
        budget: r.budget,
        strategy: r.strategy,
        budget_tokens: r.budget_tokens,
        fields: Object.fromEntries(
          (['success', 'reason', 'budget_tokens', 'rendered_tokens', ...METRIC_FIELDS] as const).map((f) => [
            f,
            r[f],
          ]),
        ),
        bundle_hash: r.bundle_hash,
        admitted: r.success ? [...r.admitted].sort() : null,
      }),
    );
  return { corpus: run.corpus, cells };
}

function readPublished(dir: string): Published {
  if (!fs.existsSync(dir)) throw new InputError(dir, 'no such folder');
  if (fs.existsSync(path.join(dir, RUN_FILE.rows))) return asPublished(readRunFolder(dir));
  if (fs.existsSync(path.join(dir, VENDORED.results))) return readVendored(dir);
  throw new InputError(
    dir,
    `not a published run: neither ${RUN_FILE.rows} (a ctxbench run folder) nor ${VENDORED.results} (the published run)`,
  );
}

export interface Verification {
  /** The published strategies the run holds, in published order: the only ones judged. */
  readonly judged: readonly string[];
  /** Published strategies the run does not hold. */
  readonly absent: readonly string[];
  readonly sameCorpus: boolean;
  readonly runCorpus: CorpusFacts;
  readonly publishedCorpus: CorpusFacts;
  /** Cases both hold: all of the published ones on the same corpus. */
  readonly sharedCases: readonly string[];
  /** Published rows judged. */
  readonly rows: number;
  /** One line each; empty when every judged row reproduces. */
  readonly differences: readonly string[];
}

/** The run's rows of the published strategies it holds, against the published run. */
export function verifyRun(
  run: { readonly rows: readonly Row[]; readonly corpus: CorpusFacts },
  publishedDir: string,
): Verification {
  const published = readPublished(publishedDir);
  const inRun = new Set(run.rows.map((r) => r.strategy));
  const inPublished = new Set(published.cells.map((c) => c.strategy));
  const strategies = PUBLISHED_ORDER.filter((s) => inPublished.has(s));
  const judged = strategies.filter((s) => inRun.has(s));
  const onCorpus = sameCorpus(
    { digest: run.corpus.digest, cells: run.rows },
    { digest: published.corpus.digest, cells: published.cells },
  );
  const runCases = new Set(run.corpus.cases);
  const sharedCases = published.corpus.cases.filter((c) => runCases.has(c));
  // Of another corpus, only the cases both hold are judged: the rest cannot match by construction.
  const judgedCase = (c: string) => onCorpus || runCases.has(c);
  const judging = new Set<string>(judged);
  const ours = new Map(run.rows.map((r) => [compilationId(r), r as Row & Record<string, unknown>]));
  const differences: string[] = [];
  let rows = 0;
  for (const cell of published.cells) {
    if (!judging.has(cell.strategy) || !judgedCase(cell.case)) continue;
    rows += 1;
    const k = compilationId(cell);
    const row = ours.get(k);
    if (row === undefined) {
      differences.push(`${k}: row missing from the run`);
      continue;
    }
    for (const [field, value] of Object.entries(cell.fields)) {
      if (!same(row[field], value))
        differences.push(
          `${k}: ${field}: ours ${JSON.stringify(row[field])}, published ${JSON.stringify(value)}`,
        );
    }
    if (cell.bundle_hash === undefined) {
      differences.push(`${k}: no published compilation`);
      continue;
    }
    if (!same(row.bundle_hash, cell.bundle_hash))
      differences.push(`${k}: bundle_hash: ours ${row.bundle_hash}, published ${cell.bundle_hash}`);
    if (row.success && cell.admitted !== null) {
      const mine = [...row.admitted].sort();
      if (!same(mine, cell.admitted))
        differences.push(`${k}: admitted: ours [${mine.join(' ')}], published [${cell.admitted.join(' ')}]`);
    }
  }
  const publishedIds = new Set(published.cells.map(compilationId));
  const publishedCases = new Set(published.corpus.cases);
  for (const r of run.rows) {
    const k = compilationId(r);
    if (judging.has(r.strategy) && (onCorpus || publishedCases.has(r.case)) && !publishedIds.has(k))
      differences.push(`${k}: not in the published run`);
  }
  return {
    judged,
    absent: strategies.filter((s) => !inRun.has(s)),
    sameCorpus: onCorpus,
    runCorpus: run.corpus,
    publishedCorpus: published.corpus,
    sharedCases,
    rows,
    differences,
  };
}

/** Every difference, one line each; empty when the rows reproduce the published ones they can. */
export function verifyRows(rows: readonly Row[], publishedDir: string): string[] {
  const corpus = { name: 'rows', digest: null, cases: casesOf(rows) };
  return [...verifyRun({ rows, corpus }, publishedDir).differences];
}
