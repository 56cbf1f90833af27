/**
 * The merge of whole runs over slices of one ingest (`ingest --swe-bench ... --shard i/n`, then a
 * `study` of each slice, each on a machine of its own) into the run folder a study of the joined
 * corpus writes: the rows and compilations in its loop order (case by case, by name), every line
 * naming the joined corpus. The corpus itself is joined first (ingest's `joinSlices`).
 */
import path from 'node:path';
import { linesOf } from '../corpus/index.js';
import { InputError, UsageError } from '../errors.js';
import { jsonText, writeWholeAsync } from '../output/index.js';
import type { Row } from '../types.js';
import { corpusDigest } from './digest.js';
import { RUN_FILE } from './files.js';
import type { RunManifest } from './manifest.js';
import { differsOn, type MergeFolder, mergeFolder } from './merge-runs.js';
import { writeRows } from './rows.js';
import { folderTexts } from './run-texts.js';

/** Run folders of whole runs over one ingest's slices, each still beside the corpus it read. */
export function readSliceRuns(dirs: readonly string[]): MergeFolder[] {
  const runs = dirs.map((dir) => {
    const { run, file, m } = mergeFolder(dir);
    if (m.shard)
      throw new InputError(file, 'shard: a shard of a study; merge the shards of one study on their own');
    if (corpusDigest(m.corpus.dir, { file, field: 'corpus.dir' }) !== m.corpus.digest)
      throw new InputError(
        file,
        `corpus.digest: ${m.corpus.dir} is not the slice the run read (changed since)`,
      );
    return { run, file, m };
  });
  const first = runs[0];
  if (first === undefined) throw new UsageError('merge needs run folders');
  for (const r of runs) {
    const key = differsOn(r.m, first.m);
    if (key !== null) throw new InputError(r.file, `${key}: not the same as ${first.file}'s`);
  }
  return runs;
}

const CASE = /^\{"case":("(?:[^"\\]|\\.)*")/;

/** Join the runs into `out` over the joined corpus `corpusDir`; the number of rows. */
export async function mergeSliceRuns(
  runs: readonly MergeFolder[],
  out: string,
  corpusDir: string,
  command: readonly string[],
  version: string,
): Promise<number> {
  const first = runs[0] as MergeFolder;
  const digest = corpusDigest(corpusDir);
  const owner = new Map<string, number>();
  for (const [k, r] of runs.entries())
    for (const c of r.run.corpus.cases) {
      if (owner.has(c)) throw new InputError(r.file, `case ${c} is in two of the runs`);
      owner.set(c, k);
    }
  const cases = [...owner.keys()].sort();
  // A study's loop order is its cases by name, and each run's rows of a case lie together.
  const rows: Row[] = runs
    .flatMap((r) => r.run.rows)
    .sort((a, b) => (a.case < b.case ? -1 : a.case > b.case ? 1 : 0));
  const { shard: _none, ...rest } = first.m;
  const manifest: RunManifest = {
    ...rest,
    ctxbench: version,
    command: [...command],
    corpus: {
      ...first.m.corpus,
      name: path.basename(path.resolve(corpusDir)),
      dir: corpusDir,
      digest,
      cases: cases.length,
    },
    ...(first.m.ledger === undefined
      ? {}
      : {
          ledger: {
            dir: path.resolve(corpusDir, 'ledger'),
            digest: corpusDigest(path.join(corpusDir, 'ledger')),
          },
        }),
    merged_from: runs.map((r) => r.run.dir),
    rows: rows.length,
  };
  await writeWholeAsync(out, async (w) => {
    const lines = w.lines(RUN_FILE.compilations);
    const streams = runs.map((r) => ({
      r,
      at: 0,
      lines: linesOf(r.run.compilations),
      next: undefined as string | undefined,
    }));
    const pull = (s: (typeof streams)[number]) => {
      let line: IteratorResult<string>;
      do {
        line = s.lines.next();
        s.at++;
      } while (!line.done && line.value === '');
      s.next = line.done ? undefined : line.value;
    };
    const caseOf = (s: (typeof streams)[number]): string => {
      const m = CASE.exec(s.next as string);
      if (m === null) throw new InputError(s.r.run.compilations, 'no "case" first', `line ${s.at}`);
      return JSON.parse(m[1] as string) as string;
    };
    for (const s of streams) pull(s);
    for (const kase of cases) {
      const s = streams[owner.get(kase) as number] as (typeof streams)[number];
      const from = `"by_reference":"${s.r.m.corpus.digest}"`;
      while (s.next !== undefined && caseOf(s) === kase) {
        lines.add(s.next.replace(from, `"by_reference":"${digest}"`));
        pull(s);
      }
    }
    for (const s of streams)
      if (s.next !== undefined)
        throw new InputError(s.r.run.compilations, `case ${caseOf(s)} out of the loop order`, `line ${s.at}`);
    lines.close();
    await writeRows(w, rows, {
      name: manifest.corpus.name,
      ingested: true,
      texts: folderTexts(first.run.dir, manifest, corpusDir),
      dir: corpusDir,
    });
    w.write(RUN_FILE.manifest, jsonText(manifest));
  });
  return rows.length;
}
